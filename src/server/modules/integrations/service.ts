/**
 * The integrations calls of spec §7 (without OAuth and delegation): every read and write scoped to
 * the caller's account; read_only members change nothing.
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type {
  CreateDefinitionRequest,
  CreateIntegrationRequest,
  Integration,
  IntegrationDefinition,
  IntegrationType,
  SaveSettingsRequest,
} from '../../../shared/integrations';
import { INTEGRATION_MESSAGES } from '../../../shared/integrations';
import type { WebhookBody } from '../../../shared/integrations-api';
import { isGlobalAdmin } from '../../../shared/roles';
import { MESSAGES } from '../../../shared/messages';
import type { AccountContext, Deps } from '../../context';
import { parseRoles } from '../../db/database';
import { newId } from '../../db/ids';
import { badInput, conflict, forbidden, notFound } from '../../errors';
import { requireWriter } from '../accounts/access';
import { ConnectorError, type Connector, type ConnectorConfig } from './connectors/types';
import { createIntegrationsCore, viewerOf } from './core';
import { createCustomDefinition, definitionOfIntegration, findDefinition, listDefinitions } from './definitions';
import { createDatasetCalls } from './dataset-calls';
import { createRunCalls } from './run-calls';
import { cleanSchemaName, q } from './physical';
import type { OutboundPolicy } from '../../net/outbound-policy';
import { exclusiveAll } from '../../warehouse/exclusive-all';
import { INTEGRATION_DELETED, registerIntegrationWrites } from './durable-writes';
import { findIntegration, listDatasetRows, recentRuns, parseJson, type IntegrationRow } from './repo';
import { hashToken, newToken, sealConfiguration } from './secrets';
import { ingestWebhook } from './webhook';
import { ingestAttachment, type IncomingAttachment } from './email-intake';
import { toIntegration } from './views';

/** Types whose data is pushed to us: no discovery, no schedule, no sync. */
export const PUSH_TYPES: readonly IntegrationType[] = ['Webhook', 'IncomingEmail'];

const isEmpty = (value: unknown) => value === undefined || value === null || value === '';

/** settings.required, top level: a missing value is 'This field is required'. */
function checkRequired(settings: unknown, configuration: Record<string, unknown>): void {
  const { required, properties } = (settings ?? {}) as { required?: unknown; properties?: Record<string, unknown> };
  if (!Array.isArray(required)) return;
  for (const key of required) {
    if (typeof key !== 'string' || !isEmpty(configuration[key])) continue;
    const title = (properties?.[key] as { title?: unknown } | undefined)?.title;
    throw badInput(`${typeof title === 'string' ? title : key}: This field is required`);
  }
}

/** The connector's check: its own words on failure, as a 400. */
async function checkConnection(connector: Connector, config: ConnectorConfig): Promise<void> {
  let result: Awaited<ReturnType<Connector['check']>>;
  const tempDir = await fs.promises.mkdtemp(path.join(os.tmpdir(), 'ws-check-'));
  try {
    result = await connector.check(config, { log: () => undefined, signal: AbortSignal.timeout(60_000), tempDir });
  } catch (error) {
    if (error instanceof ConnectorError) throw badInput(error.message);
    throw error;
  } finally {
    await fs.promises.rm(tempDir, { recursive: true, force: true });
  }
  if (!result.ok) throw badInput(result.message);
}

/**
 * The local part of an incoming e-mail address: the schema name for people to recognise it, and 64
 * random bits, as the address is a credential (mail to it writes into the account).
 */
const newEmailLocalPart = (schemaName: string) => `${schemaName}.${randomBytes(8).toString('hex')}`;

const isUniqueViolation = (error: unknown) =>
  error instanceof Error && /UNIQUE constraint failed|duplicate key/i.test(error.message);

export function createIntegrationsService(deps: Deps) {
  const { db, clock } = deps;
  registerIntegrationWrites(deps.writes);
  const core = createIntegrationsCore(deps);
  const { registry, box } = core;

  async function schemaFree(accountId: string, schemaName: string): Promise<void> {
    const taken = await db
      .selectFrom('integrations')
      .select('id')
      .where('account_id', '=', accountId)
      .where('schema_name', '=', schemaName)
      .executeTakeFirst();
    if (taken) throw conflict(INTEGRATION_MESSAGES.schemaTaken);
  }

  async function typeOf(row: IntegrationRow): Promise<IntegrationType> {
    return (await core.definitionOf(row)).type as IntegrationType;
  }

  const datasetCalls = createDatasetCalls(core, typeOf);
  const runCalls = createRunCalls(core, typeOf);

  return {
    registry,
    start: () => core.start(),
    close: () => core.close(),
    /** One scheduler round now (tests move the clock, then tick). */
    tickScheduler: () => core.scheduler.tick(),
    idle: () => core.idle(),

    listDefinitions(ctx: AccountContext): Promise<IntegrationDefinition[]> {
      return listDefinitions(db, ctx.accountId, registry);
    },
    async getDefinition(ctx: AccountContext, id: string): Promise<IntegrationDefinition> {
      return (await findDefinition(db, ctx.accountId, id, registry)).definition;
    },
    async createDefinition(ctx: AccountContext, input: CreateDefinitionRequest): Promise<IntegrationDefinition> {
      if (!isGlobalAdmin(parseRoles(ctx.user.roles))) throw forbidden(MESSAGES.notAllowed);
      const id = await createCustomDefinition(db, ctx.accountId, input, clock());
      return (await findDefinition(db, ctx.accountId, id, registry)).definition;
    },

    async list(ctx: AccountContext): Promise<Integration[]> {
      const viewer = viewerOf(ctx);
      const rows = await db
        .selectFrom('integrations')
        .selectAll()
        .where('account_id', '=', ctx.accountId)
        .orderBy('name')
        .execute();
      const runs = await recentRuns(
        db,
        rows.map((r) => r.id),
        5,
      );
      return Promise.all(
        rows.map(async (row) => {
          const definition = await core.definitionOf(row);
          const version = await db
            .selectFrom('integration_definition_versions')
            .select('specification')
            .where('id', '=', row.definition_version_id)
            .executeTakeFirstOrThrow();
          return toIntegration(
            row,
            definition,
            version,
            await listDatasetRows(db, row.id),
            runs.get(row.id) ?? [],
            box,
            deps.config.integrations.emailDomain,
            viewer,
          );
        }),
      );
    },

    async get(ctx: AccountContext, id: string): Promise<Integration> {
      return core.view(await core.mustFind(ctx, id), ctx);
    },

    /**
     * What an automation step needs to reach an integration's peer itself (an HTTP request, a
     * destination write): its connector, its configuration with secrets in the clear, and the
     * outbound policy to connect under. Server-side only: never answered to a client.
     */
    async connectionOf(ctx: AccountContext, id: string): Promise<IntegrationConnection> {
      const row = await core.mustFind(ctx, id);
      const definition = await core.definitionOf(row);
      return {
        id: row.id,
        name: row.name,
        connectorKey: definition.connector_key,
        config: await core.openConfig(row),
        network: core.network,
      };
    },

    /** Checks the connection first (the connector's message on failure), then discovers in the background. */
    async create(ctx: AccountContext, input: CreateIntegrationRequest): Promise<Integration> {
      requireWriter(ctx);
      const {
        row: definition,
        latest,
        definition: shown,
      } = await findDefinition(db, ctx.accountId, input.integrationDefinitionId, registry);
      const registered = registry.get(definition.connector_key);
      if (!registered) throw badInput(INTEGRATION_MESSAGES.noConnector);
      const schemaName = cleanSchemaName(input.schemaName);
      await schemaFree(ctx.accountId, schemaName);
      const settings = shown.specification.settings;
      const sealed = sealConfiguration(box, settings, input.configuration, null);
      const id = newId();
      const now = clock().toISOString();
      const type = definition.type as IntegrationType;
      const push = PUSH_TYPES.includes(type);
      const token = type === 'Webhook' ? newToken() : null;
      const row: IntegrationRow = {
        id,
        account_id: ctx.accountId,
        definition_id: definition.id,
        definition_version_id: latest.id,
        name: input.name,
        schema_name: schemaName,
        configuration: JSON.stringify(sealed),
        webhook_token_hash: token?.hash ?? null,
        webhook_token_encrypted: token ? box.encrypt(token.token) : null,
        // The local part; the domain comes from configuration (INCOMING_EMAIL_DOMAIN).
        email_address: type === 'IncomingEmail' ? newEmailLocalPart(schemaName) : null,
        sync_status: 'Inactive',
        sync_frequency_type: 'Manual',
        sync_pattern: null,
        schedule: JSON.stringify({ type: 'Manual' }),
        next_run_at: null,
        requires_reauthentication: 0,
        discovery_status: push ? 'Loaded' : 'Processing',
        discovery_error: null,
        created_at: now,
        modified_at: now,
      };
      const config = await core.openConfig({ ...row });
      checkRequired(settings, config);
      await checkConnection(registered.connector, config);
      try {
        await db.insertInto('integrations').values(row).execute();
      } catch (error) {
        if (isUniqueViolation(error)) throw conflict(INTEGRATION_MESSAGES.schemaTaken);
        throw error;
      }
      if (!push) await core.discover(row);
      return core.view((await findIntegration(db, ctx.accountId, id)) as IntegrationRow, ctx);
    },

    /** Name and configuration; a masked secret keeps its stored value. The connection is checked again. */
    async saveSettings(ctx: AccountContext, id: string, input: SaveSettingsRequest): Promise<Integration> {
      const row = await core.mustFind(ctx, id);
      requireWriter(ctx);
      const changes: Partial<IntegrationRow> = { modified_at: clock().toISOString() };
      if (input.name !== undefined) changes.name = input.name;
      if (input.configuration !== undefined) {
        const {
          row: definitionRow,
          latest,
          definition,
        } = await definitionOfIntegration(db, row.definition_id, registry);
        const settings = definition.specification.settings;
        const stored = parseJson<Record<string, unknown>>(row.configuration, {});
        const sealed = sealConfiguration(box, settings, input.configuration, stored);
        const next = { ...row, configuration: JSON.stringify(sealed), definition_version_id: latest.id };
        const config = await core.openConfig(next);
        checkRequired(settings, config);
        const registered = registry.get(definitionRow.connector_key);
        if (!registered) throw badInput(INTEGRATION_MESSAGES.noConnector);
        await checkConnection(registered.connector, config);
        Object.assign(changes, {
          configuration: next.configuration,
          definition_version_id: latest.id,
          requires_reauthentication: 0,
        });
      }
      await db.updateTable('integrations').set(changes).where('id', '=', id).execute();
      return core.view({ ...row, ...changes }, ctx);
    },

    /**
     * A new push address (webhook token or incoming e-mail address) for a Webhook or Incoming e-mail
     * integration. The old one stops working at once: it is no longer stored anywhere.
     */
    async rotateAddress(ctx: AccountContext, id: string): Promise<Integration> {
      const row = await core.mustFind(ctx, id);
      requireWriter(ctx);
      const type = await typeOf(row);
      const changes: Partial<IntegrationRow> = { modified_at: clock().toISOString() };
      if (type === 'Webhook') {
        const token = newToken();
        changes.webhook_token_hash = token.hash;
        changes.webhook_token_encrypted = box.encrypt(token.token);
      } else if (type === 'IncomingEmail') {
        changes.email_address = newEmailLocalPart(row.schema_name);
      } else {
        throw badInput(INTEGRATION_MESSAGES.noPushAddress);
      }
      await db
        .updateTable('integrations')
        .set(changes)
        .where('id', '=', id)
        .where('account_id', '=', ctx.accountId)
        .execute();
      return core.view({ ...row, ...changes }, ctx);
    },

    /** Deletes the integration and drops its warehouse schema with every dataset table. */
    async remove(ctx: AccountContext, id: string): Promise<void> {
      const row = await core.mustFind(ctx, id);
      requireWriter(ctx);
      if (core.runner.isBusy(id))
        throw conflict('A sync of this integration is running; delete it when the sync has finished.');
      const executor = deps.warehouse.forAccount(ctx.accountId);
      const tables = (await listDatasetRows(db, id)).map((d) => `table:${row.schema_name}.${d.table_name}`);
      await exclusiveAll(executor, [...tables, `schema:${row.schema_name}`], () =>
        deps.writes.write(ctx.accountId, INTEGRATION_DELETED, (mark) =>
          executor.transaction(async (tx) => {
            await tx.run(`DROP SCHEMA IF EXISTS ${q(row.schema_name)} CASCADE`);
            await mark(tx, { integrationId: id });
          }),
        ),
      );
    },

    ...datasetCalls,
    ...runCalls,

    /** An attachment the e-mail listener received (see email-intake.ts). */
    receiveAttachment: (attachment: IncomingAttachment) => ingestAttachment(deps, attachment),

    /** POST /api/integrations/webhook/{token}: no session; the token is the credential. */
    async webhook(token: string, body: WebhookBody): Promise<{ received: number }> {
      const row = await db
        .selectFrom('integrations')
        .selectAll()
        .where('webhook_token_hash', '=', hashToken(token))
        .executeTakeFirst();
      // The same answer for a token that never existed and one rotated away: nothing to learn from it.
      if (!row) throw notFound(INTEGRATION_MESSAGES.unknownWebhook);
      return ingestWebhook(deps, row, body);
    },
  };
}

export type IntegrationsService = ReturnType<typeof createIntegrationsService>;

/** An integration as an automation step connects to it (see connectionOf). */
export interface IntegrationConnection {
  id: string;
  name: string;
  connectorKey: string;
  config: ConnectorConfig;
  network: OutboundPolicy;
}
