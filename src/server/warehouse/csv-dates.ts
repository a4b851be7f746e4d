/**
 * Dates and date-times written the ways real exports write them (`Jan 1 2000`, `1/31/2024`,
 * `31.01.2024`, `31/01/2024 10:00`, `Mon, 01 Jan 2024 10:00:00 +0000`), found in text columns of a
 * CSV file after DuckDB read it. DuckDB's own detection is kept for ISO dates and times; its guesses
 * of other formats are not used, because it picks day-first or month-first even when the data cannot
 * tell (csv-import.ts reads those columns as text and lets this file decide).
 *
 * A column becomes a date column only when every non-empty value reads in one layout. Day-first and
 * month-first are decided from the data: a first number above 12 makes it day-first, a second one
 * month-first; when neither is ever above 12 the column stays Text and the user is told why, rather
 * than guessing.
 *
 * Cost: the first rows are matched in JavaScript against each layout's shape, so a plain text column
 * costs no SQL. The few layouts left are checked on every row by DuckDB's strptime, whose failures
 * are slow (about a microsecond each), so the formats a value may have are tried in the order the
 * first rows use them, and day-first against month-first is settled by the largest numbers rather
 * than by trying both.
 */
import { eraText } from './era-text';
import { quoteIdentifier, quoteString } from './quote';
import type { WarehouseSession } from './types';

export interface DateReading {
  type: 'Date' | 'DateTime';
  /** The DuckDB type stored: DATE, TIMESTAMP, or TIMESTAMP WITH TIME ZONE for values with an offset. */
  sqlType: string;
  /** The layout as the user is told it, e.g. `M/D/YYYY` or `D.M.YYYY h:mm[:ss] [AM/PM]`. */
  format: string;
  /** SQL making the stored value of the column's text (the column given quoted). */
  expression: (column: string) => string;
}

export interface AmbiguousDates {
  /** The column's name in the scratch table. */
  name: string;
  /** The two layouts that both read every value, e.g. `M/D/YYYY` and `D/M/YYYY`. */
  formats: [string, string];
}

interface Layout {
  /** The date part as the user is told it. */
  label: string;
  /** What a value in this layout looks like (no calendar check): the first rows must all match it. */
  shape: RegExp;
  /** SQL: the value is a date alone in this layout. Null when the layout always has a time. */
  dateOnly: ((column: string) => string) | null;
  /** SQL: the value is a date with or without a time; `times` are the time formats, likeliest first. */
  any: (column: string, times: string[]) => string;
  /** SQL for the stored value. */
  convert: (column: string, withTime: boolean, times: string[]) => string;
  /** The times this layout reads, for the format shown. */
  timeLabel: string;
  /** Its times carry a zone or an offset: the values are instants (TIMESTAMP WITH TIME ZONE). */
  zoned?: boolean;
  /** Numbers for day and month: which comes first, and the RE2 expression capturing both. */
  numeric?: { order: 'MDY' | 'DMY'; parts: string };
}

/** Times after a date, as strptime reads them (one or two digits for each part), and their shapes. */
const TIMES: [string, RegExp][] = [
  [' %H:%M', /^\s+\d{1,2}:\d{2}\s*$/],
  [' %H:%M:%S', /^\s+\d{1,2}:\d{2}:\d{2}\s*$/],
  [' %H:%M:%S.%f', /^\s+\d{1,2}:\d{2}:\d{2}\.\d{1,6}\s*$/],
  [' %I:%M %p', /^\s+\d{1,2}:\d{2}\s*[AaPp][Mm]\s*$/],
  [' %I:%M:%S %p', /^\s+\d{1,2}:\d{2}:\d{2}\s*[AaPp][Mm]\s*$/],
  [' %I %p', /^\s+\d{1,2}\s*[AaPp][Mm]\s*$/],
  ['T%H:%M', /^T\d{1,2}:\d{2}\s*$/],
  ['T%H:%M:%S', /^T\d{1,2}:\d{2}:\d{2}\s*$/],
];
const TIME_LABEL = 'h:mm[:ss] [AM/PM]';
/** The shape of any of those times, optional, to the end of the value. */
const TIME_SHAPE = String.raw`(?:(?:\s+|T)\d{1,2}(?::\d{2}(?::\d{2}(?:\.\d{1,6})?)?)?(?:\s*[AaPp][Mm])?)?\s*$`;
/** English month and day names and their abbreviations, as strptime's %b, %B, %a and %A read them. */
const MONTH = String.raw`(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:tember)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)`;
const WEEKDAY = String.raw`(?:mon(?:day)?|tue(?:sday)?|wed(?:nesday)?|thu(?:rsday)?|fri(?:day)?|sat(?:urday)?|sun(?:day)?)`;

const list = (formats: string[]) => `[${formats.map(quoteString).join(', ')}]`;

/**
 * A layout strptime reads, given its date formats. `guard` (an RE2 expression the value must match)
 * keeps a year of four digits apart from one of two: strptime's %Y alone reads `1/31/24` as year 24.
 */
function strptimeLayout(
  label: string,
  dates: string[],
  shape: string,
  guard: string,
  flags = '',
  numeric?: Layout['numeric'],
): Layout {
  // `times` holds '' for a date alone, in its place in the order.
  const withTimes = (times: string[]) => times.flatMap((t) => dates.map((d) => `${d}${t}`));
  const guarded = (c: string, test: string) => `(regexp_matches(${c}, ${quoteString(guard)}) AND ${test})`;
  return {
    label,
    shape: new RegExp(`${shape}${TIME_SHAPE}`, flags),
    dateOnly: (c) => guarded(c, `try_strptime(${c}, ${list(dates)}) IS NOT NULL`),
    any: (c, times) => guarded(c, `try_strptime(${c}, ${list(withTimes(times))}) IS NOT NULL`),
    convert: (c, withTime, times) =>
      withTime ? `strptime(${c}, ${list(withTimes(times))})` : `CAST(strptime(${c}, ${list(dates)}) AS DATE)`,
    timeLabel: TIME_LABEL,
    ...(numeric ? { numeric } : {}),
  };
}

/** Day, month and year as numbers: every separator and year width, month-first and day-first. */
function numericLayouts(): Layout[] {
  const layouts: Layout[] = [];
  for (const sep of ['/', '-', '.']) {
    const s = sep === '.' ? String.raw`\.` : sep;
    for (const [year, yearLabel, digits] of [
      ['%Y', 'YYYY', 4],
      ['%y', 'YY', 2],
    ] as const) {
      const date = String.raw`^\s*(\d{1,2})${s}(\d{1,2})${s}\d{${digits}}`;
      const guard = String.raw`${date}(\D|$)`;
      layouts.push(
        strptimeLayout(`M${sep}D${sep}${yearLabel}`, [`%m${sep}%d${sep}${year}`], date, guard, '', {
          order: 'MDY',
          parts: date,
        }),
        strptimeLayout(`D${sep}M${sep}${yearLabel}`, [`%d${sep}%m${sep}${year}`], date, guard, '', {
          order: 'DMY',
          parts: date,
        }),
      );
    }
  }
  return layouts;
}

/** Month names: %b reads `Jan`, %B `January` (any case). */
const YEAR4 = String.raw`\D\d{4}(\D|$)`;
const NAMED: Layout[] = [
  strptimeLayout('MMM D YYYY', ['%b %d %Y', '%B %d %Y'], String.raw`^\s*${MONTH}\s+\d{1,2}\s+\d{4}`, YEAR4, 'i'),
  strptimeLayout('MMM D, YYYY', ['%b %d, %Y', '%B %d, %Y'], String.raw`^\s*${MONTH}\s+\d{1,2},\s*\d{4}`, YEAR4, 'i'),
  strptimeLayout('D MMM YYYY', ['%d %b %Y', '%d %B %Y'], String.raw`^\s*\d{1,2}\s+${MONTH}\s+\d{4}`, YEAR4, 'i'),
  strptimeLayout('D-MMM-YYYY', ['%d-%b-%Y', '%d-%B-%Y'], String.raw`^\s*\d{1,2}-${MONTH}-\d{4}`, YEAR4, 'i'),
  strptimeLayout(
    'D-MMM-YY',
    ['%d-%b-%y', '%d-%B-%y'],
    String.raw`^\s*\d{1,2}-${MONTH}-\d{2}`,
    String.raw`^\s*\d{1,2}-\pL+-\d{2}(\D|$)`,
    'i',
  ),
  strptimeLayout(
    'ddd MMM D YYYY',
    ['%a %b %d %Y', '%A %B %d %Y'],
    String.raw`^\s*${WEEKDAY}\s+${MONTH}\s+\d{1,2}\s+\d{4}`,
    YEAR4,
    'i',
  ),
  strptimeLayout(
    'dddd, MMMM D, YYYY',
    ['%A, %B %d, %Y', '%a, %b %d, %Y', '%A, %b %d, %Y', '%a, %B %d, %Y'],
    String.raw`^\s*${WEEKDAY},\s*${MONTH}\s+\d{1,2},\s*\d{4}`,
    YEAR4,
    'i',
  ),
];

/** Internet mail and HTTP dates (RFC 2822), always with a time and a zone: instants. */
const RFC_2822: Layout = (() => {
  const formats = [
    '%a, %d %b %Y %H:%M:%S %z',
    '%a, %d %b %Y %H:%M:%S %Z',
    '%d %b %Y %H:%M:%S %z',
    '%a, %d %b %Y %H:%M %z',
  ];
  return {
    label: 'ddd, D MMM YYYY hh:mm:ss ±hhmm',
    shape: new RegExp(
      String.raw`^\s*(?:${WEEKDAY},\s*)?\d{1,2}\s+${MONTH}\s+\d{4}\s+\d{1,2}:\d{2}(?::\d{2})?\s+(?:[+-]\d{4}|GMT|UTC?)\s*$`,
      'i',
    ),
    dateOnly: null,
    any: (c) => `try_strptime(${c}, ${list(formats)}) IS NOT NULL`,
    convert: (c) => `strptime(${c}, ${list(formats)})`,
    timeLabel: '',
    zoned: true,
  };
})();

/**
 * ISO 8601, for text columns DuckDB did not read as dates itself (it reads a whole file's dates in one
 * format, so a column of ISO dates next to one of `1/31/2024` comes here as text). A value with an
 * offset is an instant; a column mixing instants and local times reads the local ones as UTC.
 */
const ISO_DATE = String.raw`\s*\d{4}-\d{1,2}-\d{1,2}`;
const ISO_TIME = String.raw`[T ]\d{1,2}:\d{2}(?::\d{2}(?:\.\d+)?)?`;
const ISO_ZONE = String.raw`\s*(?:Z|z|UTC|[+-]\d{2}(?::?\d{2})?)`;
const ISO_LOCAL_TEXT = String.raw`${ISO_DATE}(?:${ISO_TIME})?\s*`;
const ISO_ZONED_TEXT = String.raw`${ISO_DATE}(?:${ISO_TIME}(?:${ISO_ZONE})?)?\s*`;
const matches = (c: string, pattern: string) => `regexp_full_match(${c}, ${quoteString(pattern)})`;
const ISO_LOCAL: Layout = {
  label: 'YYYY-MM-DD',
  shape: new RegExp(`^${ISO_LOCAL_TEXT}$`),
  dateOnly: (c) => `(${matches(c, String.raw`${ISO_DATE}\s*`)} AND TRY_CAST(${c} AS DATE) IS NOT NULL)`,
  any: (c) => `(${matches(c, ISO_LOCAL_TEXT)} AND TRY_CAST(${c} AS TIMESTAMP) IS NOT NULL)`,
  convert: (c, withTime) => `CAST(${c} AS ${withTime ? 'TIMESTAMP' : 'DATE'})`,
  timeLabel: 'hh:mm:ss',
};
const ISO_ZONED: Layout = {
  label: 'YYYY-MM-DD',
  shape: new RegExp(`^${ISO_ZONED_TEXT}$`),
  dateOnly: null,
  any: (c) => `(${matches(c, ISO_ZONED_TEXT)} AND TRY_CAST(${c} AS TIMESTAMPTZ) IS NOT NULL)`,
  convert: (c) => `CAST(${c} AS TIMESTAMPTZ)`,
  timeLabel: 'hh:mm:ss±hh:mm',
  zoned: true,
};

/**
 * ISO dates and date-times with PostgreSQL's era (`0044-03-15 BC`, `… 10:00:00 BC`): DuckDB's
 * sniffer keeps such a column as text, and its cast would read the year as AD. Read in ISO years,
 * as syncs and later values of a column sniffed DATE are (era-text.ts). Values are matched exactly
 * (no spaces around them), so the era is never left behind.
 */
const ISO_ERA_DATE = String.raw`\d{4}-\d{2}-\d{2}(?: BC)?`;
const ISO_ERA_TEXT = String.raw`\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d{1,6})?)?)?(?: BC)?`;
const ISO_ERA: Layout = {
  label: 'YYYY-MM-DD [BC]',
  shape: new RegExp(`^${ISO_ERA_TEXT}$`),
  dateOnly: (c) => `(${matches(c, ISO_ERA_DATE)} AND TRY_CAST(${eraText(c)} AS DATE) IS NOT NULL)`,
  any: (c) => `(${matches(c, ISO_ERA_TEXT)} AND TRY_CAST(${eraText(c)} AS TIMESTAMP) IS NOT NULL)`,
  convert: (c, withTime) => `CAST(${eraText(c)} AS ${withTime ? 'TIMESTAMP' : 'DATE'})`,
  timeLabel: 'hh:mm:ss',
};

/** In order of preference: the first layout reading every value wins. */
const LAYOUTS: Layout[] = [
  ISO_LOCAL,
  ISO_ZONED,
  ISO_ERA,
  ...numericLayouts(),
  strptimeLayout('YYYY/MM/DD', ['%Y/%m/%d'], String.raw`^\s*\d{4}/\d{1,2}/\d{1,2}`, String.raw`^\s*\d{4}/`),
  strptimeLayout('YYYY.MM.DD', ['%Y.%m.%d'], String.raw`^\s*\d{4}\.\d{1,2}\.\d{1,2}`, String.raw`^\s*\d{4}\.`),
  ...NAMED,
  RFC_2822,
];

/** Rows whose values pick the candidate layouts of a column; every row is then checked for those. */
const SAMPLE_ROWS = 500;

/**
 * The time formats of the sampled values ('' for a date alone), the commonest first, then the others
 * (later rows may have them); whether some sampled values had no time.
 */
function timesSeen(values: string[]): { times: string[]; dateAlone: boolean } {
  const counts = new Map<string, number>();
  for (const value of values) {
    const time = /(?:\s+|T)\d{1,2}(?::\d{2}(?::\d{2}(?:\.\d+)?)?)?(?:\s*[AaPp][Mm])?\s*$/.exec(value)?.[0];
    const format = (time ? TIMES.find(([, shape]) => shape.test(time))?.[0] : undefined) ?? '';
    counts.set(format, (counts.get(format) ?? 0) + 1);
  }
  const seen = [...counts.entries()].sort((a, b) => b[1] - a[1]).map(([format]) => format);
  const all = ['', ...TIMES.map(([format]) => format)];
  return { times: [...seen, ...all.filter((f) => !seen.includes(f))], dateAlone: counts.has('') };
}

interface Candidate {
  name: string;
  i: number;
  layouts: Layout[];
  times: string[];
  dateAlone: boolean;
  /** Read month-first only to see whether every value is a date: day-first would read them too. */
  eitherOrder?: [string, string];
}

/**
 * Finds the date layout of each text column of `table` whose every non-empty value reads in one.
 * `columns` are the text columns to look at (names in `table`).
 */
export async function detectDates(
  session: WarehouseSession,
  table: string,
  columns: string[],
): Promise<{ readings: Map<string, DateReading>; ambiguous: AmbiguousDates[] }> {
  const readings = new Map<string, DateReading>();
  const ambiguous: AmbiguousDates[] = [];
  if (columns.length === 0) return { readings, ambiguous };

  // 1. The layouts whose shape the first rows' values all have (numbers: both orders for now).
  const picked = columns.map((name, i) => `${quoteIdentifier(name)}::VARCHAR AS c${i}`).join(', ');
  const sample = await session.all({ sql: `SELECT ${picked} FROM ${table} LIMIT ${SAMPLE_ROWS}`, parameters: [] });
  let candidates: Candidate[] = columns
    .map((name, i) => {
      const values = sample.map((row) => row[`c${i}`]).filter((v): v is string => typeof v === 'string');
      const layouts = values.length === 0 ? [] : LAYOUTS.filter((layout) => values.every((v) => layout.shape.test(v)));
      return { name, i, layouts, ...timesSeen(values) };
    })
    .filter((c) => c.layouts.length > 0);
  if (candidates.length === 0) return { readings, ambiguous };

  // 2. Day-first or month-first, from the largest first and second numbers of every row.
  candidates = await settleOrder(session, table, candidates);

  // 3. Every row, for the layouts left: a date alone (when the first rows had one), else with a time.
  const checks = candidates.flatMap(({ name, i, layouts, times, dateAlone }) => {
    const column = quoteIdentifier(name);
    return layouts.flatMap((layout, l) => [
      ...(layout.dateOnly && dateAlone ? [`${bad(column, layout.dateOnly(column))} AS ${alias(i, l, 'date')}`] : []),
      `${bad(column, layout.any(column, times))} AS ${alias(i, l, 'any')}`,
    ]);
  });
  if (checks.length === 0) return { readings, ambiguous };
  const [all] = await session.all({ sql: `SELECT ${checks.join(', ')} FROM ${table}`, parameters: [] });
  const reads = (i: number, l: number, kind: 'date' | 'any') => {
    const value = all?.[alias(i, l, kind)];
    return value !== undefined && Number(value) === 0;
  };

  for (const { name, i, layouts, times, eitherOrder } of candidates) {
    const l = layouts.findIndex((_, n) => reads(i, n, 'date') || reads(i, n, 'any'));
    const layout = layouts[l];
    if (!layout) continue;
    if (eitherOrder) {
      ambiguous.push({ name, formats: eitherOrder });
      continue;
    }
    const withTime = !reads(i, l, 'date');
    readings.set(name, {
      type: withTime ? 'DateTime' : 'Date',
      sqlType: withTime ? (layout.zoned ? 'TIMESTAMP WITH TIME ZONE' : 'TIMESTAMP') : 'DATE',
      format: withTime && layout.timeLabel ? `${layout.label} ${layout.timeLabel}` : layout.label,
      expression: (c) => layout.convert(c, withTime, times),
    });
  }
  return { readings, ambiguous };
}

const alias = (i: number, layout: number, kind: string) => `c${i}_${layout}_${kind}`;
const bad = (column: string, test: string) =>
  `count(*) FILTER (WHERE ${column} IS NOT NULL AND NOT coalesce(${test}, false))`;

/**
 * Keeps, of each pair of numeric layouts that differ only in the order of day and month, the one the
 * data allows: a first number above 12 can only be a day, a second one likewise. Where neither
 * number is ever above 12, either order would do: month-first is kept only to check that every value
 * is a date, and the column is then reported as ambiguous. Where both are, neither order reads it.
 */
async function settleOrder(session: WarehouseSession, table: string, candidates: Candidate[]): Promise<Candidate[]> {
  const paired = candidates.flatMap(({ name, i, layouts }) => {
    const numeric = layouts.find((layout) => layout.numeric);
    return numeric?.numeric ? [{ name, i, parts: numeric.numeric.parts }] : [];
  });
  if (paired.length === 0) return candidates;
  const parts = (column: string, pattern: string, n: number) =>
    `max(TRY_CAST(regexp_extract(${column}, ${quoteString(pattern)}, ${n}) AS INTEGER))`;
  const [max] = await session.all({
    sql: `SELECT ${paired
      .map(({ name, i, parts: pattern }) => {
        const column = quoteIdentifier(name);
        return `${parts(column, pattern, 1)} AS first${i}, ${parts(column, pattern, 2)} AS second${i}`;
      })
      .join(', ')} FROM ${table}`,
    parameters: [],
  });
  return candidates.flatMap((candidate) => {
    const numeric = candidate.layouts.filter((layout) => layout.numeric);
    if (numeric.length === 0) return [candidate];
    const dayFirst = Number(max?.[`first${candidate.i}`]) > 12;
    const monthFirst = Number(max?.[`second${candidate.i}`]) > 12;
    const keep = (order: 'MDY' | 'DMY') => (layout: Layout) => !layout.numeric || layout.numeric.order === order;
    if (dayFirst && !monthFirst) return [{ ...candidate, layouts: candidate.layouts.filter(keep('DMY')) }];
    if (monthFirst && !dayFirst) return [{ ...candidate, layouts: candidate.layouts.filter(keep('MDY')) }];
    const others = candidate.layouts.filter((layout) => !layout.numeric);
    const mdy = numeric.find((layout) => layout.numeric?.order === 'MDY');
    const dmy = numeric.find((layout) => layout.numeric?.order === 'DMY');
    if (others.length > 0) return [{ ...candidate, layouts: others }];
    if (dayFirst || !mdy || !dmy) return [];
    return [{ ...candidate, layouts: [mdy], eitherOrder: [mdy.label, dmy.label] as [string, string] }];
  });
}

/** The format shown for a column DuckDB read as a date itself (ISO 8601). */
export function nativeDateFormat(sqlType: string): string | null {
  const type = sqlType.toUpperCase();
  if (type === 'DATE') return 'YYYY-MM-DD';
  if (type === 'TIMESTAMP WITH TIME ZONE' || type === 'TIMESTAMPTZ') return 'YYYY-MM-DD hh:mm:ss±hh:mm';
  if (type.startsWith('TIMESTAMP')) return 'YYYY-MM-DD hh:mm:ss';
  return null;
}
