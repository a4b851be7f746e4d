/**
 * The tables a step reads (Materialize, Check data): any table of the account as the tables service
 * lists it (static tables, integration datasets, published models), named in an input as
 * `<TableType>:<id>`. Rows are read through the tables service's download plan: the engine compiles
 * the filters with bound values, columns come out under their display names, and the statements run
 * on a connection the step's signal can interrupt.
 */
import type { CompiledQuery, ResultRow } from '../../../../engine/sql';
import type { InputOption } from '../../../../shared/automations';
import { TABLE_TYPES, type Column, type Filter, type TableSummary, type TableType } from '../../../../shared/tables';
import { AppError } from '../../../errors';
import { interruptible } from '../../../warehouse/interruptible';
import { quoteIdentifier } from '../../../warehouse/quote';
import type { WarehouseConnection } from '../../../warehouse/types';
import { uniqueHeaders } from '../../tables/unique-headers';
import { configError } from '../step-errors';
import type { StepEnv } from '../step-kind';

const GROUPS: Record<TableType, string> = {
  StaticTable: 'Tables',
  IntegrationDataset: 'Integration datasets',
  ModelVersion: 'Models',
};

export interface SourceRef {
  type: TableType;
  id: string;
}

export function sourceValue(summary: Pick<TableSummary, 'type' | 'id'>): string {
  return `${summary.type}:${summary.id}`;
}

/** `<TableType>:<id>`, or null when the text is not one. */
export function parseSource(value: string): SourceRef | null {
  const at = value.indexOf(':');
  if (at < 0) return null;
  const type = value.slice(0, at) as TableType;
  const id = value.slice(at + 1);
  if (!TABLE_TYPES.includes(type) || id === '') return null;
  return { type, id };
}

/** What a table is called in options and messages: a dataset or model with its group's name. */
export function tableLabel(summary: TableSummary): string {
  return summary.type === 'StaticTable' ? summary.name : `${summary.groupName} › ${summary.name}`;
}

export async function sourceOptions(env: StepEnv): Promise<InputOption[]> {
  const tables = await env.services.tables.list(env.ctx, { types: [...TABLE_TYPES], flatten: true });
  return tables.map((t) => ({ value: sourceValue(t), label: tableLabel(t), group: GROUPS[t.type] }));
}

/** A source the account no longer has (or never had) is the user's to fix. */
export async function findSource(env: StepEnv, value: string): Promise<TableSummary> {
  const ref = parseSource(value);
  if (!ref) throw configError(`"${value}" is not a table of this account.`);
  try {
    return await env.services.tables.get(env.ctx, ref.type, ref.id);
  } catch (error) {
    if (error instanceof AppError && error.kind === 'NotFound') throw configError('The chosen table no longer exists.');
    throw error;
  }
}

export interface SourceRead {
  summary: TableSummary;
  /** The columns in the order of the read's headers. */
  columns: Column[];
  /** Each column's header in `query` (display names made unique). */
  headers: string[];
  /** Every row passing the filters, columns under their headers. */
  query: CompiledQuery;
}

/** The statement reading the source's rows that pass `filters` (one group, the filters' own And/Or). */
export async function readSource(env: StepEnv, value: string, filters: Filter[]): Promise<SourceRead> {
  const summary = await findSource(env, value);
  try {
    const plan = await env.services.tables.downloadPlan(env.ctx, summary.type, summary.id, {
      filterGroups: filters.length ? [{ filters }] : [],
      sorting: [],
    });
    const columns = plan.relation.columns;
    return { summary, columns, headers: uniqueHeaders(columns.map((c) => c.displayName)), query: plan.query };
  } catch (error) {
    // A filter naming a column the table lacks, a value of the wrong type: the engine's words.
    if (error instanceof AppError && error.kind === 'BadInput') throw configError(error.message);
    throw error;
  }
}

/** `work` on a connection of the account's warehouse that the signal interrupts. */
export function onWarehouse<T>(
  env: StepEnv,
  signal: AbortSignal,
  work: (connection: WarehouseConnection) => Promise<T>,
): Promise<T> {
  return interruptible(env.deps.warehouse.forAccount(env.ctx.accountId), signal, work);
}

/** Rows of the read, counted. */
export async function countRows(connection: WarehouseConnection, query: CompiledQuery): Promise<number> {
  const [row] = await connection.all({
    sql: `SELECT count(*)::DOUBLE AS n FROM (${query.sql}) AS source`,
    parameters: query.parameters,
  });
  return Number(row?.n ?? 0);
}

/** The first rows of the read (previews). */
export async function firstRows(connection: WarehouseConnection, read: SourceRead, limit = 10): Promise<unknown[][]> {
  const rows: ResultRow[] = await connection.all({
    sql: `SELECT * FROM (${read.query.sql}) AS source LIMIT ${Math.floor(limit)}`,
    parameters: read.query.parameters,
  });
  return rows.map((row) => read.headers.map((h) => row[h] ?? null));
}

/** A column of the read as SQL: its header, quoted by the one quoting function. */
export function headerOf(read: SourceRead, columnKey: string): string {
  const index = read.columns.findIndex((c) => c.columnKey === columnKey);
  if (index < 0) throw configError(`${read.summary.name} has no column "${columnKey}".`);
  return quoteIdentifier(read.headers[index] as string);
}

/** Column options of the chosen source (empty until one is chosen or when it is gone). */
export async function columnOptions(
  env: StepEnv,
  value: string,
  only?: (column: Column) => boolean,
): Promise<InputOption[]> {
  if (!value) return [];
  try {
    const summary = await findSource(env, value);
    return summary.columns
      .filter((c) => (only ? only(c) : true))
      .map((c) => ({ value: c.columnKey, label: c.displayName }));
  } catch {
    return [];
  }
}
