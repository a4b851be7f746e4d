import type { Migration } from 'kysely';
import * as m0001 from './0001_init';
import * as m0002 from './0002_static_tables';
import * as m0003 from './0003_models';
import * as m0004 from './0004_integrations';
import * as m0005 from './0005_warehouse_writes';
import * as m0006 from './0006_retire_airbyte_command';
import * as m0007 from './0007_model_draft_steps';
import * as m0008 from './0008_static_table_kept_and_format';
import * as m0009 from './0009_notifications';
import * as m0010 from './0010_files';
import * as m0011 from './0011_automations';
import * as m0012 from './0012_search';
import * as m0013 from './0013_chat';
import * as m0016 from './0016_query_synonyms';

/** Every migration in order; a new file is added here too, so the list is explicit. */
export const migrations: Record<string, Migration> = {
  '0001_init': m0001,
  '0002_static_tables': m0002,
  '0003_models': m0003,
  '0004_integrations': m0004,
  '0005_warehouse_writes': m0005,
  '0006_retire_airbyte_command': m0006,
  '0007_model_draft_steps': m0007,
  '0008_static_table_kept_and_format': m0008,
  '0009_notifications': m0009,
  '0010_files': m0010,
  '0011_automations': m0011,
  '0012_search': m0012,
  '0013_chat': m0013,
  '0016_query_synonyms': m0016,
};
