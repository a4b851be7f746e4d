/**
 * The sync runner: a run per trigger with an attempt, executed in the background with at most
 * SYNC_CONCURRENCY syncs at once. Each selected dataset is synced on its own (sync-dataset.ts): one
 * failing dataset leaves its old rows, the others still land, and the run ends Failed with log lines
 * saying why.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { AttemptErrorType, DatasetProgress, RunLogLevel, RunStatus } from '../../../shared/integrations';
import { INTEGRATION_MESSAGES } from '../../../shared/integrations';
import type { Deps } from '../../context';
import { conflict } from '../../errors';
import { createRunQueue } from '../../jobs/run-queue';
import type { ConnectorRegistry } from './connectors/registry';
import { ConnectorError, type ConnectorConfig } from './connectors/types';
import { activeRun, listDatasetRows, parseJson, type IntegrationRow, type RunRow } from './repo';
import { notifyRunFinished } from './run-notifications';
import { appendLog, createRun, failInterruptedRuns, finishRun, saveProgress, startAttempt } from './run-records';
import { ensureSchema } from './staging';
import { syncDataset } from './sync-dataset';

const PROGRESS_EVERY_MS = 1_000;

export interface SyncRunner {
  /**
   * Queues a run; 409 when one of the integration is waiting or running. With `fullRefreshDatasets`
   * those datasets start over; with `only` (an automation's Sync integration step) just those
   * datasets sync, each as it is set up.
   */
  trigger(integration: IntegrationRow, fullRefreshDatasets?: string[], only?: string[]): Promise<RunRow>;
  isBusy(integrationId: string): boolean;
  /** Stops a run that waits or runs (it ends Cancelled, each dataset's previous data unchanged); false when it is not this process's. */
  cancel(runId: string): boolean;
  /** Marks runs a crash left Running as Failed (at start). */
  recover(): Promise<number>;
  /** Resolves when no sync runs or waits. */
  idle(): Promise<void>;
  /** Stops running syncs (Cancelled) and waits for them. */
  close(): Promise<void>;
}

export interface RunnerOptions {
  registry: ConnectorRegistry;
  connectorKeyOf(integration: IntegrationRow): Promise<string>;
  openConfig(integration: IntegrationRow): Promise<ConnectorConfig>;
}

/** What the run's log, its figures and the notification say of an error: a long one is cut (it may quote a whole value). */
const ERROR_CHARS = 2_000;
const clip = (text: string) => (text.length > ERROR_CHARS ? `${text.slice(0, ERROR_CHARS)}…` : text);

function errorOf(error: unknown): { type: AttemptErrorType; message: string } {
  if (error instanceof ConnectorError) return { type: error.type, message: clip(error.message) };
  return { type: 'SystemError', message: clip(error instanceof Error ? error.message : String(error)) };
}

const refusedCredentials = (error: unknown) => error instanceof ConnectorError && error.credentialsRejected;

/** Until settings are saved again (which clears it), neither 'Sync data now' nor the schedule runs it. */
async function requireReauthentication(db: Deps['db'], integrationId: string): Promise<void> {
  await db.updateTable('integrations').set({ requires_reauthentication: 1 }).where('id', '=', integrationId).execute();
}

const isAbort = (error: unknown) => error instanceof Error && error.name === 'AbortError';

export function createSyncRunner(deps: Deps, options: RunnerOptions): SyncRunner {
  const { db, clock } = deps;
  const queue = createRunQueue(deps.config.integrations.syncConcurrency, (error) => {
    console.error('Integration sync crashed', error);
  });
  const busy = new Set<string>();
  const controllers = new Map<string, AbortController>();
  const queued = new Set<string>();
  const cancelled = new Set<string>();

  async function execute(runId: string, integration: IntegrationRow): Promise<void> {
    const controller = new AbortController();
    controllers.set(runId, controller);
    // Cancelled while it waited for its turn: it starts stopped.
    if (cancelled.delete(runId)) controller.abort();
    const log = (level: RunLogLevel, message: string) => appendLog(db, runId, level, message, clock());
    const run = await db.selectFrom('integration_runs').selectAll().where('id', '=', runId).executeTakeFirstOrThrow();
    // The datasets a run names: a full refresh's, or a sync of only some (kind Sync); null: the selected ones.
    const named = parseJson<string[] | null>(run.full_refresh_datasets, null);
    const refresh = run.kind === 'FullRefresh' ? named : null;
    const rows = (await listDatasetRows(db, integration.id)).filter((d) =>
      named ? named.includes(d.name) : d.is_selected === 1,
    );
    const progress: DatasetProgress[] = rows.map((d) => ({
      name: d.name,
      status: 'Pending',
      recordsProcessed: 0,
      bytesProcessed: 0,
      errors: [],
    }));
    const attemptId = await startAttempt(db, runId, progress, clock());
    const executor = deps.warehouse.forAccount(integration.account_id);
    // In the account's scratch folder: the only place besides uploads and exports its warehouse reads.
    const tempDir = path.join(executor.scratchDir, 'syncs', runId);
    let status: RunStatus = 'Completed';
    // The first problem, for the failure notification's text.
    let firstProblem: string | null = null;
    // The source refused the saved credentials: no sync can succeed until new ones are saved.
    let credentialsRejected = false;
    try {
      await log('INFO', `${refresh ? 'Full refresh' : 'Sync'} started: ${rows.length} dataset(s).`);
      if (rows.length === 0) {
        // A scheduled sync with nothing chosen ('Sync data now' refuses it first): a run of nothing
        // is not a success, so it never shows as a green Completed.
        status = 'Failed';
        firstProblem = INTEGRATION_MESSAGES.noDatasetsChosen;
        await log('ERROR', INTEGRATION_MESSAGES.noDatasetsChosen);
      }
      const registered = options.registry.get(await options.connectorKeyOf(integration));
      if (!registered && rows.length > 0) throw new ConnectorError(INTEGRATION_MESSAGES.noConnector, 'ConfigError');
      const config = await options.openConfig(integration);
      if (rows.length > 0) await ensureSchema(executor, integration.schema_name);
      await fs.promises.mkdir(tempDir, { recursive: true });
      for (const [index, row] of rows.entries()) {
        const entry = progress[index] as DatasetProgress;
        entry.status = 'Running';
        entry.startedAt = clock().toISOString();
        await saveProgress(db, runId, attemptId, progress);
        let lastSave = Date.now();
        try {
          const result = await syncDataset(
            {
              executor,
              writes: deps.writes,
              integrationId: integration.id,
              runId,
              clock,
              connector: registered!.connector,
              config,
              signal: controller.signal,
              tempDir,
              schema: integration.schema_name,
              log: (level, message) => void log(level, `${row.name}: ${message}`),
              progress: (records, bytes) => {
                entry.recordsProcessed = records;
                entry.bytesProcessed = bytes;
                if (Date.now() - lastSave < PROGRESS_EVERY_MS) return;
                lastSave = Date.now();
                void saveProgress(db, runId, attemptId, progress);
              },
            },
            row,
            refresh !== null,
          );
          entry.status = 'Completed';
          entry.recordsProcessed = result.records;
          entry.bytesProcessed = result.bytes;
        } catch (error) {
          if (isAbort(error) || controller.signal.aborted) {
            entry.status = 'Cancelled';
            status = 'Cancelled';
            await log('WARN', `${row.name}: stopped before it finished; its previous data is unchanged.`);
            entry.endedAt = clock().toISOString();
            break;
          }
          const problem = errorOf(error);
          credentialsRejected ||= refusedCredentials(error);
          entry.status = 'Failed';
          entry.errors.push(problem);
          status = 'Failed';
          firstProblem ??= `${row.name}: ${problem.message}`;
          await log('ERROR', `${row.name}: ${problem.type}: ${problem.message} Its previous data is unchanged.`);
        }
        entry.endedAt = clock().toISOString();
        await saveProgress(db, runId, attemptId, progress);
      }
    } catch (error) {
      const problem = errorOf(error);
      credentialsRejected ||= refusedCredentials(error);
      status = 'Failed';
      firstProblem ??= problem.message;
      await log('ERROR', `${problem.type}: ${problem.message}`);
    } finally {
      controllers.delete(runId);
      await fs.promises.rm(tempDir, { recursive: true, force: true }).catch(() => undefined);
      await saveProgress(db, runId, attemptId, progress, status).catch(() => undefined);
      await finishRun(db, runId, attemptId, status, clock());
      if (credentialsRejected)
        await requireReauthentication(db, integration.id).catch((error: unknown) =>
          console.error(`Could not mark integration ${integration.id} as needing re-authentication`, error),
        );
      const failed = progress.filter((p) => p.status === 'Failed').length;
      await log(
        status === 'Completed' ? 'INFO' : status === 'Cancelled' ? 'WARN' : 'ERROR',
        status === 'Completed'
          ? 'Sync completed.'
          : status === 'Cancelled'
            ? 'Sync cancelled.'
            : `Sync failed${failed > 0 ? `: ${failed} dataset(s) could not be synced` : ''}.`,
      );
      // After the run's rows are committed; a notification that cannot be sent leaves the run as it is.
      await notifyRunFinished(deps, { id: runId, integrationId: integration.id, status, problem: firstProblem }).catch(
        (error: unknown) => console.error('Could not send the sync notifications', error),
      );
      const landed = progress.filter((p) => p.status === 'Completed');
      await deps.events.emit('syncFinished', {
        accountId: integration.account_id,
        integrationId: integration.id,
        runId,
        status,
        recordsProcessed: landed.reduce((sum, p) => sum + p.recordsProcessed, 0),
        datasets: landed.map((p) => ({ name: p.name, recordsProcessed: p.recordsProcessed })),
      });
    }
  }

  return {
    async trigger(integration, fullRefreshDatasets, only) {
      if (busy.has(integration.id)) throw conflict(INTEGRATION_MESSAGES.alreadyRunning);
      busy.add(integration.id);
      try {
        if (await activeRun(db, integration.id)) throw conflict(INTEGRATION_MESSAGES.alreadyRunning);
        const runId = await createRun(
          db,
          integration.id,
          fullRefreshDatasets ? 'FullRefresh' : 'Sync',
          fullRefreshDatasets ?? only ?? null,
          clock(),
        );
        queued.add(runId);
        queue.push(runId, () =>
          execute(runId, integration).finally(() => {
            queued.delete(runId);
            cancelled.delete(runId);
            busy.delete(integration.id);
          }),
        );
        return await db.selectFrom('integration_runs').selectAll().where('id', '=', runId).executeTakeFirstOrThrow();
      } catch (error) {
        busy.delete(integration.id);
        throw error;
      }
    },
    isBusy: (integrationId) => busy.has(integrationId),
    cancel(runId) {
      const running = controllers.get(runId);
      if (running) {
        running.abort();
        return true;
      }
      if (!queued.has(runId)) return false;
      cancelled.add(runId);
      return true;
    },
    async recover() {
      const failed = await failInterruptedRuns(db, clock());
      // The writers learn of a sync the stop cut short, as of any failed sync.
      for (const run of failed) {
        await notifyRunFinished(deps, {
          id: run.id,
          integrationId: run.integration_id,
          status: 'Failed',
          problem:
            run.status === 'Running'
              ? 'The server stopped while this sync was running.'
              : 'The server stopped before this sync started.',
        }).catch((error: unknown) => console.error('Could not send the sync notifications', error));
      }
      return failed.length;
    },
    idle: () => queue.idle(),
    async close() {
      for (const controller of controllers.values()) controller.abort();
      await queue.close();
    },
  };
}
