import type { WarehouseExecutor } from '../../../warehouse/types';
import { TEXT } from '../connectors/formats';
import {
  decimalIntDigitsSql,
  decimalScaleSql,
  exactDecimalType,
  MAX_DECIMAL_DIGITS,
} from '../../../warehouse/decimal-shape-sql';
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
    // A narrower decimal (the scale that carries value) is parsed and computed much faster.
    const scaleOf = decimalScaleSql(c);
    const intDigitsOf = decimalIntDigitsSql(c);
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
    const exact = exactDecimalType(intDigits, scale);
    if (exact === null) {
      const why =
        over > 0
          ? `${over === 1 ? '1 value has' : `${over} values have`} more than ${MAX_DECIMAL_DIGITS} digits`
          : `its values need ${intDigits} digits before the point and ${scale} after, more than the ${MAX_DECIMAL_DIGITS} a decimal holds`;
      note(staging, column.name, over, from, 'text', why);
      column.format = TEXT;
      continue;
    }
    const { precision } = exact;
    const type = `DECIMAL(${precision},${scale})`;
    await onStaging(executor, staging, () =>
      executor.run(
        `ALTER TABLE ${target} ALTER COLUMN ${c} TYPE ${type} USING ${decimalFromText(c, precision, scale)}`,
      ),
    );
    column.format = { kind: 'decimal', precision, scale };
  }
}
