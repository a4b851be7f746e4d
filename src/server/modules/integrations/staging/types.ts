/** The staging table of one dataset's sync, and the columns it stages. */
import type { LogLevel } from '../connectors/types';
import type { StorageFormat } from '../connectors/formats';
import type { UnknownFields } from '../connectors/unknown-fields';

export interface StagedColumn {
  /** The warehouse column (physical.ts's warehouseColumnNames). */
  name: string;
  /** The source's name of the property: records and files carry the values under it. */
  field: string;
  format: StorageFormat;
  /** A value the format cannot hold (and no wider number can): the column becomes text, or the sync stops. */
  onMisfit: 'text' | 'refuse';
}

/** A column whose values did not all fit its format, and what it became. */
export interface ColumnNotice {
  column: string;
  /** Values that did not fit. */
  count: number;
  /** The format discovered, and the one the column took. */
  from: string;
  to: string;
  /** Why, in words (e.g. 'need more than 38 digits'). */
  reason: string;
}

export interface Staging {
  schema: string;
  name: string;
  columns: StagedColumn[];
  /** Rows written so far. */
  rows: number;
  bytes: number;
  notices: Map<string, ColumnNotice>;
  /** The run's log for this dataset (its lines are prefixed with the dataset's name). */
  log(level: LogLevel, message: string): void;
  /**
   * The discovered properties, when files are checked against them: a handed-over file's column
   * that none names (an SFTP file with columns the discovered one did not have) is tallied here, so
   * the log names it instead of the load dropping it silently.
   */
  unseen?: UnknownFields;
}
