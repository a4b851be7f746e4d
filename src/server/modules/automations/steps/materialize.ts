/**
 * Materialize: a table or model of the account (optionally filtered) written into a static table,
 * replacing its rows or appending to them. The transform step: no SQL from users, only the engine's
 * statement of the source with its filters' values bound; column names are quoted by the one
 * quoting function.
 *
 * The write goes through the write journal (durability/write-journal.ts): the table's rows and a
 * marker change in one warehouse transaction, then the metadata (the static table's row, columns and
 * count) and the step's idempotency record are stored in one SQLite transaction, at once or, after a
 * kill, when the account's warehouse is next opened. So a kill -9 never leaves half a table, and a
 * step resumed after a crash finds its write recorded and never appends twice.
 */
import { z } from 'zod';
import { STEP_KIND_LABELS, type InputValue, type StepPreview } from '../../../../shared/automations';
import type { Column } from '../../../../shared/tables';
import type { Db } from '../../../db/database';
import { newId } from '../../../db/ids';
import type { WriteJournal } from '../../../durability/write-journal';
import { interruptible } from '../../../warehouse/interruptible';
import { quoteIdentifier as q } from '../../../warehouse/quote';
import type { WarehouseSession } from '../../../warehouse/types';
import { keepAside, keptTableName, newKeptToken } from '../../static-tables/kept-copy';
import { ROW_ID, STATIC_SCHEMA, newColumnKey, qualified } from '../../static-tables/physical';
import { recordTableSaved, tableSavedSchema, type TableSaved } from '../../static-tables/durable-writes';
import { listColumns, type StaticColumn } from '../../static-tables/repo';
import { configError } from '../step-errors';
import type { StepEnv, StepKindDefinition, StepRunEnv } from '../step-kind';
import { filtersInput, firstProblem, problemOf } from './data-inputs';
import { textInput } from './step-inputs';
import {
  countRows,
  firstRows,
  onWarehouse,
  readSource,
  sourceOptions,
  tableLabel,
  type SourceRead,
} from './table-sources';

export const MATERIALIZED = 'automation.materialized';
const MODES = ['Replace', 'Append'] as const;
type Mode = (typeof MODES)[number];

const outputSchema = z.object({ tableId: z.string(), tableName: z.string(), rowCount: z.number() });
const materializedSchema = z.object({
  saved: tableSavedSchema,
  effect: z.object({ key: z.string(), runId: z.string(), stepId: z.string() }),
  output: outputSchema,
});

/** Registered once per journal (the app's services are built once; tests may build several apps). */
const registered = new WeakSet<WriteJournal>();
export function registerMaterializeWrites(writes: WriteJournal): void {
  if (registered.has(writes)) return;
  registered.add(writes);
  writes.register(MATERIALIZED, {
    payload: materializedSchema,
    async apply(db: Db, { saved, effect, output }) {
      await recordTableSaved(db, saved);
      const now = saved.at;
      await db
        .insertInto('automation_side_effects')
        .values({
          key: effect.key,
          run_id: effect.runId,
          step_id: effect.stepId,
          state: 'Done',
          result: JSON.stringify(output),
          created_at: now,
          updated_at: now,
        })
        .onConflict((oc) =>
          oc.column('key').doUpdateSet({ state: 'Done', result: JSON.stringify(output), updated_at: now }),
        )
        .execute();
    },
  });
}

const modeOf = (inputs: Record<string, InputValue>): Mode =>
  textInput(inputs, 'mode') === 'Append' ? 'Append' : 'Replace';

/** The target: an existing static table (`StaticTable:<id>`, or one named so), or a new table of that name. */
async function targetOf(env: StepEnv, value: string): Promise<{ id: string; name: string; exists: boolean }> {
  const byId = value.startsWith('StaticTable:') ? value.slice('StaticTable:'.length) : null;
  const query = env.deps.db
    .selectFrom('static_tables')
    .select(['id', 'name'])
    .where('account_id', '=', env.ctx.accountId);
  const found = await (byId ? query.where('id', '=', byId) : query.where('name', '=', value)).executeTakeFirst();
  if (found) return { ...found, exists: true };
  if (byId) throw configError('The chosen target table no longer exists.');
  if (value.length > 200) throw configError('A table name has at most 200 characters.');
  return { id: newId(), name: value, exists: false };
}

/** DuckDB type names as its catalog prints them: the only type text put into SQL here. */
const SQL_TYPE = /^[A-Z][A-Z0-9_]*( [A-Z]+)*(\(\d+(, ?\d+)?\))?(\[\])?$/i;
function typeText(type: string): string {
  if (!SQL_TYPE.test(type)) throw configError(`A column of type ${type} cannot be stored in a table.`);
  return type;
}

interface Plan {
  columns: StaticColumn[];
  /** Source header → table column key, in source order. */
  keys: string[];
  /** Columns to add to an existing table (Append). */
  added: { key: string; type: string }[];
}

/** Which table column each source column fills: the same display name keeps its key (and format); others get new keys. */
function plan(read: SourceRead, existing: StaticColumn[], sqlTypes: string[], mode: Mode): Plan {
  const byName = new Map(existing.map((c) => [c.displayName.trim().toLowerCase(), c]));
  const taken = new Set(existing.map((c) => c.columnKey));
  const keys: string[] = [];
  const added: Plan['added'] = [];
  const fresh: StaticColumn[] = [];
  read.columns.forEach((column: Column, index) => {
    const match = byName.get(column.displayName.trim().toLowerCase());
    const key = match?.columnKey ?? newColumnKey(taken);
    taken.add(key);
    keys.push(key);
    const format = match && match.type === column.type ? match.format : null;
    const described: StaticColumn = {
      columnKey: key,
      displayName: column.displayName,
      description: match?.description ?? column.description ?? null,
      order: index,
      type: mode === 'Append' && match ? match.type : column.type,
      ...(format ? { format } : {}),
    };
    fresh.push(described);
    if (mode === 'Append' && !match) added.push({ key, type: typeText(sqlTypes[index] ?? 'VARCHAR') });
  });
  if (mode === 'Replace') return { columns: fresh, keys, added: [] };
  const appended = fresh.filter((c) => !existing.some((e) => e.columnKey === c.columnKey));
  return { columns: [...existing, ...appended].map((c, order) => ({ ...c, order })), keys, added };
}

async function write(env: StepRunEnv, inputs: Record<string, InputValue>): Promise<z.infer<typeof outputSchema>> {
  const { deps, ctx } = env;
  const executor = deps.warehouse.forAccount(ctx.accountId);
  const read = await readSource(env, textInput(inputs, 'source'), filtersInput(inputs, 'filters'));
  const target = await targetOf(env, textInput(inputs, 'target'));
  const mode = target.exists ? modeOf(inputs) : 'Replace';
  const key = `${env.idempotencyKey}:materialize`;
  return executor.exclusive(`table:${STATIC_SCHEMA}.t_${target.id.replace(/-/g, '')}`, async () => {
    // Under the table's lock: the table's columns cannot change between here and the write.
    const existing = target.exists ? await listColumns(deps.db, target.id) : [];
    const before = target.exists
      ? await deps.db.selectFrom('static_tables').select('row_count').where('id', '=', target.id).executeTakeFirst()
      : undefined;
    const shape = await interruptible(executor, env.signal, (c) =>
      c.query({ sql: `SELECT * FROM (${read.query.sql}) AS source LIMIT 0`, parameters: read.query.parameters }),
    );
    const planned = plan(
      read,
      existing,
      shape.columns.map((c) => c.sqlType),
      mode,
    );
    const token = newKeptToken();
    const select = read.headers.map((h, i) => `${q(h)} AS ${q(planned.keys[i] as string)}`);
    env.progress(
      `${mode === 'Append' ? 'Appending' : 'Writing'} rows of ${tableLabel(read.summary)} into ${target.name}`,
    );
    return deps.writes.write(
      ctx.accountId,
      MATERIALIZED,
      (mark) =>
        interruptible(executor, env.signal, (connection) =>
          connection.transaction(async (tx: WarehouseSession) => {
            let written: number;
            if (mode === 'Replace') {
              if (target.exists) await keepAside(tx, target.id);
              else await tx.run(`CREATE SCHEMA IF NOT EXISTS ${q(STATIC_SCHEMA)}`);
              await tx.run(
                `CREATE TABLE ${qualified(target.id)} AS SELECT row_number() OVER () AS ${q(ROW_ID)}, ${select.join(', ')} ` +
                  `FROM (${read.query.sql}) AS source`,
                [...read.query.parameters],
              );
              written = await count(tx, target.id);
            } else {
              // The kept copy (Undo of an earlier import) would bring back a table without these rows: it goes.
              await tx.run(`DROP TABLE IF EXISTS ${q(STATIC_SCHEMA)}.${q(keptTableName(target.id))}`);
              for (const column of planned.added)
                await tx.run(`ALTER TABLE ${qualified(target.id)} ADD COLUMN ${q(column.key)} ${column.type}`);
              const previous = await count(tx, target.id);
              await tx.run(
                `INSERT INTO ${qualified(target.id)} (${[ROW_ID, ...planned.keys].map(q).join(', ')}) ` +
                  `SELECT (SELECT coalesce(max(${q(ROW_ID)}), 0) FROM ${qualified(target.id)}) + row_number() OVER (), ` +
                  `${read.headers.map(q).join(', ')} FROM (${read.query.sql}) AS source`,
                [...read.query.parameters],
              );
              written = (await count(tx, target.id)) - previous;
            }
            const total = await count(tx, target.id);
            const saved: TableSaved = {
              tableId: target.id,
              accountId: ctx.accountId,
              name: target.exists ? null : target.name,
              columns: planned.columns,
              rowCount: total,
              at: deps.clock().toISOString(),
              kept:
                mode === 'Replace'
                  ? target.exists
                    ? { token, columns: existing, rowCount: before?.row_count ?? 0 }
                    : undefined
                  : null,
            };
            const output = { tableId: target.id, tableName: target.name, rowCount: written };
            await mark(tx, { saved, effect: { key, runId: env.run.id, stepId: env.stepId }, output });
            return output;
          }),
        ),
      { runId: undefined },
    );
  });
}

async function count(tx: WarehouseSession, tableId: string): Promise<number> {
  const [row] = await tx.all({ sql: `SELECT count(*)::DOUBLE AS n FROM ${qualified(tableId)}`, parameters: [] });
  return Number(row?.n ?? 0);
}

export const materializeStep: StepKindDefinition = {
  kind: 'Materialize',
  label: STEP_KIND_LABELS.Materialize,
  description:
    'Writes a table or model (optionally filtered) into a static table, replacing its rows or appending to them.',
  integrationConnectors: null,
  inputs: [
    { name: 'source', label: 'Table or model', type: 'select', required: true },
    {
      name: 'filters',
      label: 'Filters (optional)',
      description: 'A JSON list of filters: [{"columnKey": "...", "operator": "Equals", "value": "..."}]',
      type: 'json',
      required: false,
    },
    {
      name: 'target',
      label: 'Into table',
      description: 'An existing table, or the name of a new one.',
      type: 'select',
      required: true,
    },
    { name: 'mode', label: 'Mode', type: 'select', required: true, default: 'Replace' },
  ],
  outputs: [
    { name: 'tableId', label: 'Table id' },
    { name: 'tableName', label: 'Table name' },
    { name: 'rowCount', label: 'Rows written' },
  ],
  sideEffects: true,

  async inputOptions(env) {
    const tables = await env.services.tables.list(env.ctx, { types: ['StaticTable'], flatten: true });
    return {
      source: await sourceOptions(env),
      target: tables.map((t) => ({ value: `StaticTable:${t.id}`, label: t.name, group: 'Tables' })),
      mode: MODES.map((m) => ({ value: m, label: m === 'Replace' ? 'Replace its rows' : 'Append to its rows' })),
    };
  },

  validate(step) {
    const inputs = step.inputs;
    const unreadable = problemOf(() => [
      textInput(inputs, 'source'),
      textInput(inputs, 'target'),
      textInput(inputs, 'mode'),
    ]);
    if (unreadable) return unreadable;
    const mode = textInput(inputs, 'mode');
    const filters = problemOf(() => filtersInput(inputs, 'filters'));
    return firstProblem([
      [textInput(inputs, 'source') === '', 'Table or model is required.'],
      [textInput(inputs, 'target') === '', 'Into table is required: choose a table or name a new one.'],
      [textInput(inputs, 'target').length > 200, 'A table name has at most 200 characters.'],
      [mode !== '' && !(MODES as readonly string[]).includes(mode), 'Mode is Replace or Append.'],
      [filters !== null, filters ?? ''],
      [
        textInput(inputs, 'source') !== '' && textInput(inputs, 'source') === textInput(inputs, 'target'),
        'A table cannot be materialized into itself.',
      ],
    ]);
  },

  async preview(env, step): Promise<StepPreview> {
    const read = await readSource(env, textInput(step.inputs, 'source'), filtersInput(step.inputs, 'filters'));
    const target = await targetOf(env, textInput(step.inputs, 'target'));
    const [rowCount, rows] = await onWarehouse(env, AbortSignal.timeout(60_000), async (c) => [
      await countRows(c, read.query),
      await firstRows(c, read),
    ]);
    const mode = target.exists ? modeOf(step.inputs) : 'Replace';
    const verb = !target.exists ? 'create the table' : mode === 'Append' ? 'append to' : 'replace the rows of';
    return {
      summary: `Would ${verb} ${target.name} with ${(rowCount as number).toLocaleString('en-US')} row(s) of ${tableLabel(read.summary)}.`,
      table: { headers: read.headers, rows: rows as unknown[][], rowCount: rowCount as number },
      details: { source: tableLabel(read.summary), target: target.name, mode, newTable: !target.exists },
    };
  },

  async run(env, step) {
    registerMaterializeWrites(env.deps.writes);
    // Opening the account's warehouse settles a write a crash interrupted (recording this step's, if it committed).
    await env.deps.warehouse.forAccount(env.ctx.accountId).run('SELECT 1');
    const key = `${env.idempotencyKey}:materialize`;
    const done = await env.deps.db
      .selectFrom('automation_side_effects')
      .select(['state', 'result'])
      .where('key', '=', key)
      .executeTakeFirst();
    if (done?.state === 'Done') {
      const output = outputSchema.parse(JSON.parse(done.result ?? 'null'));
      await env.log('INFO', `Already written before a restart: ${output.rowCount} row(s) into ${output.tableName}.`);
      return output;
    }
    const output = await write(env, step.inputs);
    await env.log('INFO', `Wrote ${output.rowCount.toLocaleString('en-US')} row(s) into ${output.tableName}.`);
    return output;
  },
};
