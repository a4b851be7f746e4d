/**
 * A value its column's format cannot hold is never changed silently. Numbers widen: a whole
 * number or a decimal too large for its column makes the column an exact decimal, and a value no
 * decimal of 38 digits holds makes it exact text (finish-decimals.ts). A list meeting an element
 * its type cannot hold becomes JSON. Other values make the column exact text when its types were inferred from samples (`onMisfit: 'text'`), and stop the sync when
 * the source declared them (`'refuse'`). Either way the run log names the dataset, the column and
 * the count.
 */
import { doubleTextSql } from '../../../warehouse/export-cells';
import type { WarehouseExecutor } from '../../../warehouse/types';
import { ConnectorError } from '../connectors/types';
import { EXACT_DECIMAL, formatText, TEXT, type StorageFormat } from '../connectors/formats';
import { q, quoteQualified } from '../physical';
import { note } from './notices';
import type { TextCast } from './stage-sql';
import { onStaging } from './tables';
import type { StagedColumn, Staging } from './types';

/**
 * The format a column widens to when a value does not fit: numbers to exact decimals, lists to JSON
 * (which holds any value exactly and stays a nested value in the grid), others to text.
 */
function widerFormat(format: StorageFormat): StorageFormat {
  const numeric =
    format.kind === 'int' || format.kind === 'decimal' || format.kind === 'double' || format.kind === 'float';
  if (numeric) return EXACT_DECIMAL;
  return format.kind === 'list' ? JSON_FORMAT : TEXT;
}

const JSON_FORMAT: StorageFormat = { kind: 'json' };

/** Text of the values already staged in a column (lists and JSON as JSON, doubles as the grid shows them). */
function asText(format: StorageFormat, ref: string): string {
  if (format.kind === 'list' || format.kind === 'json') return `CAST(to_json(${ref}) AS VARCHAR)`;
  return format.kind === 'double' ? doubleTextSql(ref) : `CAST(${ref} AS VARCHAR)`;
}

/**
 * Misfits of one column: widens it (the staged values become text) or refuses the sync. `detail`
 * is DuckDB's own words about a refused value, when it gave them.
 */
export async function widen(
  executor: WarehouseExecutor,
  staging: Staging,
  column: StagedColumn,
  count: number,
  detail?: string,
) {
  const next = widerFormat(column.format);
  const values = count === 1 ? '1 value does' : `${count} values do`;
  if ((next.kind === 'text' || next.kind === 'json') && column.onMisfit === 'refuse') {
    const what = `column ${column.name} (${formatText(column.format)}): ${values} not fit`;
    staging.log(
      'WARN',
      `${what[0]?.toUpperCase()}${what.slice(1)}; the sync stops and the dataset keeps its previous data.`,
    );
    throw new ConnectorError(
      `A record does not fit the dataset's columns: ${what}${detail ? ` (${detail})` : ''}. ` +
        'If the source changed its types, refresh the datasets.',
      'SystemError',
    );
  }
  const from = formatText(column.format);
  if (column.format.kind !== 'exact-decimal') {
    const target = quoteQualified(staging.schema, staging.name);
    const ref = q(column.name);
    const alter =
      next.kind === 'json'
        ? `TYPE JSON USING CAST(to_json(${ref}) AS JSON)`
        : `TYPE VARCHAR USING ${asText(column.format, ref)}`;
    await onStaging(executor, staging, () => executor.run(`ALTER TABLE ${target} ALTER COLUMN ${ref} ${alter}`));
  }
  note(staging, column.name, count, from, formatText(next), `${values} not fit ${from}`);
  column.format = next;
}

/**
 * DuckDB names a record that does not fit its column by the scratch file and a position within its
 * read buffer, which means nothing to the user; the problem itself (the value, the type) does.
 */
function unfitDetail(error: unknown): string | null {
  const message = error instanceof Error ? error.message : String(error);
  // A line the CSV reader cannot read is no value that does not fit (stage-file.ts says what it is).
  if (/CSV Error on Line/.test(message)) return null;
  const match = /JSON transform error in file "[^"]*", in record\/value \d+: ([^\n]*)/.exec(message);
  const conversion = /^(?:Conversion Error|Invalid Input Error): ([^\n]*)/.exec(message);
  return match?.[1] ?? conversion?.[1] ?? null;
}

/**
 * Runs the load `insert` (an INSERT ... SELECT built from the columns' current formats). When DuckDB
 * refuses a value, `misfits` counts per column what does not fit; those columns widen and the load
 * runs again. Only a refusal no column explains is an error.
 */
export async function loadWithWidening(
  executor: WarehouseExecutor,
  staging: Staging,
  insert: () => string,
  misfits: () => string,
  file: string,
): Promise<number> {
  for (;;) {
    try {
      return await onStaging(executor, staging, () => executor.run(insert(), [file]));
    } catch (error) {
      const detail = unfitDetail(error);
      if (detail === null) throw error;
      const [counts] = await executor.all({ sql: misfits(), parameters: [file] }).catch(() => [undefined]);
      const found = staging.columns.flatMap((column, i) => {
        const count = Number(counts?.[`m${i}`] ?? 0);
        return count > 0 ? [{ column, count }] : [];
      });
      if (found.length === 0) {
        throw new ConnectorError(
          `A record does not fit the dataset's columns: ${detail}. If the source changed its types, refresh the datasets.`,
          'SystemError',
        );
      }
      for (const { column, count } of found) await widen(executor, staging, column, count, detail);
    }
  }
}

/** The select list that counts, per column, the values whose cast does not fit (`m0`, `m1`, ...). */
export const misfitCounts = (casts: TextCast[]) =>
  casts.map((cast, i) => `count(*) FILTER (WHERE NOT ${cast.fits})::DOUBLE AS m${i}`).join(', ') || '0 AS m0';
