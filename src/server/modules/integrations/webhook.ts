/**
 * Webhook intake: records POSTed as JSON (an object or an array of objects) are appended to the
 * integration's 'records' dataset. Columns are inferred by DuckDB; new keys add columns. Each call
 * is checked against WEBHOOK_LIMITS before the dataset is locked (webhook-limits.ts), and stored
 * whole or not at all (one warehouse transaction).
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { Deps } from '../../context';
import { AppError, badInput } from '../../errors';
import { quoteString } from '../../warehouse/quote';
import { ROW_ID, q, quoteQualified } from './physical';
import type { MarkWrite } from '../../durability/write-journal';
import type { WarehouseSession } from '../../warehouse/types';
import { PUSH_ARRIVED } from './durable-writes';
import type { PushArrival } from './push-datasets';
import { listDatasetRows, storedColumns, type IntegrationRow } from './repo';
import { describeTable, ensureSchema, tableExists } from './staging';
import { checkWebhookBody, refuseNewColumns } from './webhook-limits';

export const WEBHOOK_DATASET = 'records';

const INTEGER_TYPES = new Set([
  'TINYINT',
  'SMALLINT',
  'INTEGER',
  'BIGINT',
  'UBIGINT',
  'UINTEGER',
  'USMALLINT',
  'UTINYINT',
]);
const isNumeric = (type: string) =>
  INTEGER_TYPES.has(type) || type === 'DOUBLE' || type === 'FLOAT' || type.startsWith('DECIMAL');

/**
 * The type a stored column must take so that new values fit without loss, or null when it already
 * fits: integers widen to BIGINT or DOUBLE, anything else that differs becomes text.
 */
export function widerType(stored: string, incoming: string): string | null {
  if (stored === incoming || stored === 'VARCHAR' || incoming === '"NULL"' || incoming === 'NULL') return null;
  if (isNumeric(stored) && isNumeric(incoming)) {
    if (INTEGER_TYPES.has(stored) && INTEGER_TYPES.has(incoming)) return stored === 'BIGINT' ? null : 'BIGINT';
    return stored === 'DOUBLE' ? null : 'DOUBLE';
  }
  return 'VARCHAR';
}

/** Objects, lists and maps are stored as JSON documents rather than nested types. */
function flatType(sqlType: string): string {
  return /^(STRUCT|MAP|UNION)\b/.test(sqlType) || sqlType.endsWith(']') ? 'JSON' : sqlType;
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
  const dir = executor.scratchDir;
  await fs.promises.mkdir(dir, { recursive: true });
  const file = path.join(dir, `webhook-${randomBytes(6).toString('hex')}.jsonl`);
  await fs.promises.writeFile(file, `${records.map((r) => JSON.stringify(r)).join('\n')}\n`);
  const target = quoteQualified(schema, table);
  // Types come from every record (a key seen once still gets a column); nested values are kept as JSON.
  const detect = `read_json($1, format = 'newline_delimited', sample_size = -1, maximum_depth = 2)`;
  try {
    return await executor.exclusive(`table:${schema}.${table}`, async () => {
      const dataset = { name: WEBHOOK_DATASET, table: WEBHOOK_DATASET, ingestion: 'Append' as const };
      const recordArrival = async (tx: WarehouseSession, mark: MarkWrite) => {
        const described = await describeTable(tx, schema, table);
        const arrival: PushArrival = {
          accountId: integration.account_id,
          integrationId: integration.id,
          dataset,
          ...described,
          received: records.length,
          at: deps.clock().toISOString(),
        };
        await mark(tx, arrival);
      };
      // Only a failure of the warehouse transaction means nothing was stored.
      const notStored = (error: unknown) => {
        if (error instanceof AppError) throw error;
        const message = error instanceof Error ? error.message.split('\n')[0] : String(error);
        throw badInput(`The records could not be stored (nothing was stored): ${message}`);
      };
      await deps.writes.write(integration.account_id, PUSH_ARRIVED, (mark) =>
        executor
          .transaction(async (tx) => {
            const detected = await tx.query({ sql: `SELECT * FROM ${detect} LIMIT 0`, parameters: [file] });
            const incoming = detected.columns.map((c) => ({ name: c.name, sqlType: flatType(c.sqlType) }));
            const source =
              `read_json($1, format = 'newline_delimited', columns = ` +
              `{${incoming.map((c) => `${quoteString(c.name)}: ${quoteString(c.sqlType)}`).join(', ')}})`;
            if (!(await tableExists(tx, schema, table))) {
              refuseNewColumns(
                incoming.map((c) => c.name),
                [],
              );
              await tx.run(`CREATE TABLE ${target} AS SELECT row_number() OVER () AS ${q(ROW_ID)}, * FROM ${source}`, [
                file,
              ]);
              return recordArrival(tx, mark);
            }
            const current = await tx.query({ sql: `SELECT * FROM ${target} LIMIT 0`, parameters: [] });
            const have = new Map(current.columns.map((c) => [c.name.toLowerCase(), c]));
            // The table itself, under its lock: another call may have added columns since the check.
            refuseNewColumns(
              incoming.map((c) => c.name),
              current.columns.filter((c) => c.name !== ROW_ID).map((c) => c.name),
            );
            for (const column of incoming) {
              const existing = have.get(column.name.toLowerCase());
              if (!existing) {
                await tx.run(`ALTER TABLE ${target} ADD COLUMN ${q(column.name)} ${column.sqlType}`);
                continue;
              }
              const widened = widerType(existing.sqlType, column.sqlType);
              if (widened !== null)
                await tx.run(`ALTER TABLE ${target} ALTER COLUMN ${q(existing.name)} TYPE ${widened}`);
            }
            await tx.run(
              `INSERT INTO ${target} BY NAME SELECT row_number() OVER () + ` +
                `(SELECT coalesce(max(${q(ROW_ID)}), 0) FROM ${target}) AS ${q(ROW_ID)}, * FROM ${source}`,
              [file],
            );
            return recordArrival(tx, mark);
          })
          .catch(notStored),
      );
      return { received: records.length };
    });
  } finally {
    await fs.promises.rm(file, { force: true });
  }
}
