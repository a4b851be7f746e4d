/**
 * What every integrations call shares: the connector registry, the secret box, the sync runner, the
 * scheduler and background discovery, started and stopped with the app.
 */
import fs from 'node:fs';
import path from 'node:path';
import { INTEGRATION_MESSAGES } from '../../../shared/integrations';
import type { Integration } from '../../../shared/integrations';
import { canWrite } from '../../../shared/roles';
import type { AccountContext, Deps } from '../../context';
import { parseRoles } from '../../db/database';
import { notFound } from '../../errors';
import { createScheduler, type Scheduler } from '../../jobs/scheduler';
import { createOutboundPolicy, type OutboundPolicy } from '../../net/outbound-policy';
import { registerAirbyteSources } from './airbyte-sources';
import { builtInConnectors, type ConnectorRegistry } from './connectors/registry';
import type { ConnectorConfig } from './connectors/types';
import { definitionVersion, upsertBuiltIns } from './definitions';
import { runDiscovery, setDiscoveryStatus } from './discovery';
import { findIntegration, listDatasetRows, parseJson, recentRuns, type IntegrationRow } from './repo';
import { startEmailListener, type EmailListener } from './connectors/email';
import { ingestAttachment, localPartOf, logMailEvent } from './email-intake';
import { createSyncRunner, type SyncRunner } from './runner';
import { nextRunAfter } from './schedule';
import { openConfiguration, resolveSecretsKey, secretBox, type SecretBox } from './secrets';
import { settingsSchemaOf, toIntegration } from './views';

export interface IntegrationsCore {
  deps: Deps;
  registry: ConnectorRegistry;
  box: SecretBox;
  /** The operator's policy for connections opened on a user's behalf (connectors, automation steps). */
  network: OutboundPolicy;
  runner: SyncRunner;
  scheduler: Scheduler;
  mustFind(ctx: AccountContext, id: string): Promise<IntegrationRow>;
  definitionOf(
    row: IntegrationRow,
  ): Promise<{ name: string; type: string; icon: string | null; connector_key: string }>;
  openConfig(row: IntegrationRow): Promise<ConnectorConfig>;
  /** The integration as `ctx` may see it (the push address only for writers, see views.ts). */
  view(row: IntegrationRow, ctx: AccountContext): Promise<Integration>;
  /** Starts discovery in the background (status Processing until it ends). */
  discover(row: IntegrationRow): Promise<void>;
  /** Resolves when no discovery or sync runs (tests). */
  idle(): Promise<void>;
  start(): Promise<void>;
  close(): Promise<void>;
}

/** Push addresses write data into the account: only those who may write see them. */
export function viewerOf(ctx: AccountContext): { seesAddress: boolean } {
  return { seesAddress: canWrite(ctx.roles, parseRoles(ctx.user.roles)) };
}

export function createIntegrationsCore(deps: Deps): IntegrationsCore {
  const { db, clock } = deps;
  const network = createOutboundPolicy({ allowPrivateNetworks: deps.config.outbound.privateNetworks });
  const registry = builtInConnectors(clock, network);
  const box = secretBox(resolveSecretsKey(deps.config.dataDir, deps.config.secretsKey));
  const background = new Set<Promise<void>>();
  const stopping = new AbortController();

  async function definitionOf(row: IntegrationRow) {
    return db
      .selectFrom('integration_definitions')
      .select(['name', 'type', 'icon', 'connector_key'])
      .where('id', '=', row.definition_id)
      .executeTakeFirstOrThrow();
  }

  async function openConfig(row: IntegrationRow): Promise<ConnectorConfig> {
    const version = await definitionVersion(db, row.definition_version_id);
    return openConfiguration(box, settingsSchemaOf(version), parseJson<Record<string, unknown>>(row.configuration, {}));
  }

  const runner = createSyncRunner(deps, {
    registry,
    connectorKeyOf: async (row) => (await definitionOf(row)).connector_key,
    openConfig,
  });

  /** Starts the scheduled syncs that are due and moves each one's next run on. */
  async function schedulerRound(): Promise<void> {
    const now = clock();
    const due = await db
      .selectFrom('integrations')
      .selectAll()
      .where('sync_status', '=', 'Active')
      .where('sync_pattern', 'is not', null)
      .where('next_run_at', '<=', now.toISOString())
      .execute();
    for (const row of due) {
      const next = nextRunAfter(row.sync_pattern as string, now);
      await db
        .updateTable('integrations')
        .set({ next_run_at: next ? next.toISOString() : null })
        .where('id', '=', row.id)
        .execute();
      if (row.requires_reauthentication === 1 || runner.isBusy(row.id)) continue;
      await runner.trigger(row).catch(() => undefined);
    }
  }
  const scheduler = createScheduler(deps.config.integrations.schedulerIntervalMs, schedulerRound, (error) =>
    console.error('Integration scheduler round failed', error),
  );

  /** The SMTP listener of Incoming e-mail integrations, when SMTP_LISTEN_PORT is set. */
  let email: EmailListener | null = null;
  async function startEmail(): Promise<void> {
    const { smtpListenPort, emailDomain } = deps.config.integrations;
    if (smtpListenPort === 0) return;
    email = await startEmailListener({
      port: smtpListenPort,
      host: deps.config.host,
      domain: emailDomain,
      accepts: async (address) =>
        (await db
          .selectFrom('integrations')
          .select('id')
          .where('email_address', '=', localPartOf(address))
          .executeTakeFirst()) !== undefined,
      onAttachment: async (attachment) => {
        try {
          await ingestAttachment(deps, attachment);
        } finally {
          await fs.promises.rm(attachment.path, { force: true });
        }
      },
      log: (level, message, address) => {
        // Lines about one integration's mail (ignored files) go to its activity log.
        if (address && level !== 'INFO') void logMailEvent(deps, address, level, message);
      },
      // Emptied at start (durability/startup.ts); each attachment moves to its account's scratch folder.
      dir: path.join(deps.config.dataDir, 'tmp', 'mail'),
    });
  }

  const track = (work: Promise<void>) => {
    background.add(work);
    void work.finally(() => background.delete(work));
  };

  return {
    deps,
    registry,
    box,
    network,
    runner,
    scheduler,
    async mustFind(ctx, id) {
      const row = await findIntegration(db, ctx.accountId, id);
      if (!row) throw notFound(INTEGRATION_MESSAGES.notFound);
      return row;
    },
    definitionOf,
    openConfig,
    async view(row, ctx) {
      const [definition, version, datasets, runs] = await Promise.all([
        definitionOf(row),
        definitionVersion(db, row.definition_version_id),
        listDatasetRows(db, row.id),
        recentRuns(db, [row.id], 5),
      ]);
      return toIntegration(
        row,
        definition,
        version,
        datasets,
        runs.get(row.id) ?? [],
        box,
        deps.config.integrations.emailDomain,
        viewerOf(ctx),
      );
    },
    async discover(row) {
      const registered = registry.get((await definitionOf(row)).connector_key);
      await setDiscoveryStatus(db, row.id, 'Processing', null);
      if (!registered) {
        await setDiscoveryStatus(db, row.id, 'Error', INTEGRATION_MESSAGES.noConnector);
        return;
      }
      const config = await openConfig(row);
      track(runDiscovery(db, row.id, registered.connector, config, stopping.signal));
    },
    async idle() {
      while (background.size > 0) await Promise.allSettled([...background]);
      await runner.idle();
    },
    async start() {
      await runner.recover();
      await db
        .updateTable('integrations')
        .set({ discovery_status: 'Error', discovery_error: 'The server stopped during discovery.' })
        .where('discovery_status', '=', 'Processing')
        .execute();
      await upsertBuiltIns(db, registry, clock());
      await registerAirbyteSources(deps, registry, stopping.signal);
      scheduler.start();
      await startEmail();
    },
    async close() {
      stopping.abort();
      await email?.close();
      await scheduler.stop();
      await runner.close();
      await Promise.allSettled([...background]);
    },
  };
}
