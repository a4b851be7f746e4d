/**
 * Dates and date-times written the ways real exports write them (`Jan 1 2000`, `1/31/2024`,
 * `31.01.2024`, `31/01/2024 10:00`, `Mon, 01 Jan 2024 10:00:00 +0000`), found in text columns of a
 * CSV file after DuckDB read it. DuckDB's own detection is kept for ISO dates and times; its guesses
 * of other formats are not used, because it picks day-first or month-first even when the data cannot
 * tell (csv-import.ts reads those columns as text and lets this file decide).
 *
 * A column becomes a date column only when every non-empty value reads in one layout. Day-first and
 * month-first layouts are decided from the data: when both read every value (no day above 12), the
 * column stays Text and the user is told why, rather than guessing. The first rows are matched in
 * JavaScript against each layout's shape, so a plain text column costs no SQL; the layouts they
 * leave are then checked on every row by DuckDB's strptime, which also checks the calendar.
 */
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
  /** SQL: the value is a date alone in this layout (without a time). Null when the layout always has a time. */
  dateOnly: ((column: string) => string) | null;
  /** SQL: the value is a date with or without a time in this layout. */
  any: (column: string) => string;
  /** SQL for the stored value. */
  convert: (column: string, withTime: boolean) => string;
  /** The times this layout reads, for the format shown. */
  timeLabel: string;
  /** Its times carry a zone or an offset: the values are instants (TIMESTAMP WITH TIME ZONE). */
  zoned?: boolean;
  /** The same layout with day and month swapped: both reading every value means the column is ambiguous. */
  twin?: string;
}

/** Times after a date, as strptime reads them (one or two digits for each part). */
const TIMES = [' %H:%M', ' %H:%M:%S', ' %H:%M:%S.%f', ' %I:%M %p', ' %I:%M:%S %p', ' %I %p', 'T%H:%M', 'T%H:%M:%S'];
const TIME_LABEL = 'h:mm[:ss] [AM/PM]';
/** The shape of those times, optional. */
const TIME_SHAPE = String.raw`(?:(?:\s+|T)\d{1,2}(?::\d{2}(?::\d{2}(?:\.\d{1,9})?)?)?(?:\s*[AaPp][Mm])?)?\s*$`;
/** English month names and their abbreviations, as strptime's %b and %B read them. */
const MONTH = String.raw`\b(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:tember)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)\b`;

const list = (formats: string[]) => `[${formats.map(quoteString).join(', ')}]`;

/**
 * A layout strptime reads. `guard` (an RE2 expression the value must match) keeps a year of four
 * digits apart from one of two: strptime's %Y alone would read `1/31/24` as the year 24.
 */
function strptimeLayout(label: string, dates: string[], shape: RegExp, guard: string, twin?: string): Layout {
  const withTimes = [...dates, ...dates.flatMap((d) => TIMES.map((t) => `${d}${t}`))];
  const guarded = (c: string, test: string) => `(regexp_matches(${c}, ${quoteString(guard)}) AND ${test})`;
  return {
    label,
    shape,
    dateOnly: (c) => guarded(c, `try_strptime(${c}, ${list(dates)}) IS NOT NULL`),
    any: (c) => guarded(c, `try_strptime(${c}, ${list(withTimes)}) IS NOT NULL`),
    convert: (c, withTime) =>
      withTime ? `strptime(${c}, ${list(withTimes)})` : `CAST(strptime(${c}, ${list(dates)}) AS DATE)`,
    timeLabel: TIME_LABEL,
    ...(twin ? { twin } : {}),
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
      const date = String.raw`^\s*\d{1,2}${s}\d{1,2}${s}\d{${digits}}`;
      const shape = new RegExp(`${date}${TIME_SHAPE}`);
      const guard = String.raw`${date}(\D|$)`;
      const mdy = `M${sep}D${sep}${yearLabel}`;
      const dmy = `D${sep}M${sep}${yearLabel}`;
      layouts.push(strptimeLayout(mdy, [`%m${sep}%d${sep}${year}`], shape, guard, dmy));
      layouts.push(strptimeLayout(dmy, [`%d${sep}%m${sep}${year}`], shape, guard, mdy));
    }
  }
  return layouts;
}

/** Month names: %b reads `Jan`, %B `January` (any case). A shape shared by all: a month name and digits. */
const NAMED_SHAPE = new RegExp(String.raw`^(?=.*${MONTH})(?=.*\d)[\p{L}\d\s,.:+\-]{6,64}$`, 'iu');
const YEAR4 = String.raw`\D\d{4}(\D|$)`;
const NAMED: [string, string[], string][] = [
  ['MMM D YYYY', ['%b %d %Y', '%B %d %Y'], YEAR4],
  ['MMM D, YYYY', ['%b %d, %Y', '%B %d, %Y'], YEAR4],
  ['D MMM YYYY', ['%d %b %Y', '%d %B %Y'], YEAR4],
  ['D-MMM-YYYY', ['%d-%b-%Y', '%d-%B-%Y'], YEAR4],
  ['D-MMM-YY', ['%d-%b-%y', '%d-%B-%y'], String.raw`^\s*\d{1,2}-\pL+-\d{2}(\D|$)`],
  ['ddd MMM D YYYY', ['%a %b %d %Y', '%A %B %d %Y'], YEAR4],
  ['dddd, MMMM D, YYYY', ['%A, %B %d, %Y', '%a, %b %d, %Y', '%A, %b %d, %Y', '%a, %B %d, %Y'], YEAR4],
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
    shape: NAMED_SHAPE,
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

/** In order of preference: the first layout reading every value wins (a twin makes it ambiguous). */
const LAYOUTS: Layout[] = [
  ISO_LOCAL,
  ISO_ZONED,
  ...numericLayouts(),
  strptimeLayout(
    'YYYY/MM/DD',
    ['%Y/%m/%d'],
    new RegExp(String.raw`^\s*\d{4}/\d{1,2}/\d{1,2}${TIME_SHAPE}`),
    '^\\s*\\d{4}/',
  ),
  strptimeLayout(
    'YYYY.MM.DD',
    ['%Y.%m.%d'],
    new RegExp(String.raw`^\s*\d{4}\.\d{1,2}\.\d{1,2}${TIME_SHAPE}`),
    '^\\s*\\d{4}\\.',
  ),
  ...NAMED.map(([label, formats, guard]) => strptimeLayout(label, formats, NAMED_SHAPE, guard)),
  RFC_2822,
];

/** Rows whose values pick the candidate layouts of a column; every row is then checked for those. */
const SAMPLE_ROWS = 500;

const alias = (i: number, layout: number, kind: string) => `c${i}_${layout}_${kind}`;
const bad = (column: string, test: string) =>
  `count(*) FILTER (WHERE ${column} IS NOT NULL AND NOT coalesce(${test}, false))`;

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

  // 1. The layouts whose shape the first rows' values all have.
  const picked = columns.map((name, i) => `${quoteIdentifier(name)}::VARCHAR AS c${i}`).join(', ');
  const sample = await session.all({ sql: `SELECT ${picked} FROM ${table} LIMIT ${SAMPLE_ROWS}`, parameters: [] });
  const candidates = columns
    .map((name, i) => {
      const values = sample.map((row) => row[`c${i}`]).filter((v): v is string => typeof v === 'string');
      const layouts = LAYOUTS.map((layout, l) => ({ layout, l })).filter(
        ({ layout }) => values.length > 0 && values.every((v) => layout.shape.test(v)),
      );
      return { name, i, layouts };
    })
    .filter((c) => c.layouts.length > 0);
  if (candidates.length === 0) return { readings, ambiguous };

  // 2. Every row, for those layouts only: a date alone, and a date with or without a time.
  const checks = candidates.flatMap(({ name, i, layouts }) => {
    const column = quoteIdentifier(name);
    return layouts.flatMap(({ layout, l }) => [
      ...(layout.dateOnly ? [`${bad(column, layout.dateOnly(column))} AS ${alias(i, l, 'date')}`] : []),
      `${bad(column, layout.any(column))} AS ${alias(i, l, 'any')}`,
    ]);
  });
  const [all] = await session.all({ sql: `SELECT ${checks.join(', ')} FROM ${table}`, parameters: [] });
  const reads = (i: number, l: number, kind: 'date' | 'any') => {
    const value = all?.[alias(i, l, kind)];
    return value !== undefined && Number(value) === 0;
  };

  for (const { name, i, layouts } of candidates) {
    const found = layouts.find(({ l }) => reads(i, l, 'date') || reads(i, l, 'any'));
    if (!found) continue;
    const { layout, l } = found;
    const withTime = !reads(i, l, 'date');
    const twin = layout.twin ? layouts.find((c) => c.layout.label === layout.twin) : undefined;
    if (twin && (reads(i, twin.l, 'date') || reads(i, twin.l, 'any'))) {
      ambiguous.push({ name, formats: [layout.label, twin.layout.label] });
      continue;
    }
    readings.set(name, {
      type: withTime ? 'DateTime' : 'Date',
      sqlType: withTime ? (layout.zoned ? 'TIMESTAMP WITH TIME ZONE' : 'TIMESTAMP') : 'DATE',
      format: withTime && layout.timeLabel ? `${layout.label} ${layout.timeLabel}` : layout.label,
      expression: (c) => layout.convert(c, withTime),
    });
  }
  return { readings, ambiguous };
}

/** The format shown for a column DuckDB read as a date itself (ISO 8601). */
export function nativeDateFormat(sqlType: string): string | null {
  const type = sqlType.toUpperCase();
  if (type === 'DATE') return 'YYYY-MM-DD';
  if (type === 'TIMESTAMP WITH TIME ZONE' || type === 'TIMESTAMPTZ') return 'YYYY-MM-DD hh:mm:ss±hh:mm';
  if (type.startsWith('TIMESTAMP')) return 'YYYY-MM-DD hh:mm:ss';
  return null;
}
