/**
 * How each column of an export is written, as SQL over the column (`ref` is an identifier the caller
 * quoted). The file holds the values the grid's data call answers (json-values.ts), exactly:
 *
 * - CSV: DuckDB writes doubles as `3804.0` and `1e+17`, and decimals with every digit of their scale
 *   (`3804.00`). Doubles are written as JavaScript writes a number (`3804`, `100000000000000000`,
 *   `0.1`, `1e-7`: the shortest text that reads back as the same double, which is what the grid
 *   shows), FLOAT by its own shortest digits (`0.1`, as the grid shows it), decimals as the grid has
 *   them (a value a double holds as that number: `3804` for 3804.00, `0.5` for DECIMAL(4,4)'s
 *   `.5000`; any other its exact text, every digit of its scale), BLOB as base64 (the grid's form),
 *   and lists, structs and maps as JSON text (DuckDB's own `[a, 'b c', NULL]` cannot be told apart
 *   from a string), the items of lists of numbers, dates and timestamps as those scalars are
 *   written. Dates and timestamps of the years 0001-9999 are DuckDB's own text (the same instant:
 *   `2024-01-31 10:00:00.5` where the grid has `2024-01-31T10:00:00.500Z`); other years, which
 *   DuckDB writes with an era (`0044-03-15 (BC)`) or without the expanded year's sign
 *   (`10000-01-01`), are the grid's ISO years (`-000043-03-15`, `+010000-01-01`), date-times in
 *   DuckDB's layout still (`-000043-03-15 10:00:00.5`). Integers of any size
 *   are already written exactly. Intervals and times with a zone are the grid's text (an ISO 8601
 *   duration, `P1Y2M3DT4H`, where DuckDB writes `1 year 2 months 3 days 04:00:00`; a full offset,
 *   `+05:00`, where DuckDB writes `+05`), in lists too; times and text are DuckDB's own, exact text.
 * - Parquet keeps each column's type, except 128-bit integers: Parquet has none, and DuckDB would
 *   write them as DOUBLE, rounding past 2^53. They become DECIMAL(38,0), exact; a value beyond 38
 *   digits fails the export with DuckDB's conversion error rather than being rounded. Intervals and
 *   times with a time zone become the grid's text, as in CSV: Parquet's interval has no sign (a
 *   negative one fails the export) and its time with a zone keeps only the UTC time (the offset
 *   would be lost).
 *
 * `null` means the column is written as it is.
 */
import { duckdbDialect } from '../../engine';
import { scalarTextShape } from '../../engine/values/shown-text';

export type CellFormat = 'csv' | 'parquet';

/**
 * The grid's text of a type whose DuckDB text differs from it (an interval, a BLOB, a time with a
 * zone): the engine's shown text, as filters compare it (values/shown-text.ts); null for others.
 */
function shownTextSql(ref: string, sqlType: string): string | null {
  const shape = scalarTextShape(sqlType);
  return shape === 'scalar' ? null : duckdbDialect.textOf(ref, shape);
}

export function exportCellSql(ref: string, sqlType: string, format: CellFormat): string | null {
  return format === 'csv' ? csvCellSql(ref, sqlType) : parquetCellSql(ref, sqlType);
}

function csvCellSql(ref: string, sqlType: string): string | null {
  if (sqlType === 'DATE') return dateTextSql(ref);
  const timestamp = TIMESTAMP_TYPES[sqlType];
  if (timestamp !== undefined) return timestamp === null ? null : timestampTextSql(ref, sqlType, timestamp);
  if (sqlType === 'DOUBLE') return doubleTextSql(ref);
  if (sqlType === 'FLOAT') return doubleTextSql(floatDigitsSql(ref));
  if (isNested(sqlType)) return `CAST(to_json(${listItemsSql(ref, sqlType) ?? ref}) AS VARCHAR)`;
  const decimal = /^DECIMAL\((\d+),\s*(\d+)\)$/.exec(sqlType);
  if (decimal) return decimalTextSql(ref, Number(decimal[1]), Number(decimal[2]));
  return shownTextSql(ref, sqlType);
}

function parquetCellSql(ref: string, sqlType: string): string | null {
  const wide = /^U?HUGEINT((?:\[\d*\])*)$/.exec(sqlType);
  if (wide) return `CAST(${ref} AS DECIMAL(38,0)${wide[1]})`;
  const textual = /^(INTERVAL|TIME WITH TIME ZONE|TIMETZ)((?:\[\d*\])*)$/.exec(sqlType);
  if (!textual) return null;
  const [, itemType = '', dimensions = ''] = textual;
  // Each item of a list (of lists) as its text, a step per level.
  const level = (x: string, depth: number): string =>
    depth === 0
      ? (shownTextSql(x, itemType) ?? x)
      : `list_transform(${x}, lambda list${depth}: ${level(`list${depth}`, depth - 1)})`;
  return level(ref, dimensions.split('[').length - 1);
}

/** Lists, arrays, structs, maps and unions: values DuckDB's CSV writer renders ambiguously. */
function isNested(sqlType: string): boolean {
  return /\[\d*\]$/.test(sqlType) || /^(?:STRUCT|MAP|UNION)\(/.test(sqlType);
}

/**
 * A list (or array, nested to any depth) of numbers, dates or timestamps with each item as the grid's
 * data call writes it, for to_json: DuckDB's JSON has a FLOAT's double digits (`0.10000000149011612`
 * where the grid has `0.1`), `3804.0` for 3804, and dates with eras (`0044-03-15 (BC)`). Numbers
 * become JSON numbers with a scalar's text (`NaN` and the infinities JSON text, as the grid sends
 * them); dates and timestamps their scalar's text. Null for other lists (and structs, maps, unions),
 * which to_json writes as they are. Intervals and times with a zone become the grid's text.
 */
function listItemsSql(ref: string, sqlType: string): string | null {
  const list =
    /^(FLOAT|DOUBLE|DATE|TIMESTAMP(?:_S|_MS)?|TIMESTAMP WITH TIME ZONE|INTERVAL|TIME WITH TIME ZONE|TIMETZ)((?:\[\d*\])+)$/.exec(
      sqlType,
    );
  if (!list) return null;
  const [, itemType = '', dimensions = ''] = list;
  const depth = dimensions.split('[').length - 1;
  const transform = (x: string, name: string, body: (item: string) => string) =>
    `list_transform(${x}, lambda ${name}: ${body(name)})`;
  // The innermost list's items, each step a lambda of its own: the text's SQL names its value many
  // times, so a step over the previous step's result stays small (a FLOAT's digits, then its text).
  const items = (x: string): string => {
    if (itemType !== 'FLOAT' && itemType !== 'DOUBLE')
      return transform(x, 'item', (item) => csvCellSql(item, itemType) ?? item);
    const doubles = itemType === 'FLOAT' ? transform(x, 'item', floatDigitsSql) : x;
    const texts = transform(doubles, 'number', doubleTextSql);
    return transform(
      texts,
      'text',
      (text) =>
        `CASE WHEN ${text} IN ('NaN', 'Infinity', '-Infinity') THEN to_json(${text}) ELSE CAST(${text} AS JSON) END`,
    );
  };
  const level = (x: string, n: number): string =>
    n === depth ? items(x) : transform(x, `list${n}`, (inner) => level(inner, n + 1));
  return level(ref, 1);
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

interface TimestampType {
  asTimestamp: (ref: string) => string;
  zone: string;
}

/**
 * Each timestamp type by the name DuckDB prints: how its value becomes a TIMESTAMP (microseconds, in
 * UTC), for the spelling of years outside 0001-9999, and the zone its bounds are written with; null
 * for TIMESTAMP_NS, whose years (1677-2262) never are outside.
 */
const TIMESTAMP_TYPES: Readonly<Record<string, TimestampType | null>> = {
  TIMESTAMP: { asTimestamp: (ref) => ref, zone: '' },
  TIMESTAMP_S: { asTimestamp: (ref) => `CAST(${ref} AS TIMESTAMP)`, zone: '' },
  TIMESTAMP_MS: { asTimestamp: (ref) => `CAST(${ref} AS TIMESTAMP)`, zone: '' },
  TIMESTAMP_NS: null,
  'TIMESTAMP WITH TIME ZONE': { asTimestamp: (ref) => `timezone('UTC', ${ref})`, zone: '+00' },
};

/**
 * A date as the grid's data call writes it (temporal-text.ts). DuckDB's text is the same for years
 * 0001-9999 (and infinities), which keep it; other years DuckDB writes with an era (`0044-03-15 (BC)`
 * for -0043-03-15) or unpadded (`10000-01-01`), where the grid has ISO's astronomical years, expanded
 * past four digits: `0000-06-15`, `-000043-03-15`, `+010000-01-01`.
 */
export function dateTextSql(ref: string): string {
  return (
    `CASE WHEN ${ref} >= DATE '0001-01-01' AND ${ref} < DATE '10000-01-01' THEN CAST(${ref} AS VARCHAR)` +
    ` WHEN ${ref} IS NULL OR NOT isfinite(${ref}) THEN CAST(${ref} AS VARCHAR)` +
    ` ELSE ${isoDaySql(ref)} END`
  );
}

/** `YYYY-MM-DD` of a date or timestamp, in ISO's years (`0000`, `-000043`, `+010000`). */
function isoDaySql(ref: string): string {
  const year = `year(${ref})`;
  return `CASE WHEN ${year} = 0 THEN '0000' ELSE printf('%+07d', ${year}) END || strftime(${ref}, '-%m-%d')`;
}

/**
 * A timestamp in DuckDB's own layout (`2024-01-31 10:00:00.5`, with `+00` for a TIMESTAMPTZ in the
 * warehouse's UTC), the same instant as the grid's, written at DuckDB's own speed; one layout for
 * the whole column. Its years outside 0001-9999 are the grid's ISO years (`-000043-03-15 10:00:00.5`,
 * `0000-06-15 10:00:00`, `+010000-01-01 00:00:00+00`), where DuckDB writes an era or five digits.
 */
function timestampTextSql(ref: string, sqlType: string, { asTimestamp, zone }: TimestampType): string {
  const at = asTimestamp(ref);
  const micros = `(microsecond(${at}) % 1000000)`;
  const fraction = `CASE WHEN ${micros} = 0 THEN '' ELSE '.' || rtrim(printf('%06d', ${micros}), '0') END`;
  const iso = `${isoDaySql(at)} || strftime(${at}, ' %H:%M:%S') || ${fraction} || '${zone}'`;
  // The bounds in the column's own type, so the common case costs two comparisons and no conversion.
  const bound = (day: string) => `CAST('${day} 00:00:00${zone}' AS ${sqlType})`;
  return (
    `CASE WHEN ${ref} >= ${bound('0001-01-01')} AND ${ref} < ${bound('10000-01-01')} THEN CAST(${ref} AS VARCHAR)` +
    ` WHEN ${ref} IS NULL OR NOT isfinite(${ref}) THEN CAST(${ref} AS VARCHAR)` +
    ` ELSE ${iso} END`
  );
}

/**
 * A DECIMAL(precision, scale) as the grid's data call answers it (json-values.ts): a number when a
 * double holds the value exactly, written as JavaScript writes that number (`3804` for 3804.000000,
 * `0.5`, `1e-9`), else the exact text with every digit of the scale (`12345678.1234567890`: the
 * value as its source, such as PostgreSQL's NUMERIC, prints it, which the grid shows as it is).
 * DuckDB writes a decimal that is all fraction (DECIMAL(4,4)) without the zero before the point
 * (`.5000`); the grid's text has it.
 *
 * Most values take the first branch at the cost of a comparison or two: below 10^15 in units of the
 * scale (at most 15 significant digits) and from 10^-6 up to 10^21 (where JavaScript writes plain
 * digits). Otherwise the significant digits decide, as the grid's fitsDouble does: up to 15 a double
 * always holds; more than 17 it never does (its shortest text has at most 17); 16 or 17 when the
 * double read from the text has the same digits as its shortest text (the same digits are the same
 * value: both are within half a step of that double). A value a double holds is written as its
 * digits without the scale's zeros, which are JavaScript's, except beyond its plain range.
 */
export function decimalTextSql(ref: string, precision: number, scale: number): string {
  // DuckDB's text with every digit of the scale, the zero before a bare point put back; and without
  // the scale's zeros.
  const exact = (text: string) => (precision === scale ? `regexp_replace(${text}, '^(-?)\\.', '\\10.')` : text);
  const trimmed = (text: string) => (scale === 0 ? text : exact(`rtrim(rtrim(${text}, '0'), '.')`));
  // Bounds in the column's own type (a comparison of two decimal types may round one of them).
  const type = `DECIMAL(${precision},${scale})`;
  const below = (exponent: number) =>
    precision - scale <= exponent ? 'true' : `abs(${ref}) < ${decimalLiteral(exponent, type)}`;
  const plainRange = `${scale <= 6 ? 'true' : `abs(${ref}) >= ${decimalLiteral(-6, type)}`} AND ${below(21)}`;
  // A number's significant digits, from DuckDB's text of a decimal or a double (`1.5e-07`).
  const digits = (number: string) => `trim(replace(replace(split_part(${number}, 'e', 1), '-', ''), '.', ''), '0')`;
  const notDouble = (text: string) =>
    `length(${digits(text)}) > 17 OR (length(${digits(text)}) > 15 AND ` +
    `${digits(`CAST(CAST(${text} AS DOUBLE) AS VARCHAR)`)} <> ${digits(text)})`;
  const text = `CAST(${ref} AS VARCHAR)`;
  return (
    `CASE WHEN ${ref} IS NULL THEN NULL` +
    ` WHEN ${ref} = 0 THEN '0'` +
    ` WHEN ${below(15 - scale)} AND ${plainRange} THEN ${trimmed(text)}` +
    // The few JavaScript writes with an exponent.
    ` WHEN NOT (${plainRange}) THEN CASE WHEN ${notDouble(text)} THEN ${exact(text)}` +
    ` ELSE ${doubleTextSql(`CAST(${text} AS DOUBLE)`)} END` +
    // The rest, the text cast once (a lambda's parameter): a wide decimal's cast to text is what costs.
    ` ELSE list_transform([${text}], lambda text: ` +
    `CASE WHEN ${notDouble('text')} THEN ${exact('text')} ELSE ${trimmed('text')} END)[1] END`
  );
}

/** 10^exponent in a decimal type, written out (DuckDB reads no exponent into a DECIMAL(4,4)). */
function decimalLiteral(exponent: number, type: string): string {
  const text = exponent >= 0 ? `1${'0'.repeat(exponent)}` : `0.${'0'.repeat(-exponent - 1)}1`;
  return `CAST('${text}' AS ${type})`;
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
