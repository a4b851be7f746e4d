/** Record batches into the staging table, through a JSON array file read by read_json. */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { quoteString } from '../../../warehouse/quote';
import type { WarehouseExecutor } from '../../../warehouse/types';
import { q, quoteQualified } from '../physical';
import { ConnectorError } from '../connectors/types';
import { converterFor, MISFIT, type StagedValue } from './record-values';
import { batchType, fromBatch, fromText } from './stage-sql';
import type { StagedColumn, Staging } from './types';
import { loadWithWidening, misfitCounts, widen } from './widening';

/** `{'name': 'TYPE', ...}` for read_json: property names are source data, quoted as SQL strings. */
function jsonColumnsArgument(columns: StagedColumn[], typeOf: (column: StagedColumn) => string): string {
  return `{${columns.map((c) => `${quoteString(c.name)}: ${quoteString(typeOf(c))}`).join(', ')}}`;
}

/**
 * A JSON text's escape of a lone UTF-16 surrogate (JSON.stringify writes a lone one as `\udXXX`
 * and a pair as its character), not preceded by an escaped backslash.
 */
const LONE_SURROGATE_ESCAPE = /(?<!\\)(?:\\\\)*\\u[dD][89a-fA-F][0-9a-fA-F]{2}/;

/** A high surrogate without its low one, or a low one without its high one. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/**
 * Whether a value holds a lone surrogate: text no Unicode encoding holds, so neither a VARCHAR nor
 * a JSON value of the warehouse can keep it (DuckDB refuses the batch as malformed). Nested values
 * are checked in their staged JSON text, where a lone surrogate is the only \udXXX escape.
 */
function holdsLoneSurrogate(value: unknown, staged: StagedValue): boolean {
  if (typeof value === 'string') return LONE_SURROGATE.test(value);
  if (typeof value !== 'object' || value === null || typeof staged !== 'string') return false;
  return (staged.includes('\\ud') || staged.includes('\\uD')) && LONE_SURROGATE_ESCAPE.test(staged);
}

/**
 * Refuses a batch with text no Unicode encoding holds: storing it would change it (to U+FFFD), so
 * the sync stops, naming the column and the count, and the dataset keeps its previous data.
 */
function refuseLoneSurrogates(staging: Staging, counts: number[]): void {
  const found = staging.columns.flatMap((column, i) => ((counts[i] ?? 0) > 0 ? [{ column, count: counts[i] }] : []));
  if (found.length === 0) return;
  const what = found
    .map(({ column, count }) => `column ${column.name} (${count === 1 ? '1 value' : `${count} values`})`)
    .join(', ');
  const why =
    `${found.length === 1 ? 'holds' : 'hold'} text that is not valid Unicode (a lone UTF-16 surrogate), ` +
    'which the warehouse cannot store unchanged';
  staging.log(
    'WARN',
    `${what[0]?.toUpperCase()}${what.slice(1)} ${why}; the sync stops and the dataset keeps its previous data.`,
  );
  throw new ConnectorError(`A record does not fit the dataset's columns: ${what} ${why}.`, 'SystemError');
}

/** The batch as read_json reads it; columns with values that do not fit are widened first. */
async function batchOf(
  executor: WarehouseExecutor,
  staging: Staging,
  records: Record<string, unknown>[],
): Promise<Record<string, StagedValue>[]> {
  for (;;) {
    const { columns } = staging;
    const converters = columns.map((c) => converterFor(c.format));
    const misfits = new Array<number>(columns.length).fill(0);
    // The first value of each column that does not fit, named when the sync is refused.
    const examples = new Array<unknown>(columns.length);
    const lone = new Array<number>(columns.length).fill(0);
    const kept: Record<string, StagedValue>[] = new Array(records.length);
    for (let r = 0; r < records.length; r++) {
      const record = records[r] as Record<string, unknown>;
      // Plain objects (JSON.stringify's fast path); a property named __proto__ is set as data.
      const values: Record<string, StagedValue> = {};
      for (let i = 0; i < columns.length; i++) {
        const { name, field } = columns[i] as StagedColumn;
        const value = record[field];
        // Absent, or inherited (a column named constructor): no value.
        if (value === undefined || typeof value === 'function') continue;
        const staged = (converters[i] as (v: unknown) => StagedValue | typeof MISFIT)(value);
        if (staged === MISFIT) {
          if (misfits[i] === 0) examples[i] = value;
          misfits[i] = (misfits[i] as number) + 1;
        } else if (holdsLoneSurrogate(value, staged)) lone[i] = (lone[i] as number) + 1;
        else if (name === '__proto__') Object.defineProperty(values, name, { value: staged, enumerable: true });
        else values[name] = staged;
      }
      kept[r] = values;
    }
    refuseLoneSurrogates(staging, lone);
    if (misfits.every((n) => n === 0)) return kept;
    for (const [i, count] of misfits.entries()) {
      if (count > 0) await widen(executor, staging, columns[i] as StagedColumn, count, exampleText(examples[i]));
    }
  }
}

/** A value named in a message: its JSON, cut to 60 characters. */
function exampleText(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value);
  return `such as ${text.length > 60 ? `${text.slice(0, 60)}…` : text}`;
}

/** Appends records (only the staged columns are kept) through a JSON array file in `tempDir`. */
export async function stageRecords(
  executor: WarehouseExecutor,
  staging: Staging,
  records: Record<string, unknown>[],
  tempDir: string,
): Promise<number> {
  if (records.length === 0 || staging.columns.length === 0) return 0;
  const file = path.join(tempDir, `batch-${randomBytes(6).toString('hex')}.json`);
  const target = quoteQualified(staging.schema, staging.name);
  try {
    const kept = await batchOf(executor, staging, records);
    // One stringify of the whole batch: a call per record (and joining the lines) costs twice as much.
    await fs.promises.writeFile(file, JSON.stringify(kept));
    // A column DuckDB refuses a value of becomes text: the file's value for it is read as it is.
    const changed = await loadWithWidening(
      executor,
      staging,
      () => {
        const names = staging.columns.map((c) => q(c.name)).join(', ');
        const select = staging.columns.map((c) => `${fromBatch(c.format, q(c.name))} AS ${q(c.name)}`);
        const types = jsonColumnsArgument(staging.columns, (c) => batchType(c.format));
        return `INSERT INTO ${target} (${names}) SELECT ${select.join(', ')} FROM read_json($1, format = 'array', columns = ${types})`;
      },
      () => {
        const source = `read_json($1, format = 'array', columns = ${jsonColumnsArgument(staging.columns, () => 'VARCHAR')})`;
        return `SELECT ${misfitCounts(staging.columns.map((c) => fromText(c.format, q(c.name), true)))} FROM ${source}`;
      },
      file,
    );
    staging.rows += changed;
    staging.bytes += (await fs.promises.stat(file)).size;
    return changed;
  } finally {
    await fs.promises.rm(file, { force: true });
  }
}
