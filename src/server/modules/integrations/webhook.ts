/**
 * Webhook intake: records POSTed as JSON (an object or an array of objects) are appended to the
 * integration's 'records' dataset. The body is read with every number exact (http/json-body.ts),
 * each call's fields are typed from its values (infer-types.ts), and the call goes through the
 * sync's staging and append (staging.ts, swap-in.ts): new keys add columns, and a column whose
 * stored type cannot hold a new value exactly is widened (a whole-number column meeting decimals,
 * a date column meeting other text), never cut. Each call is checked against WEBHOOK_LIMITS before
 * the dataset is locked (webhook-limits.ts), and stored whole or not at all.
 */
import fs from 'node:fs';
import type { Deps } from '../../context';
import { AppError, badInput } from '../../errors';
import type { WarehouseSession } from '../../warehouse/types';
import { exclusiveAll } from '../../warehouse/exclusive-all';
import { inferProperties } from './connectors/rest-api/infer-types';
import { parseFormat, TEXT } from './connectors/formats';
import type { LogLevel } from './connectors/types';
import { PUSH_ARRIVED } from './durable-writes';
import type { PushArrival } from './push-datasets';
import { listDatasetRows, storedColumns, type IntegrationRow } from './repo';
import { appendLog, createRun, finishRun, startAttempt } from './run-records';
import {
  createStaging,
  describeTable,
  dropStaging,
  ensureSchema,
  finishStaging,
  noticeLines,
  stageRecords,
  tableExists,
  type StagedColumn,
} from './staging';
import { swapIn } from './swap-in';
import { checkWebhookBody, refuseNewColumns } from './webhook-limits';

export const WEBHOOK_DATASET = 'records';

/** Lines worth the owner's attention (a widened column): a run of their own in the activity log. */
async function logCall(deps: Deps, integrationId: string, lines: { level: LogLevel; message: string }[]) {
  if (lines.length === 0) return;
  const { db, clock } = deps;
  const runId = await createRun(db, integrationId, 'Sync', null, clock());
  const attemptId = await startAttempt(db, runId, [], clock());
  for (const line of lines) await appendLog(db, runId, line.level, `${WEBHOOK_DATASET}: ${line.message}`, clock());
  await finishRun(db, runId, attemptId, 'Completed', clock());
}

export async function ingestWebhook(
  deps: Deps,
  integration: IntegrationRow,
  body: unknown,
): Promise<{ received: number }> {
  // Against the columns last recorded: no lock is needed to refuse a body that could never fit.
  const known = (await listDatasetRows(deps.db, integration.id)).find((d) => d.name === WEBHOOK_DATASET);
  const records = checkWebhookBody(body, known ? storedColumns(known).map((c) => c.columnKey) : []);
  const executor = deps.warehouse.forAccount(integration.account_id);
  const schema = integration.schema_name;
  const table = WEBHOOK_DATASET;
  await ensureSchema(executor, schema);
  const lines: { level: LogLevel; message: string }[] = [];
  const log = (level: LogLevel, message: string) => void lines.push({ level, message });
  // Types come from every record of the call (a key seen once still gets a column).
  const columns: StagedColumn[] = inferProperties(records, { primaryKey: [], cursorField: null }).map((p) => ({
    name: p.name,
    field: p.name,
    format: parseFormat(p.format) ?? TEXT,
    onMisfit: 'text',
  }));
  // Only a failure of the warehouse means nothing was stored; refusals of ours keep their words.
  const notStored = (error: unknown): never => {
    if (error instanceof AppError) throw error;
    const message = error instanceof Error ? error.message.split('\n')[0] : String(error);
    throw badInput(`The records could not be stored (nothing was stored): ${message}`);
  };
  const staging = await createStaging(executor, schema, table, columns, log).catch(notStored);
  try {
    await fs.promises.mkdir(executor.scratchDir, { recursive: true });
    await stageRecords(executor, staging, records, executor.scratchDir).catch(notStored);
    await finishStaging(executor, staging).catch(notStored);
    for (const line of noticeLines(staging)) log('WARN', line);
    const dataset = { name: WEBHOOK_DATASET, table, ingestion: 'Append' as const };
    const options = {
      table,
      ingestion: 'Append' as const,
      syncType: 'FullRefresh' as const,
      primaryKey: [],
      cursorField: null,
      log,
      refreshable: false,
    };
    await exclusiveAll(executor, [`table:${schema}.${table}`, `table:${schema}.${staging.name}`], async () => {
      // The table itself, under its lock: another call may have added columns since the check.
      if (await tableExists(executor, schema, table)) {
        const current = await describeTable(executor, schema, table);
        refuseNewColumns(
          columns.map((c) => c.name),
          current.columns.map((c) => c.columnKey),
        );
      }
      return deps.writes.write(integration.account_id, PUSH_ARRIVED, (mark) =>
        swapIn(executor, staging, options, async (tx: WarehouseSession, described) => {
          const arrival: PushArrival = {
            accountId: integration.account_id,
            integrationId: integration.id,
            dataset,
            ...described,
            received: records.length,
            at: deps.clock().toISOString(),
          };
          await mark(tx, arrival);
        }),
      );
    }).catch(notStored);
  } finally {
    await dropStaging(executor, staging).catch(() => undefined);
  }
  await logCall(deps, integration.id, lines);
  return { received: records.length };
}
