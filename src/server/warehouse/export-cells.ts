/**
 * How each column of an export is written, as SQL over the column (`ref` is an identifier the caller
 * quoted). The file holds the values the grid's data call answers (json-values.ts), exactly:
 *
 * - CSV: DuckDB writes doubles as `3804.0` and `1e+17`, and decimals with every digit of their scale
 *   (`3804.00`). Doubles are written as JavaScript writes a number (`3804`, `100000000000000000`,
 *   `0.1`, `1e-7`: the shortest text that reads back as the same double, which is what the grid
 *   shows), FLOAT by its own shortest digits (`0.1`, as the grid shows it), decimals without trailing
 *   zeros (every digit that carries a value stays; `0.5`, not DuckDB's `.5000`, for a DECIMAL(4,4)),
 *   BLOB as base64 (the grid's form), and lists, structs and maps as JSON text (DuckDB's own
 *   `[a, 'b c', NULL]` cannot be told apart from a string). Integers of any size are already
 *   written exactly; dates, times and text are DuckDB's own, exact text.
 * - Parquet keeps each column's type, except 128-bit integers: Parquet has none, and DuckDB would
 *   write them as DOUBLE, rounding past 2^53. They become DECIMAL(38,0), exact; a value beyond 38
 *   digits fails the export with DuckDB's conversion error rather than being rounded. Intervals and
 *   times with a time zone become their text: Parquet's interval has no sign (a negative one fails
 *   the export) and its time with a zone keeps only the UTC time (the offset would be lost).
 *
 * `null` means the column is written as it is.
 */
export type CellFormat = 'csv' | 'parquet';

export function exportCellSql(ref: string, sqlType: string, format: CellFormat): string | null {
  return format === 'csv' ? csvCellSql(ref, sqlType) : parquetCellSql(ref, sqlType);
}

function csvCellSql(ref: string, sqlType: string): string | null {
  if (sqlType === 'DOUBLE') return doubleTextSql(ref);
  if (sqlType === 'FLOAT') return doubleTextSql(floatDigitsSql(ref));
  if (isNested(sqlType)) return `CAST(to_json(${ref}) AS VARCHAR)`;
  const decimal = /^DECIMAL\((\d+),\s*([1-9]\d*)\)$/.exec(sqlType);
  if (decimal) return decimal[1] === decimal[2] ? fractionTextSql(ref) : decimalTextSql(ref);
  if (sqlType === 'BLOB') return `base64(${ref})`;
  return null;
}

function parquetCellSql(ref: string, sqlType: string): string | null {
  const wide = /^U?HUGEINT((?:\[\d*\])*)$/.exec(sqlType);
  if (wide) return `CAST(${ref} AS DECIMAL(38,0)${wide[1]})`;
  const textual = /^(?:INTERVAL|TIME WITH TIME ZONE|TIMETZ)((?:\[\d*\])*)$/.exec(sqlType);
  return textual ? `CAST(${ref} AS VARCHAR${textual[1]})` : null;
}

/** Lists, arrays, structs, maps and unions: values DuckDB's CSV writer renders ambiguously. */
function isNested(sqlType: string): boolean {
  return /\[\d*\]$/.test(sqlType) || /^(?:STRUCT|MAP|UNION)\(/.test(sqlType);
}

/**
 * A FLOAT's shortest digits that read back as the same float, as the double the grid then shows
 * (0.1, not 0.10000000149011612; json-values.ts): the fewest significant digits, rounded to nearest,
 * strictly nearer to the float than to either neighbour (a decimal exactly halfway between two floats
 * is read differently by different readers, so the grid never writes one). DuckDB's own float text is
 * not always the shortest (192115.625 for what 192115.62 reads back as).
 */
function floatDigitsSql(ref: string): string {
  const value = `CAST(${ref} AS DOUBLE)`;
  // Halfway to each neighbour, exact in a double.
  const below = `CAST(nextafter(${ref}, CAST('-inf' AS FLOAT)) AS DOUBLE)`;
  const above = `CAST(nextafter(${ref}, CAST('inf' AS FLOAT)) AS DOUBLE)`;
  // The largest floats have infinity as a neighbour: a float reader rounds to infinity from half an
  // ulp beyond them, so their bound is mirrored from the finite side.
  const low = `(CASE WHEN isinf(${below}) THEN ${value} - (${above} - ${value}) / 2 ELSE (${value} + ${below}) / 2 END)`;
  const high = `(CASE WHEN isinf(${above}) THEN ${value} + (${value} - ${below}) / 2 ELSE (${value} + ${above}) / 2 END)`;
  const digits = (n: number) => `CAST(printf('%.${n}g', ${value}) AS DOUBLE)`;
  const tries = [1, 2, 3, 4, 5, 6, 7, 8].map(
    (n) => ` WHEN ${digits(n)} > ${low} AND ${digits(n)} < ${high} THEN ${digits(n)}`,
  );
  return `CASE WHEN ${ref} IS NULL OR isnan(${ref}) OR isinf(${ref}) OR ${ref} = 0 THEN ${value}${tries.join('')} ELSE ${digits(9)} END`;
}

/**
 * A decimal's exact text without the trailing zeros of its scale: `3804.00` → `3804`, `0.50` → `0.5`.
 * Only for a scale above 0, whose text always has a point (so the zeros trimmed are after it).
 */
export function decimalTextSql(ref: string): string {
  return `rtrim(rtrim(CAST(${ref} AS VARCHAR), '0'), '.')`;
}

/**
 * A decimal whose scale is its precision (DECIMAL(4,4): only a fraction), which DuckDB writes without
 * the zero before the point (`.5000`, `-.5000`, `.0000`): its text as the grid's number reads, `0.5`,
 * `-0.5`, `0`. (A spelling with the zero, should DuckDB write one, is kept.)
 */
export function fractionTextSql(ref: string): string {
  const trimmed = `rtrim(CAST(${ref} AS VARCHAR), '0')`;
  return `CASE WHEN ${ref} = 0 THEN '0' ELSE regexp_replace(${trimmed}, '^(-?)\\.', '\\10.') END`;
}

/**
 * A double as JavaScript's `String(n)` writes it (ECMAScript Number::toString), built from DuckDB's
 * shortest round-trip text, which has the same digits: plain digits up to 10^21, `0.000001` down to
 * 10^-6, exponent form (`1e-7`, `1.5e+300`) beyond; `NaN`, `Infinity`, and `0` for -0.
 */
export function doubleTextSql(ref: string): string {
  const text = `CAST(${ref} AS VARCHAR)`;
  // DuckDB's exponent form: an optional '-', one digit, optional '.' and digits, 'e', a signed exponent.
  const mantissa = `split_part(${text}, 'e', 1)`;
  const exponent = `CAST(split_part(${text}, 'e', 2) AS INTEGER)`;
  const sign = `CASE WHEN starts_with(${text}, '-') THEN '-' ELSE '' END`;
  const digits = `replace(replace(${mantissa}, '-', ''), '.', '')`;
  const count = `length(${digits})`;
  // The decimal point's place counted from the first digit (JavaScript's n): value = 0.digits × 10^n.
  const point = `(${exponent} + 1)`;
  const fromExponentForm =
    `CASE` +
    ` WHEN ${point} >= ${count} AND ${point} <= 21 THEN ${sign} || ${digits} || repeat('0', ${point} - ${count})` +
    ` WHEN ${point} > 0 AND ${point} <= 21 THEN ${sign} || substr(${digits}, 1, ${point}) || '.' || substr(${digits}, ${point} + 1)` +
    ` WHEN ${point} > -6 AND ${point} <= 0 THEN ${sign} || '0.' || repeat('0', -${point}) || ${digits}` +
    ` ELSE ${mantissa} || 'e' || CASE WHEN ${exponent} >= 0 THEN '+' ELSE '-' END || CAST(abs(${exponent}) AS VARCHAR)` +
    ` END`;
  return (
    `CASE` +
    ` WHEN ${ref} IS NULL THEN NULL` +
    ` WHEN isnan(${ref}) THEN 'NaN'` +
    ` WHEN isinf(${ref}) THEN CASE WHEN ${ref} > 0 THEN 'Infinity' ELSE '-Infinity' END` +
    // Whole numbers below 2^53 (most numbers): their exact digits, which are also JavaScript's.
    ` WHEN ${ref} = trunc(${ref}) AND abs(${ref}) < 9007199254740992 THEN CAST(CAST(${ref} AS BIGINT) AS VARCHAR)` +
    // Fractions between 10^-4 and 10^15: DuckDB's plain digits, which are JavaScript's too.
    ` WHEN abs(${ref}) >= 0.0001 AND abs(${ref}) < 1e15 THEN ${text}` +
    ` WHEN NOT contains(${text}, 'e') THEN CASE WHEN suffix(${text}, '.0') THEN substr(${text}, 1, length(${text}) - 2) ELSE ${text} END` +
    ` ELSE ${fromExponentForm}` +
    ` END`
  );
}
