/**
 * Integration definitions: the built-in ones (upserted at every start, public) and custom ones that
 * global admins add. Each has versions whose specification is JSON text with settings.properties
 * and settings.required (JSON Schema, like Airbyte's connector specification).
 */
import type { IntegrationDefinition, IntegrationSpecification, IntegrationType } from '../../../shared/integrations';
import { INTEGRATION_MESSAGES, type CreateDefinitionRequest } from '../../../shared/integrations';
import type { Db } from '../../db/database';
import { newId } from '../../db/ids';
import type { IntegrationDefinitionsTable, IntegrationDefinitionVersionsTable } from '../../db/schema';
import { badInput, notFound } from '../../errors';
import type { ConnectorRegistry } from './connectors/registry';
import { checkSpecification } from './specification';

interface BuiltIn {
  key: string;
  name: string;
  type: IntegrationType;
  docs: string;
}

/**
 * The connector that serves each type (custom definitions pick theirs by type). No connector is
 * registered under 'airbyte': Airbyte-protocol sources are programs the operator registers
 * (AIRBYTE_SOURCES, `airbyte-sources.ts`), each with a definition of its own, so a custom definition of
 * type Airbyte cannot be completed, and nothing a definition or a configuration says starts a program.
 */
export const CONNECTOR_OF_TYPE: Record<IntegrationType, string> = {
  Api: 'rest-api',
  Database: 'postgres',
  Sftp: 'sftp',
  Webhook: 'webhook',
  IncomingEmail: 'email',
  Airbyte: 'airbyte',
  Sample: 'sample-data',
};

export const BUILT_IN_DEFINITIONS: BuiltIn[] = [
  { key: 'rest-api', name: 'REST API', type: 'Api', docs: 'Reads JSON from an HTTP API, page by page.' },
  { key: 'postgres', name: 'PostgreSQL', type: 'Database', docs: 'Copies tables of a PostgreSQL database.' },
  { key: 'sftp', name: 'SFTP', type: 'Sftp', docs: 'Loads CSV, JSON lines or Parquet files from an SFTP folder.' },
  { key: 'webhook', name: 'Webhook', type: 'Webhook', docs: 'Stores JSON records posted to its address.' },
  {
    key: 'email',
    name: 'Incoming e-mail',
    type: 'IncomingEmail',
    docs: 'Loads CSV, JSON, XML, Parquet and Avro attachments of mail sent to its address.',
  },
  { key: 'sample-data', name: 'Sample data', type: 'Sample', docs: 'A small shop: customers, products and orders.' },
];

const PLACEHOLDER_SPEC = { settings: { type: 'object', properties: {}, required: [] } };

type DefinitionRow = IntegrationDefinitionsTable;
type VersionRow = IntegrationDefinitionVersionsTable;

/**
 * Parses a specification text, refusing it with its first problem (checkSpecification: JSON syntax
 * with line and column, settings.properties and settings.required, settings as a JSON Schema).
 */
export function parseSpecification(text: string): IntegrationSpecification {
  const check = checkSpecification(text);
  if (check.specification) return check.specification;
  throw badInput(`specification: ${check.problems[0]?.message ?? 'not valid.'}`);
}

export interface PublicDefinition {
  key: string;
  connectorKey: string;
  name: string;
  type: IntegrationType;
  docs: string | null;
}

/**
 * Adds a public definition the server provides (a built-in or an operator's source), or updates it
 * and adds a new version when its specification changed. `specification` null keeps the latest
 * version as it is (a placeholder when there is none yet).
 */
export async function upsertPublicDefinition(
  db: Db,
  entry: PublicDefinition,
  specification: string | null,
  now: Date,
): Promise<void> {
  await db.transaction().execute(async (trx) => {
    const existing = await trx
      .selectFrom('integration_definitions')
      .selectAll()
      .where('key', '=', entry.key)
      .executeTakeFirst();
    const id = existing?.id ?? newId();
    const fields = {
      name: entry.name,
      type: entry.type,
      docs: entry.docs,
      connector_key: entry.connectorKey,
      is_public: 1,
    };
    if (existing) await trx.updateTable('integration_definitions').set(fields).where('id', '=', id).execute();
    else
      await trx
        .insertInto('integration_definitions')
        .values({
          id,
          key: entry.key,
          account_id: null,
          icon: null,
          is_custom: 0,
          created_at: now.toISOString(),
          ...fields,
        })
        .execute();
    const latest = await trx
      .selectFrom('integration_definition_versions')
      .selectAll()
      .where('definition_id', '=', id)
      .where('is_latest', '=', 1)
      .executeTakeFirst();
    const spec = specification ?? (latest ? null : JSON.stringify(PLACEHOLDER_SPEC));
    if (spec === null || latest?.specification === spec) return;
    await trx
      .updateTable('integration_definition_versions')
      .set({ is_latest: 0 })
      .where('definition_id', '=', id)
      .execute();
    await trx
      .insertInto('integration_definition_versions')
      .values({
        id: newId(),
        definition_id: id,
        version: (latest?.version ?? 0) + 1,
        specification: spec,
        is_latest: 1,
        created_at: now.toISOString(),
      })
      .execute();
  });
}

/**
 * Server-provided definitions whose key starts with `prefix` but is not in `keep` (an operator's
 * source taken out of the configuration) are no longer listed; integrations made from them stay.
 */
export async function unlistDefinitions(db: Db, prefix: string, keep: string[]): Promise<void> {
  let update = db
    .updateTable('integration_definitions')
    .set({ is_public: 0 })
    .where('is_custom', '=', 0)
    .where('key', 'like', `${prefix}%`);
  if (keep.length > 0) update = update.where('key', 'not in', keep);
  await update.execute();
}

/** Adds the built-in definitions, or a new version of one whose specification changed. */
export async function upsertBuiltIns(db: Db, registry: ConnectorRegistry, now: Date): Promise<void> {
  for (const builtIn of BUILT_IN_DEFINITIONS) {
    const spec = JSON.stringify(registry.get(builtIn.key)?.specification ?? PLACEHOLDER_SPEC);
    await upsertPublicDefinition(db, { ...builtIn, connectorKey: builtIn.key }, spec, now);
  }
}

function toDefinition(row: DefinitionRow, versions: VersionRow[], registry: ConnectorRegistry): IntegrationDefinition {
  const sorted = [...versions].sort((a, b) => b.version - a.version);
  const latest = sorted.find((v) => v.is_latest === 1) ?? sorted[0];
  if (!latest) throw new Error(`Integration definition ${row.id} has no version`);
  return {
    id: row.id,
    name: row.name,
    icon: row.icon,
    docs: row.docs,
    type: row.type as IntegrationType,
    specification: JSON.parse(latest.specification) as IntegrationSpecification,
    version: latest.version,
    versionId: latest.id,
    isCustom: row.is_custom === 1,
    isPublic: row.is_public === 1,
    canComplete: registry.get(row.connector_key) !== undefined,
    versions: sorted.map((v) => ({
      id: v.id,
      version: v.version,
      isLatest: v.id === latest.id,
      specification: v.specification,
    })),
  };
}

export interface DefinitionRecord {
  row: DefinitionRow;
  latest: VersionRow;
  definition: IntegrationDefinition;
}

/** Public definitions and the account's custom ones, sorted by name. */
export async function listDefinitions(db: Db, accountId: string, registry: ConnectorRegistry) {
  const rows = await db
    .selectFrom('integration_definitions')
    .selectAll()
    .where((eb) => eb.or([eb('is_public', '=', 1), eb('account_id', '=', accountId)]))
    .orderBy('name')
    .execute();
  if (rows.length === 0) return [];
  const versions = await db
    .selectFrom('integration_definition_versions')
    .selectAll()
    .where(
      'definition_id',
      'in',
      rows.map((r) => r.id),
    )
    .execute();
  return rows.map((row) =>
    toDefinition(
      row,
      versions.filter((v) => v.definition_id === row.id),
      registry,
    ),
  );
}

async function recordOf(db: Db, row: DefinitionRow, registry: ConnectorRegistry): Promise<DefinitionRecord> {
  const versions = await db
    .selectFrom('integration_definition_versions')
    .selectAll()
    .where('definition_id', '=', row.id)
    .execute();
  const definition = toDefinition(row, versions, registry);
  const latest = versions.find((v) => v.id === definition.versionId) as VersionRow;
  return { row, latest, definition };
}

/** One definition the account may see; others read as missing. */
export async function findDefinition(
  db: Db,
  accountId: string,
  id: string,
  registry: ConnectorRegistry,
): Promise<DefinitionRecord> {
  const row = await db
    .selectFrom('integration_definitions')
    .selectAll()
    .where('id', '=', id)
    .where((eb) => eb.or([eb('is_public', '=', 1), eb('account_id', '=', accountId)]))
    .executeTakeFirst();
  if (!row) throw notFound(INTEGRATION_MESSAGES.definitionNotFound);
  return recordOf(db, row, registry);
}

/**
 * The definition an existing integration was made from, also when it is no longer listed (an
 * operator's source taken out, a retired definition): its connector says what may be done.
 */
export async function definitionOfIntegration(
  db: Db,
  definitionId: string,
  registry: ConnectorRegistry,
): Promise<DefinitionRecord> {
  const row = await db
    .selectFrom('integration_definitions')
    .selectAll()
    .where('id', '=', definitionId)
    .executeTakeFirstOrThrow();
  return recordOf(db, row, registry);
}

/** The version an integration was made with (its secrets follow that version's specification). */
export async function definitionVersion(db: Db, versionId: string): Promise<VersionRow> {
  const version = await db
    .selectFrom('integration_definition_versions')
    .selectAll()
    .where('id', '=', versionId)
    .executeTakeFirst();
  if (!version) throw new Error(`Definition version ${versionId} is missing`);
  return version;
}

/** A custom definition (global admins only; the caller checks), kept in the admin's current account. */
export async function createCustomDefinition(
  db: Db,
  accountId: string | null,
  input: CreateDefinitionRequest,
  now: Date,
) {
  parseSpecification(input.specification);
  const id = newId();
  await db.transaction().execute(async (trx) => {
    await trx
      .insertInto('integration_definitions')
      .values({
        id,
        key: null,
        connector_key: CONNECTOR_OF_TYPE[input.type],
        account_id: accountId,
        name: input.name,
        type: input.type,
        icon: input.icon,
        docs: input.docs,
        is_custom: 1,
        is_public: input.isPublic ? 1 : 0,
        created_at: now.toISOString(),
      })
      .execute();
    await trx
      .insertInto('integration_definition_versions')
      .values({
        id: newId(),
        definition_id: id,
        version: 1,
        specification: input.specification,
        is_latest: 1,
        created_at: now.toISOString(),
      })
      .execute();
  });
  return id;
}
