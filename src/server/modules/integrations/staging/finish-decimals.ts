import type { WarehouseExecutor } from '../../../warehouse/types';
import { MAX_DECIMAL_DIGITS, TEXT } from '../connectors/formats';
import { q, quoteQualified } from '../physical';
import { note } from './notices';
import { decimalFromText } from './stage-sql';
import { onStaging } from './tables';
import type { Staging } from './types';

const PLAIN_DECIMAL = `'-?[0-9]+(\\.[0-9]+)?'`;

/**
 * Types the exact-decimal columns once every row is staged: DECIMAL(38, s) with s the largest scale
 * read, when every value is a decimal number and 38 digits hold them all; else the column stays
 * exact text, and the notice says why.
 */
export async function finishStaging(executor: WarehouseExecutor, staging: Staging): Promise<void> {
  const target = quoteQualified(staging.schema, staging.name);
  for (const column of staging.columns) {
    if (column.format.kind !== 'exact-decimal') continue;
    const c = q(column.name);
    // The scale that carries value: trailing zeros of a fraction (PostgreSQL's 79.1900000000000000)
    // say nothing, and a narrower decimal is parsed and computed much faster. Digits before the
    // point count a leading 0 ("0.5"): a digit of room to spare, never one too few.
    const scaleOf = `CASE WHEN strpos(${c}, '.') > 0 THEN length(rtrim(${c}, '0')) - strpos(${c}, '.') ELSE 0 END`;
    const intDigitsOf =
      `CASE WHEN strpos(${c}, '.') > 0 THEN strpos(${c}, '.') - 1 ELSE length(${c}) END - ` +
      `CASE WHEN starts_with(${c}, '-') THEN 1 ELSE 0 END`;
    // One pass, the pattern matched once a value.
    const [stats] = await executor.all({
      sql:
        `SELECT count(*) FILTER (WHERE v IS NOT NULL AND NOT ok)::DOUBLE AS bad, ` +
        `count(*) FILTER (WHERE ok AND d + s > ${MAX_DECIMAL_DIGITS})::DOUBLE AS over, ` +
        `coalesce(max(s) FILTER (WHERE ok), 0)::DOUBLE AS scale, ` +
        `coalesce(max(d) FILTER (WHERE ok), 0)::DOUBLE AS int_digits ` +
        `FROM (SELECT ${c} AS v, regexp_full_match(${c}, ${PLAIN_DECIMAL}) AS ok, ${scaleOf} AS s, ${intDigitsOf} AS d ` +
        `FROM ${target})`,
      parameters: [],
    });
    const bad = Number(stats?.bad ?? 0);
    const over = Number(stats?.over ?? 0);
    const scale = Number(stats?.scale ?? 0);
    const intDigits = Number(stats?.int_digits ?? 0);
    const from = staging.notices.get(column.name)?.from ?? 'decimal';
    if (bad > 0) {
      const values = bad === 1 ? '1 value is' : `${bad} values are`;
      note(staging, column.name, bad, from, 'text', `${values} not a decimal number (e.g. NaN or Infinity)`);
      column.format = TEXT;
      continue;
    }
    if (intDigits + scale > MAX_DECIMAL_DIGITS) {
      const why =
        over > 0
          ? `${over === 1 ? '1 value has' : `${over} values have`} more than ${MAX_DECIMAL_DIGITS} digits`
          : `its values need ${intDigits} digits before the point and ${scale} after, more than the ${MAX_DECIMAL_DIGITS} a decimal holds`;
      note(staging, column.name, over, from, 'text', why);
      column.format = TEXT;
      continue;
    }
    // 18 digits fit 64 bits (fast to parse and to compute with); wider data takes 38.
    const precision = intDigits + scale <= 18 ? 18 : MAX_DECIMAL_DIGITS;
    const type = `DECIMAL(${precision},${scale})`;
    await onStaging(executor, staging, () =>
      executor.run(
        `ALTER TABLE ${target} ALTER COLUMN ${c} TYPE ${type} USING ${decimalFromText(c, precision, scale)}`,
      ),
    );
    column.format = { kind: 'decimal', precision, scale };
  }
}
