/**
 * Making a sync's staged rows the dataset's: Overwrite replaces the table; Append inserts the rows
 * (new columns added, column types reconciled, see stored-types.ts); AppendDedup then keeps the
 * newest row per primary key, by cursor then arrival (rows without a key value are each kept, and
 * the log says how many).
 *
 * Incremental reads start at the saved cursor inclusively (a row written later with a cursor equal
 * to it is still read), so the rows at that boundary arrive again. AppendDedup absorbs them through
 * the primary key. Append without a primary key drops, among the staged rows whose cursor equals
 * the table's largest cursor, as many copies of each row as the table already holds at that cursor
 * (multiset difference): rows read before are not added twice, and rows new at the boundary are
 * added. Identical rows (every selected column equal) at the boundary count as copies of each other.
 * Rows without a cursor value, which incremental reads take every time, are a boundary of their own.
 */
import { LIMITS } from '../../../shared/limits';
import type { Column } from '../../../shared/tables';
import type { IngestionType, SyncType } from '../../../shared/integrations';
import { doubleTextSql } from '../../warehouse/export-cells';
import { swapTable } from '../../warehouse/swap-table';
import type { WarehouseExecutor, WarehouseSession } from '../../warehouse/types';
import { crashPoint } from '../../durability/crash-points';
import { freeName } from '../../warehouse/free-name';
import { ConnectorError, type LogLevel } from './connectors/types';
import { formatOfDuckDbType } from './connectors/formats';
import { ROW_ID, q, quoteQualified } from './physical';
import { describeTable, tableExists, type Staging } from './staging';
import { numberKeySql } from './number-keys';
import { decimalType, reconcile } from './stored-types';

export interface SwapOptions {
  table: string;
  ingestion: IngestionType;
  syncType: SyncType;
  primaryKey: string[];
  cursorField: string | null;
  /** The run's log for this dataset (its lines are prefixed with the dataset's name). */
  log(level: LogLevel, message: string): void;
  /** Whether a full refresh can store a column anew (not for push sources): the log then says so. */
  refreshable?: boolean;
  /**
   * Columns whose source values are numbers. A key among them stored as exact text is compared as
   * the number it spells (number-keys.ts): `1.0` stored before and `1` read now are one key.
   */
  numberColumns?: readonly string[];
}

/**
 * Makes the staged rows the dataset's, in one transaction in which `alongside` also runs with the
 * table as it will be: on failure the table is as before. The caller holds `exclusive` of the
 * table and of the staging table.
 */
export async function swapIn<T>(
  executor: WarehouseExecutor,
  staging: Staging,
  options: SwapOptions,
  alongside: (tx: WarehouseSession, table: { columns: Column[]; rowCount: number }) => Promise<T>,
): Promise<T> {
  const { schema } = staging;
  const staged = quoteQualified(schema, staging.name);
  // Batches were appended (and committed) in the order they were read, and rowid follows insertion
  // order: numbering here spares every batch a row_number() window, which would make DuckDB's
  // parallel readers hand their rows over in order. Committed on its own, before the swap renames the
  // table (see swap-table.ts); a crash in between leaves only a staging table, swept at start.
  await numberRows(executor, staged);
  crashPoint('sync:rows-numbered');
  if (options.ingestion === 'AppendDedup') await sayKeyless(executor, staged, options);
  const describedInside = async (tx: WarehouseSession) => alongside(tx, await describeTable(tx, schema, options.table));
  if (options.ingestion === 'Overwrite' || !(await tableExists(executor, schema, options.table))) {
    // The first AppendDedup read keeps one row per key too: a source may send a key twice in one read.
    if (options.ingestion === 'AppendDedup') await keepNewestPerKey(executor, staged, options);
    return swapTable(executor, schema, staging.name, options.table, describedInside);
  }
  return executor.transaction(async (tx) => {
    await appendStaged(tx, staging, options);
    return describedInside(tx);
  });
}

async function columnTypes(tx: Pick<WarehouseSession, 'query'>, relation: string): Promise<Map<string, string>> {
  const result = await tx.query({ sql: `SELECT * FROM ${relation} LIMIT 0`, parameters: [] });
  return new Map(result.columns.map((c) => [c.name, c.sqlType]));
}

/**
 * Sets `_row_id` from DuckDB's rowid pseudo-column. A staged column named rowid (in any case: a
 * PostgreSQL table may have one) hides it, and `_row_id` would take that column's values
 * (duplicates, NULLs): it is given a free name for the UPDATE, as the CSV import does (freeRowid).
 */
async function numberRows(executor: WarehouseExecutor, staged: string): Promise<void> {
  const names = [...(await columnTypes(executor, staged)).keys()];
  const shadowing = names.find((name) => name.toLowerCase() === 'rowid');
  const number = () => executor.run(`UPDATE ${staged} SET ${q(ROW_ID)} = rowid + 1`);
  if (shadowing === undefined) return void (await number());
  const free = freeName('_rowid', names);
  await executor.run(`ALTER TABLE ${staged} RENAME COLUMN ${q(shadowing)} TO ${q(free)}`);
  await number();
  await executor.run(`ALTER TABLE ${staged} RENAME COLUMN ${q(free)} TO ${q(shadowing)}`);
}

const nested = (sqlType: string) => /^(STRUCT|MAP|UNION)\b|\]$/i.test(sqlType);

/**
 * The exact text of a stored value when its column becomes text: nested values as JSON, doubles as
 * the grid shows them (3, not DuckDB's 3.0), anything else as DuckDB spells it.
 */
export function textOf(sqlType: string, ref: string): string {
  if (nested(sqlType)) return `CAST(to_json(${ref}) AS VARCHAR)`;
  if (sqlType === 'DOUBLE') return doubleTextSql(ref);
  return `CAST(${ref} AS VARCHAR)`;
}

async function appendStaged(tx: WarehouseSession, staging: Staging, options: SwapOptions): Promise<void> {
  const target = quoteQualified(staging.schema, options.table);
  const staged = quoteQualified(staging.schema, staging.name);
  const incoming = await columnTypes(tx, staged);
  incoming.delete(ROW_ID);
  // DuckDB's names ignore case: a staged column meets the table's column of any spelling.
  const have = new Map(
    [...(await columnTypes(tx, target))].map(([name, type]) => [name.toLowerCase(), { name, type }]),
  );
  const added = [...incoming].filter(([name]) => !have.has(name.toLowerCase()));
  refuseWideAppend(have.size - (have.has(ROW_ID) ? 1 : 0), added.length, options.table);
  for (const [name, type] of added) await tx.run(`ALTER TABLE ${target} ADD COLUMN ${q(name)} ${type}`);
  for (const [name, type] of incoming) {
    const existing = have.get(name.toLowerCase());
    if (existing !== undefined)
      await reconcileColumn(tx, target, staged, existing.name, name, existing.type, type, options);
  }
  const after = new Map(
    [...(await columnTypes(tx, target))].map(([name, type]) => [name.toLowerCase(), { name, type }]),
  );
  // The inclusive read at the saved cursor brings the boundary's rows again: copies of rows stored
  // are dropped, for AppendDedup too, whose rows without a key value the key cannot de-duplicate.
  const appends = options.ingestion === 'Append' || options.ingestion === 'AppendDedup';
  if (appends && options.syncType === 'Incremental' && options.cursorField) {
    await dropBoundaryCopies(tx, target, staged, [...incoming.keys()], options.cursorField, options.numberColumns);
  }
  // Nested values going into a text or JSON column are written as their JSON.
  const names = [...incoming].map(([name]) => after.get(name.toLowerCase())?.name ?? name);
  const select = [...incoming].map(([name, type]) => {
    const into = after.get(name.toLowerCase())?.type ?? type;
    return nested(type) && !nested(into) ? `CAST(to_json(${q(name)}) AS ${into})` : q(name);
  });
  await tx.run(
    `INSERT INTO ${target} (${[ROW_ID, ...names].map(q).join(', ')}) ` +
      `SELECT ${q(ROW_ID)} + (SELECT coalesce(max(${q(ROW_ID)}), 0) FROM ${target}), ${select.join(', ')} FROM ${staged}`,
  );
  await tx.run(`DROP TABLE ${staged}`);
  if (options.ingestion === 'AppendDedup') await keepNewestPerKey(tx, target, options);
}

/** Rows whose primary key has a part that is NULL: no key, so nothing they could repeat. */
const keyless = (primaryKey: string[]) => primaryKey.map((k) => `${q(k)} IS NULL`).join(' OR ');

/**
 * AppendDedup: the newest row per primary key (by cursor, then arrival) stays, the others go. Rows
 * without a key value are kept each: NULL is no key, and grouping them would delete them.
 */
async function keepNewestPerKey(
  tx: Pick<WarehouseSession, 'run' | 'query'>,
  relation: string,
  options: Pick<SwapOptions, 'primaryKey' | 'cursorField' | 'numberColumns'>,
): Promise<void> {
  if (options.primaryKey.length === 0) return;
  const order = [...(options.cursorField ? [`${q(options.cursorField)} DESC NULLS LAST`] : []), `${q(ROW_ID)} DESC`];
  const keys = await keyExpressions(tx, relation, options);
  await tx.run(
    `DELETE FROM ${relation} WHERE ${q(ROW_ID)} IN (SELECT ${q(ROW_ID)} FROM (SELECT ${q(ROW_ID)}, ` +
      `row_number() OVER (PARTITION BY ${keys.join(', ')} ORDER BY ${order.join(', ')}) AS rn ` +
      `FROM ${relation} WHERE NOT (${keyless(options.primaryKey)})) WHERE rn > 1)`,
  );
}

/** The key columns as they are compared: numbers stored as exact text by the number they spell. */
async function keyExpressions(
  tx: Pick<WarehouseSession, 'query'>,
  relation: string,
  options: Pick<SwapOptions, 'primaryKey' | 'numberColumns'>,
): Promise<string[]> {
  const numbers = new Set(options.numberColumns ?? []);
  if (!options.primaryKey.some((key) => numbers.has(key))) return options.primaryKey.map(q);
  const types = await columnTypes(tx, relation);
  return options.primaryKey.map((key) =>
    numbers.has(key) && types.get(key) === 'VARCHAR' ? numberKeySql(q(key)) : q(key),
  );
}

/** The log names the staged rows without a primary key value: kept, never de-duplicated. */
async function sayKeyless(executor: WarehouseExecutor, staged: string, options: SwapOptions): Promise<void> {
  if (options.primaryKey.length === 0) return;
  const [row] = await executor.all({
    sql: `SELECT count(*)::DOUBLE AS n FROM ${staged} WHERE ${keyless(options.primaryKey)}`,
    parameters: [],
  });
  const n = Number(row?.n ?? 0);
  if (n === 0) return;
  options.log(
    'WARN',
    `${n === 1 ? '1 record has' : `${n} records have`} no value for the primary key (${options.primaryKey.join(', ')}): ` +
      `${n === 1 ? 'it is' : 'each is'} kept as a row of its own, never de-duplicated.`,
  );
}

/** Digits before the point the values of a numeric column actually have. */
async function intDigitsOf(tx: WarehouseSession, relation: string, column: string): Promise<number> {
  const [row] = await tx.all({
    sql: `SELECT coalesce(max(length(CAST(trunc(abs(${q(column)})) AS VARCHAR))), 0)::DOUBLE AS n FROM ${relation}`,
    parameters: [],
  });
  return Number(row?.n ?? 0);
}

/** Whether every value of a whole-number or decimal column is a double that prints as itself. */
async function allDoubles(tx: WarehouseSession, relation: string, column: string, type: string): Promise<boolean> {
  const c = q(column);
  const [row] = await tx.all({
    sql: `SELECT count(*) FILTER (WHERE ${c} IS NOT NULL AND TRY_CAST(CAST(${c} AS DOUBLE) AS ${type}) IS DISTINCT FROM ${c})::DOUBLE AS n FROM ${relation}`,
    parameters: [],
  });
  return Number(row?.n ?? 0) === 0;
}

/**
 * Gives the table's column (`name`, of type `existing`) a type that holds its values and the staged
 * ones (`stagedName`, of type `incoming`) exactly, or says why it keeps its own.
 */
async function reconcileColumn(
  tx: WarehouseSession,
  target: string,
  staged: string,
  name: string,
  stagedName: string,
  existing: string,
  incoming: string,
  options: SwapOptions,
): Promise<void> {
  const alter = (type: string, using = `CAST(${q(name)} AS ${type})`) =>
    tx.run(`ALTER TABLE ${target} ALTER COLUMN ${q(name)} TYPE ${type} USING ${using}`);
  const asText = () => alter('VARCHAR', textOf(existing, q(name)));
  const reconciled = reconcile(existing, incoming);
  // A column that becomes text is written as each value's exact text (a double 1 as '1', not
  // DuckDB's '1.0'), and the log says so: its values no longer filter or sum as numbers or dates.
  const plan: typeof reconciled =
    reconciled.action === 'widen' && formatOfDuckDbType(reconciled.type).kind === 'text'
      ? { action: 'lossy' }
      : reconciled;
  if (plan.action === 'widen') {
    const using = nested(existing) ? `CAST(to_json(${q(name)}) AS ${plan.type})` : undefined;
    await alter(plan.type, using);
    return;
  }
  if (plan.action === 'decimal') {
    const type =
      decimalType(plan.intDigits, plan.scale) ??
      decimalType(Math.max(await intDigitsOf(tx, target, name), await intDigitsOf(tx, staged, stagedName)), plan.scale);
    if (type !== null) return void (await alter(type));
    await asText();
    options.log(
      'WARN',
      `Column ${name}: its values need more than the 38 digits a decimal holds; it is kept as exact text.`,
    );
    return;
  }
  const stored = formatOfDuckDbType(existing).kind;
  const comes = formatOfDuckDbType(incoming).kind;
  const floating = (kind: string) => kind === 'double' || kind === 'float';
  const exactNumber = (kind: string) => kind === 'int' || kind === 'decimal';
  // Whole numbers or decimals meeting doubles: DOUBLE when every one of them is a double that
  // prints as itself (small whole numbers, short decimals), else exact text. Never rounded.
  if ((floating(stored) && exactNumber(comes)) || (exactNumber(stored) && floating(comes))) {
    const fits = floating(stored)
      ? await allDoubles(tx, staged, stagedName, incoming)
      : await allDoubles(tx, target, name, existing);
    if (fits) {
      if (!floating(stored)) await alter('DOUBLE');
      else if (options.refreshable !== false) {
        options.log(
          'WARN',
          `Column ${name} is stored as ${existing} but the source now gives ${incoming}. ` +
            'Refresh all data once to store the column as the source gives it.',
        );
      }
      return;
    }
    await asText();
    options.log(
      'WARN',
      `Column ${name}: its numbers are not all doubles (${existing} and ${incoming}); it is kept as exact text.`,
    );
    return;
  }
  if (plan.action === 'lossy') {
    // No type holds both exactly: text does, each value in its own exact spelling.
    await asText();
    options.log(
      'WARN',
      `Column ${name} is stored as ${existing} but the source now gives ${incoming}; it is kept as exact text.` +
        (options.refreshable === false ? '' : ' Refresh all data once to store the column as the source gives it.'),
    );
    return;
  }
  // Kept as text or JSON from before exact types: a full refresh stores the source's type.
  const loose = (kind: string) => kind === 'text' || kind === 'json';
  if (options.refreshable !== false && loose(stored) && !loose(comes)) {
    options.log(
      'WARN',
      `Column ${name} is stored as ${existing} but the source now gives ${incoming}. ` +
        'Refresh all data once to store the column as the source gives it.',
    );
  }
}

/**
 * Append at the saved cursor: staged rows already in the table at its largest cursor, or without a
 * cursor value (incremental reads take those every time), are dropped. A source's numbers stored
 * as exact text are compared as the numbers they spell (number-keys.ts).
 * The aliases (the two relations, the copy number and the count) are names no column has, so a
 * source column called `copy` or `s` cannot be what they find.
 */
async function dropBoundaryCopies(
  tx: WarehouseSession,
  target: string,
  staged: string,
  columns: string[],
  cursor: string,
  numberColumns: readonly string[] = [],
): Promise<void> {
  if (!columns.includes(cursor)) return;
  const targetTypes = await columnTypes(tx, target);
  const names = [ROW_ID, ...columns, ...targetTypes.keys()];
  const [s, e, copy, copies] = ['s', 'e', 'copy', 'copies'].map((base) => q(freeName(base, names)));
  // Numbers stored as exact text compare as the number they spell (`1.0` stored, `1` read again).
  const numbers = new Set(numberColumns);
  const value = (c: string) =>
    numbers.has(c) && targetTypes.get(c) === 'VARCHAR' ? `${numberKeySql(q(c))} AS ${q(c)}` : q(c);
  const list = columns.map(q).join(', ');
  const values = columns.map(value).join(', ');
  const same = columns.map((c) => `${s}.${q(c)} IS NOT DISTINCT FROM ${e}.${q(c)}`).join(' AND ');
  // At the boundary: the table's largest cursor, or no cursor value at all (read again by every sync).
  const atBoundary = `(${q(cursor)} = (SELECT max(${q(cursor)}) FROM ${target}) OR ${q(cursor)} IS NULL)`;
  await tx.run(
    `DELETE FROM ${staged} WHERE ${q(ROW_ID)} IN (SELECT ${s}.${q(ROW_ID)} FROM ` +
      `(SELECT ${q(ROW_ID)}, ${list}, row_number() OVER (PARTITION BY ${list} ORDER BY ${q(ROW_ID)}) AS ${copy} ` +
      `FROM (SELECT ${q(ROW_ID)}, ${values} FROM ${staged} WHERE ${atBoundary})) ${s} ` +
      `JOIN (SELECT ${list}, count(*) AS ${copies} FROM (SELECT ${values} FROM ${target} WHERE ${atBoundary}) GROUP BY ALL) ${e} ` +
      `ON ${same} AND ${s}.${copy} <= ${e}.${copies})`,
  );
}

/** An append may add columns, but never past the column limit: the dataset stays as it was. */
function refuseWideAppend(existing: number, added: number, table: string): void {
  if (existing + added <= LIMITS.maxColumns) return;
  throw new ConnectorError(
    `The sync would add ${added} columns to the ${existing} of ${table}; a dataset can have at most ` +
      `${LIMITS.maxColumns} columns. Choose fewer properties in Dataset settings, or refresh all data to replace the table.`,
    'ConfigError',
  );
}
