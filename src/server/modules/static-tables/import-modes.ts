/**
 * A CSV file imported into a static table that has data, as the user chose: Replace (the file's
 * rows and columns become the table's), Append (its rows go below, columns matched by name), or a
 * new table. Replace and Append keep the table they replace as the kept copy (kept-copy.ts), so
 * Undo brings it back. The caller holds the table's exclusive lock and has checked the caller's role.
 *
 * Replace writes the file's rows under the table's name in the transaction that renames the table
 * to its kept copy and records the metadata (the write journal's marker). Append reads the file
 * into a staged table first (committed), then swaps it in with a transaction of renames and the
 * marker, as swap-table.ts requires; a crash before the swap leaves a staged table the start-up
 * sweep drops.
 */
import { STATIC_TABLE_LIMITS, TOO_MANY_COLUMNS, type CsvImportAnswer } from '../../../shared/static-tables';
import type { AccountContext, Deps } from '../../context';
import { badInput } from '../../errors';
import { importCsvToTable, type CsvImportResult } from '../../warehouse/csv-import';
import { quoteIdentifier } from '../../warehouse/quote';
import { exactConversion } from '../../warehouse/exact-text-cast';
import { sqlTypeText } from '../../warehouse/sql-type-text';
import type { WarehouseExecutor, WarehouseSession } from '../../warehouse/types';
import { columnTypeFromName } from '../../warehouse/column-types';
import { TABLE_SAVED, type TableSaved } from './durable-writes';
import { importAnswer } from './import-answer';
import { importColumns, type ImportColumns } from './import-columns';
import { keepAside, newKeptToken, swapKeeping } from './kept-copy';
import { ROW_ID, STATIC_SCHEMA, q, qualified, warehouseTableName } from './physical';
import { findTable, listColumns, type StaticColumn } from './repo';
import type { ReportImport } from './import-progress';
import { warehouseError } from './warehouse-errors';

const staged = (id: string, suffix: '__next' | '__append') => `${warehouseTableName(id)}${suffix}`;
const at = (name: string) => `${q(STATIC_SCHEMA)}.${q(name)}`;

function savedOf(deps: Deps, ctx: AccountContext, id: string, columns: StaticColumn[], rowCount: number): TableSaved {
  return { tableId: id, accountId: ctx.accountId, name: null, columns, rowCount, at: deps.clock().toISOString() };
}

/** The file read into `table` (committed), its columns keyed as `plan` says. */
async function readFile(
  deps: Deps,
  warehouse: WarehouseExecutor,
  tableId: string,
  filePath: string,
  table: string,
  existing: StaticColumn[],
  report: ReportImport,
  check?: (plan: ImportColumns) => void,
): Promise<{ result: CsvImportResult; plan: ImportColumns }> {
  const planned: { plan?: ImportColumns } = {};
  const result = await importCsvToTable(warehouse, {
    filePath,
    schema: STATIC_SCHEMA,
    table,
    maxBytes: deps.config.uploadMaxBytes,
    maxColumns: STATIC_TABLE_LIMITS.maxColumns,
    rowIdColumn: ROW_ID,
    onProgress: report,
    storeAs: async (header, session) => {
      planned.plan = await importColumns(session, tableId, existing, header);
      check?.(planned.plan);
      return planned.plan.stored;
    },
  });
  if (!planned.plan) throw new Error('The import stored columns before planning them');
  return { result, plan: planned.plan };
}

/** The file's columns as the table's, keyed by the plan (matched columns keep key, description and, same type, format). */
function importedColumns(result: CsvImportResult, plan: ImportColumns): StaticColumn[] {
  return result.columns.map((c, i) => {
    const matched = plan.matched[i] as StaticColumn | null;
    const format = matched && matched.type === c.type ? matched.format : null;
    return {
      columnKey: plan.keys[i] as string,
      displayName: c.name,
      description: matched?.description ?? null,
      order: i,
      type: c.type,
      ...(format ? { format } : {}),
    };
  });
}

/**
 * Replace: the file's rows and columns become the table's; the previous ones are kept for Undo. One
 * transaction, as for a new table: the table is renamed to its kept copy and the file's rows are
 * written under its name, with the write's marker (no staged copy, no second transaction).
 */
export async function importReplacing(
  deps: Deps,
  ctx: AccountContext,
  id: string,
  filePath: string,
  report: ReportImport = () => undefined,
): Promise<CsvImportAnswer> {
  const warehouse = deps.warehouse.forAccount(ctx.accountId);
  // Read under the table's lock: no edit can change the columns between here and the write.
  const existing = await listColumns(deps.db, id);
  const before = await findTable(deps.db, ctx.accountId, id);
  const token = newKeptToken();
  const planned: { plan?: ImportColumns; columns?: StaticColumn[] } = {};
  const result = await deps.writes
    .write(ctx.accountId, TABLE_SAVED, (mark) =>
      importCsvToTable(warehouse, {
        filePath,
        schema: STATIC_SCHEMA,
        table: warehouseTableName(id),
        maxBytes: deps.config.uploadMaxBytes,
        maxColumns: STATIC_TABLE_LIMITS.maxColumns,
        rowIdColumn: ROW_ID,
        onProgress: report,
        storeAs: async (header, session) => {
          planned.plan = await importColumns(session, id, existing, header);
          return planned.plan.stored;
        },
        beforeWrite: (tx) => keepAside(tx, id),
        beforeCommit: async (tx, imported) => {
          if (!planned.plan) throw new Error('The import stored columns before planning them');
          report('Saving');
          planned.columns = importedColumns(imported, planned.plan);
          await mark(tx, {
            ...savedOf(deps, ctx, id, planned.columns, imported.rowCount),
            kept: { token, columns: existing, rowCount: before?.row_count ?? 0 },
          });
        },
      }),
    )
    .catch((error: unknown) => {
      throw warehouseError(error);
    });
  if (!planned.plan || !planned.columns) throw new Error('The import finished without its columns');
  return {
    ...importAnswer(result, planned.columns, planned.plan),
    tableId: id,
    mode: 'Replace',
    importedRows: result.rowCount,
    keptToken: token,
  };
}

/** The warehouse types of a table's columns, by key. */
async function sqlTypes(session: WarehouseSession, table: string): Promise<Map<string, string>> {
  const rows = await session.all({
    sql:
      'SELECT column_name, data_type FROM duckdb_columns() ' +
      'WHERE database_name = current_database() AND schema_name = $1 AND table_name = $2',
    parameters: [STATIC_SCHEMA, table],
  });
  return new Map(rows.map((r) => [String(r.column_name), String(r.data_type)]));
}

/**
 * Append: the file's rows go below the table's, numbered after its last row. A file column fills
 * the table column whose name matches (case and surrounding spaces ignored; import-columns.ts), the
 * others are added (within the column limit); table columns the file lacks stay empty in the new
 * rows. A value that does not fit its table column's type refuses the whole append, naming it. The
 * previous table is kept for Undo.
 */
export async function importAppending(
  deps: Deps,
  ctx: AccountContext,
  id: string,
  filePath: string,
  report: ReportImport = () => undefined,
): Promise<CsvImportAnswer> {
  const warehouse = deps.warehouse.forAccount(ctx.accountId);
  const existing = await listColumns(deps.db, id);
  const before = await findTable(deps.db, ctx.accountId, id);
  const appendTable = staged(id, '__append');
  const next = staged(id, '__next');
  const { result, plan } = await readFile(deps, warehouse, id, filePath, appendTable, existing, report, (p) => {
    const added = p.matched.filter((m) => m === null).length;
    if (existing.length + added > STATIC_TABLE_LIMITS.maxColumns) {
      throw badInput(
        `${TOO_MANY_COLUMNS} Appending this file would add ${added} column(s) to the ${existing.length} the table has.`,
      );
    }
  });
  report('Saving'); // the table's rows and the file's are put together, then swapped in
  const retyped = new Map<string, string>(); // table columns holding no value, which take the file's type
  try {
    const tableTypes = await sqlTypes(warehouse, warehouseTableName(id));
    const fileTypes = await sqlTypes(warehouse, appendTable);
    const fileIndex = new Map(plan.matched.flatMap((m, i) => (m ? [[m.columnKey, i] as const] : [])));

    // Which table columns hold a value: an empty one takes the file's type rather than refusing it.
    const filled = existing.filter((c) => fileIndex.has(c.columnKey));
    const [held] = filled.length
      ? await warehouse.all({
          sql: `SELECT ${filled.map((c, n) => `count(${q(c.columnKey)})::DOUBLE AS h${n}`).join(', ')} FROM ${qualified(id)}`,
          parameters: [],
        })
      : [];
    const holdsValues = new Map(filled.map((c, n) => [c.columnKey, Number(held?.[`h${n}`] ?? 0) > 0]));

    const casts: { key: string; type: string; name: string }[] = [];
    for (const column of filled) {
      const tableType = tableTypes.get(column.columnKey) ?? 'VARCHAR';
      const fileType = fileTypes.get(column.columnKey) ?? 'VARCHAR';
      if (tableType === fileType) continue;
      if (!holdsValues.get(column.columnKey)) retyped.set(column.columnKey, sqlTypeText(fileType));
      else casts.push({ key: column.columnKey, type: sqlTypeText(tableType), name: column.displayName });
    }
    await refuseMisfits(warehouse, appendTable, casts, fileTypes);

    const addedKeys = plan.keys.filter((_, i) => plan.matched[i] === null);
    const keepSelect = existing.map((c) => {
      const to = retyped.get(c.columnKey);
      return to ? `CAST(${q(c.columnKey)} AS ${to}) AS ${q(c.columnKey)}` : q(c.columnKey);
    });
    const addSelect = addedKeys.map(
      (key) => `CAST(NULL AS ${sqlTypeText(fileTypes.get(key) ?? 'VARCHAR')}) AS ${q(key)}`,
    );
    const castOf = new Map(casts.map((c) => [c.key, c.type]));
    const target = [...existing.filter((c) => fileIndex.has(c.columnKey)).map((c) => c.columnKey), ...addedKeys];
    const values = target.map((key) => {
      const to = castOf.get(key);
      return to ? exactConversion(q(key), fileTypes.get(key) ?? 'VARCHAR', to) : q(key);
    });
    await warehouse.transaction(async (tx) => {
      await tx.run(`DROP TABLE IF EXISTS ${at(next)}`);
      await tx.run(
        `CREATE TABLE ${at(next)} AS SELECT ${[q(ROW_ID), ...keepSelect, ...addSelect].join(', ')} FROM ${qualified(id)}`,
      );
      await tx.run(
        `INSERT INTO ${at(next)} (${[ROW_ID, ...target].map(q).join(', ')}) ` +
          `SELECT ${[`(SELECT coalesce(max(${q(ROW_ID)}), 0) FROM ${qualified(id)}) + ${q(ROW_ID)}`, ...values].join(', ')} ` +
          `FROM ${at(appendTable)} ORDER BY ${q(ROW_ID)}`,
      );
    });
  } catch (error) {
    await warehouse.run(`DROP TABLE IF EXISTS ${at(next)}`).catch(() => undefined);
    throw warehouseError(error);
  } finally {
    await warehouse.run(`DROP TABLE IF EXISTS ${at(appendTable)}`).catch(() => undefined);
  }

  const imported = importedColumns(result, plan);
  const columns: StaticColumn[] = [
    ...existing.map((c) => {
      const type = retyped.get(c.columnKey);
      if (!type) return c;
      const { format: _dropped, ...rest } = c;
      return { ...rest, type: columnTypeFromName(type) };
    }),
    ...imported.filter((_, i) => plan.matched[i] === null),
  ].map((c, order) => ({ ...c, order }));
  const rowCount = (before?.row_count ?? 0) + result.rowCount;
  const token = newKeptToken();
  await deps.writes
    .write(ctx.accountId, TABLE_SAVED, (mark) =>
      swapKeeping(warehouse, id, next, (tx) =>
        mark(tx, {
          ...savedOf(deps, ctx, id, columns, rowCount),
          kept: { token, columns: existing, rowCount: before?.row_count ?? 0 },
        }),
      ),
    )
    .catch((error: unknown) => {
      throw warehouseError(error);
    });
  const answer = importAnswer(result, imported, { ...plan, removed: [] });
  // Notes on matched columns would speak of a type change the append did not make (it kept the table's).
  const addedNames = new Set(imported.filter((_, i) => plan.matched[i] === null).map((c) => c.displayName));
  answer.notes = answer.notes.filter((n) => addedNames.has(n.displayName) || n.message.startsWith('Its dates'));
  return { ...answer, tableId: id, mode: 'Append', rowCount, importedRows: result.rowCount, columns, keptToken: token };
}

/** Refuses an append whose values do not fit their table column's type, naming the column and a value. */
async function refuseMisfits(
  warehouse: WarehouseExecutor,
  appendTable: string,
  casts: { key: string; type: string; name: string }[],
  fileTypes: Map<string, string>,
): Promise<void> {
  if (casts.length === 0) return;
  // A value that converts but would be another value in the column (1.5 into a whole-number column
  // is 2, `007` is 7, a date and time into a Date column loses its time) does not fit either.
  const misfit = (key: string, type: string) =>
    `${q(key)} IS NOT NULL AND (${exactConversion(q(key), fileTypes.get(key) ?? 'VARCHAR', type)}) IS NULL`;
  const checks = casts.map(
    ({ key, type }, n) =>
      `(SELECT CAST(${q(key)} AS VARCHAR) FROM ${at(appendTable)} ` +
      `WHERE ${misfit(key, type)} ORDER BY ${q(ROW_ID)} LIMIT 1) AS m${n}`,
  );
  const [found] = await warehouse.all({ sql: `SELECT ${checks.join(', ')}`, parameters: [] });
  casts.forEach(({ key, type, name }, n) => {
    const value = found?.[`m${n}`];
    if (value === null || value === undefined) return;
    const kind = columnTypeFromName(type);
    const fileKind = columnTypeFromName(fileTypes.get(key) ?? 'VARCHAR');
    const what =
      kind === 'Number'
        ? 'a number'
        : kind === 'Boolean'
          ? 'true or false'
          : kind === 'Date'
            ? 'a date'
            : kind === 'DateTime'
              ? 'a date and time'
              : `of type ${kind}`;
    const problem =
      kind === fileKind
        ? `would change in it (the column holds ${type} values)`
        : fileKind === 'Text'
          ? `is not ${what} as written`
          : `is not ${what} (the file's column is ${fileKind})`;
    throw badInput(
      `Cannot append: the column "${name}" holds ${kind} values, but the file's value "${String(value)}" ${problem}. ` +
        `Change the column's type to Text first, or fix the file.`,
    );
  });
}

/** New table: a table named `name` made from the file. */
export async function importAsNewTable(
  deps: Deps,
  ctx: AccountContext,
  id: string,
  name: string,
  filePath: string,
  report: ReportImport = () => undefined,
): Promise<CsvImportAnswer> {
  const warehouse = deps.warehouse.forAccount(ctx.accountId);
  await warehouse.exclusive(`schema:${STATIC_SCHEMA}`, () =>
    warehouse.run(`CREATE SCHEMA IF NOT EXISTS ${quoteIdentifier(STATIC_SCHEMA)}`),
  );
  const planned: { plan?: ImportColumns; columns?: StaticColumn[] } = {};
  const result = await deps.writes.write(ctx.accountId, TABLE_SAVED, (mark) =>
    importCsvToTable(warehouse, {
      filePath,
      schema: STATIC_SCHEMA,
      table: warehouseTableName(id),
      maxBytes: deps.config.uploadMaxBytes,
      maxColumns: STATIC_TABLE_LIMITS.maxColumns,
      rowIdColumn: ROW_ID,
      onProgress: report,
      storeAs: async (header, session) => {
        planned.plan = await importColumns(session, id, [], header);
        return planned.plan.stored;
      },
      beforeCommit: async (tx, imported) => {
        report('Saving');
        if (!planned.plan) throw new Error('The import stored columns before planning them');
        planned.columns = importedColumns(imported, planned.plan);
        // A name makes the write create the table's metadata (durable-writes.ts).
        await mark(tx, { ...savedOf(deps, ctx, id, planned.columns, imported.rowCount), name });
      },
    }),
  );
  if (!planned.plan || !planned.columns) throw new Error('The import finished without its columns');
  return {
    ...importAnswer(result, planned.columns, planned.plan),
    tableId: id,
    mode: 'New',
    importedRows: result.rowCount,
    keptToken: null,
  };
}
