/**
 * Periods named in a question ('last month', 'Q3 2025', 'since January', 'between 1 March and 15
 * April 2025', 'past 7 days', 'yesterday'), read relative to the user's today as a range of whole
 * days, both ends included. Pure: `today` is the user's calendar date (`localDate`).
 */

export interface Day {
  y: number;
  m: number; // 1..12
  d: number;
}

export interface Period {
  /** First day, inclusive (YYYY-MM-DD), or null: no lower bound. */
  from: string | null;
  /** Last day, inclusive, or null: no upper bound. */
  to: string | null;
  /** The words as the question said them ('last quarter'). */
  label: string;
  /** Where the period was in the text, to take it out before the rest is read. */
  start: number;
  end: number;
}

export const MONTHS = [
  'january',
  'february',
  'march',
  'april',
  'may',
  'june',
  'july',
  'august',
  'september',
  'october',
  'november',
  'december',
] as const;
const MONTH_SHORT: Record<string, number> = {
  jan: 1,
  feb: 2,
  mar: 3,
  apr: 4,
  jun: 6,
  jul: 7,
  aug: 8,
  sep: 9,
  sept: 9,
  oct: 10,
  nov: 11,
  dec: 12,
};

/** The user's calendar date at `now` in `timeZone` (default UTC). */
export function localDate(now: Date, timeZone = 'UTC'): Day {
  const parts = new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' })
    .formatToParts(now)
    .reduce<Record<string, string>>((acc, p) => ({ ...acc, [p.type]: p.value }), {});
  return { y: Number(parts.year), m: Number(parts.month), d: Number(parts.day) };
}

const toUtc = (day: Day) => Date.UTC(day.y, day.m - 1, day.d);
function fromUtc(ms: number): Day {
  const date = new Date(ms);
  return { y: date.getUTCFullYear(), m: date.getUTCMonth() + 1, d: date.getUTCDate() };
}
export function addDays(day: Day, days: number): Day {
  return fromUtc(toUtc(day) + days * 86_400_000);
}
function addMonths(day: Day, months: number): Day {
  const index = day.y * 12 + (day.m - 1) + months;
  return { y: Math.floor(index / 12), m: (index % 12) + 1, d: 1 };
}
const lastDayOfMonth = (y: number, m: number): Day => addDays(addMonths({ y, m, d: 1 }, 1), -1);
export function iso(day: Day): string {
  return `${String(day.y).padStart(4, '0')}-${String(day.m).padStart(2, '0')}-${String(day.d).padStart(2, '0')}`;
}

type Unit = 'day' | 'week' | 'month' | 'quarter' | 'year';

/** The calendar unit holding `day` (weeks from Monday). */
function unitOf(day: Day, unit: Unit): { from: Day; to: Day } {
  switch (unit) {
    case 'day':
      return { from: day, to: day };
    case 'week': {
      const weekday = (new Date(toUtc(day)).getUTCDay() + 6) % 7;
      const from = addDays(day, -weekday);
      return { from, to: addDays(from, 6) };
    }
    case 'month':
      return { from: { ...day, d: 1 }, to: lastDayOfMonth(day.y, day.m) };
    case 'quarter': {
      const first = Math.floor((day.m - 1) / 3) * 3 + 1;
      return { from: { y: day.y, m: first, d: 1 }, to: lastDayOfMonth(day.y, first + 2) };
    }
    case 'year':
      return { from: { y: day.y, m: 1, d: 1 }, to: { y: day.y, m: 12, d: 31 } };
  }
}

function shift(day: Day, unit: Unit, n: number): Day {
  switch (unit) {
    case 'day':
      return addDays(day, n);
    case 'week':
      return addDays(day, 7 * n);
    case 'month':
      return { ...addMonths(day, n), d: 1 };
    case 'quarter':
      return { ...addMonths(day, 3 * n), d: 1 };
    case 'year':
      return { y: day.y + n, m: 1, d: 1 };
  }
}

const UNIT = '(day|week|month|quarter|year)s?';
const MONTH_NAME = `(${MONTHS.join('|')}|${Object.keys(MONTH_SHORT).join('|')})\\.?`;
const ORDINAL = '(?:st|nd|rd|th)?';
const NUMBER_WORDS: Record<string, number> = {
  one: 1,
  two: 2,
  three: 3,
  four: 4,
  five: 5,
  six: 6,
  seven: 7,
  eight: 8,
  nine: 9,
  ten: 10,
  twelve: 12,
  thirty: 30,
  ninety: 90,
};
const COUNT = `(\\d{1,4}|${Object.keys(NUMBER_WORDS).join('|')})`;
const QUARTER_WORDS: Record<string, number> = {
  first: 1,
  second: 2,
  third: 3,
  fourth: 4,
  last: 4,
  '1st': 1,
  '2nd': 2,
  '3rd': 3,
  '4th': 4,
};

function monthNumber(word: string): number {
  const w = word.replace(/\.$/, '');
  const full = MONTHS.indexOf(w as (typeof MONTHS)[number]);
  return full >= 0 ? full + 1 : (MONTH_SHORT[w] ?? 0);
}

/**
 * A date expression at the start of `text`: a day, a month, a quarter or a year, as a range.
 * `defaultYear` fills a missing year (null: the most recent one that has begun by `today`).
 */
interface DateExpr {
  from: Day;
  to: Day;
  length: number;
  /** A day or month given without its year (a range's first end takes the second's year). */
  yearless: boolean;
}

const DATE_PATTERNS: { re: RegExp; read: (m: RegExpExecArray, today: Day) => Omit<DateExpr, 'length'> | null }[] = [
  {
    re: new RegExp(`^(\\d{4})-(\\d{1,2})-(\\d{1,2})\\b`),
    read: (m) => day(Number(m[1]), Number(m[2]), Number(m[3]), false),
  },
  {
    re: new RegExp(`^(\\d{1,2})/(\\d{1,2})/(\\d{4})\\b`),
    // Day first, as most of the world writes it, unless that cannot be a date.
    read: (m) =>
      Number(m[2]) > 12
        ? day(Number(m[3]), Number(m[1]), Number(m[2]), false)
        : day(Number(m[3]), Number(m[2]), Number(m[1]), false),
  },
  {
    re: new RegExp(`^(?:the )?(\\d{1,2})${ORDINAL} (?:of )?${MONTH_NAME}(?:,? (\\d{4}))?\\b`),
    read: (m, today) => day(m[3] ? Number(m[3]) : today.y, monthNumber(m[2]!), Number(m[1]), !m[3]),
  },
  {
    re: new RegExp(`^${MONTH_NAME} (?:the )?(\\d{1,2})${ORDINAL}(?:,? (\\d{4}))?\\b(?! ?-)`),
    read: (m, today) => day(m[3] ? Number(m[3]) : today.y, monthNumber(m[1]!), Number(m[2]), !m[3]),
  },
  {
    re: new RegExp(`^(?:q([1-4])|(first|second|third|fourth|1st|2nd|3rd|4th) quarter)(?: (?:of )?(\\d{4}))?\\b`),
    read: (m, today) => {
      const q = m[1] ? Number(m[1]) : (QUARTER_WORDS[m[2]!] ?? 1);
      let y = m[3] ? Number(m[3]) : today.y;
      if (!m[3] && (q - 1) * 3 + 1 > today.m) y -= 1;
      const from = { y, m: (q - 1) * 3 + 1, d: 1 };
      return { from, to: lastDayOfMonth(y, from.m + 2), yearless: !m[3] };
    },
  },
  {
    re: new RegExp(`^${MONTH_NAME}(?:,? (?:of )?(\\d{4}))?\\b`),
    read: (m, today) => {
      const month = monthNumber(m[1]!);
      if (!month) return null;
      // A month without a year is the latest one that has begun.
      const y = m[2] ? Number(m[2]) : month > today.m ? today.y - 1 : today.y;
      return { from: { y, m: month, d: 1 }, to: lastDayOfMonth(y, month), yearless: !m[2] };
    },
  },
  {
    re: /^((?:19|20)\d{2})\b(?!-)/,
    read: (m) => ({ from: { y: Number(m[1]), m: 1, d: 1 }, to: { y: Number(m[1]), m: 12, d: 31 }, yearless: false }),
  },
];

function day(y: number, m: number, d: number, yearless: boolean): Omit<DateExpr, 'length'> | null {
  if (m < 1 || m > 12 || d < 1 || d > lastDayOfMonth(y, m).d) return null;
  const at = { y, m, d };
  return { from: at, to: at, yearless };
}

function dateAt(text: string, today: Day): DateExpr | null {
  for (const pattern of DATE_PATTERNS) {
    const m = pattern.re.exec(text);
    if (!m) continue;
    const read = pattern.read(m, today);
    if (read) return { ...read, length: m[0].length };
  }
  return null;
}

/** The same day or month in year `y` (a range's first end takes the year of the second). */
function inYear(expr: DateExpr, y: number): DateExpr {
  const years = expr.to.y - expr.from.y;
  return { ...expr, from: { ...expr.from, y }, to: { ...expr.to, y: y + years } };
}

interface Found {
  from: Day | null;
  to: Day | null;
  length: number;
}

/** Period phrases that start at `text`'s beginning. */
function periodAt(text: string, today: Day): Found | null {
  let m: RegExpExecArray | null;
  if ((m = /^(?:today|so far today)\b/.exec(text))) return { from: today, to: today, length: m[0].length };
  if ((m = /^yesterday\b/.exec(text))) {
    const y = addDays(today, -1);
    return { from: y, to: y, length: m[0].length };
  }
  if ((m = /^(?:(year|month|quarter|week) to date|(ytd|mtd|qtd))\b/.exec(text))) {
    const unit = (m[1] ?? { ytd: 'year', mtd: 'month', qtd: 'quarter' }[m[2]!]) as Unit;
    return { from: unitOf(today, unit).from, to: today, length: m[0].length };
  }
  if (
    (m = new RegExp(
      `^(?:in |over |during |for )?(?:the )?(?:last|past|previous|recent|trailing) ${COUNT} ${UNIT}\\b`,
    ).exec(text))
  ) {
    const n = NUMBER_WORDS[m[1]!] ?? Number(m[1]);
    const unit = m[2] as Unit;
    // The n units up to and including today ('past 7 days': today and the 6 before).
    const from = unit === 'day' ? addDays(today, -(n - 1)) : addDays(shiftBack(today, unit, n), 1);
    return { from, to: today, length: m[0].length };
  }
  if (
    (m = new RegExp(
      `^(?:in |during |for |over )?(?:the )?(last|previous|past|prior|this|current|next) ${UNIT}\\b`,
    ).exec(text))
  ) {
    const unit = m[2] as Unit;
    const offset = m[1] === 'this' || m[1] === 'current' ? 0 : m[1] === 'next' ? 1 : -1;
    const range = unitOf(shift(unitOf(today, unit).from, unit, offset), unit);
    return { from: range.from, to: range.to, length: m[0].length };
  }
  if ((m = /^(?:between|from) /.exec(text))) {
    const first = dateAt(text.slice(m[0].length), today);
    if (first) {
      const rest = text.slice(m[0].length + first.length);
      const joint = /^,? (?:and|to|until|till|through|-) /.exec(rest) ?? /^ ?- ?/.exec(rest);
      if (joint) {
        const second = dateAt(rest.slice(joint[0].length), today);
        if (second) {
          const start = first.yearless && !second.yearless ? inYear(first, second.from.y) : first;
          return {
            from: start.from,
            to: second.to,
            length: m[0].length + first.length + joint[0].length + second.length,
          };
        }
      }
      if (m[0] === 'from ') return null;
    }
  }
  if ((m = /^(?:since|from|starting from|starting|after|before|until|till|up to|prior to) /.exec(text))) {
    const word = m[0].trim();
    const expr = dateAt(text.slice(m[0].length), today);
    if (!expr) return null;
    const length = m[0].length + expr.length;
    if (word === 'after') return { from: addDays(expr.to, 1), to: null, length };
    if (word === 'before' || word === 'prior to') return { from: null, to: addDays(expr.from, -1), length };
    if (word === 'until' || word === 'till' || word === 'up to') return { from: null, to: expr.to, length };
    return { from: expr.from, to: null, length };
  }
  if ((m = /^(?:in |during |on |for |of )?(?:the )?/.exec(text))) {
    const rest = text.slice(m[0].length);
    const bare = m[0].length === 0;
    // Without 'in'/'during': a lone year may be a number ('over 2000'), 'may' a verb.
    if (bare && (/^\d{4}\b(?!-)/.test(rest) || /^may\b(?! \d)/.test(rest))) return null;
    const expr = dateAt(rest, today);
    if (expr) return { from: expr.from, to: expr.to, length: m[0].length + expr.length };
  }
  return null;
}

function shiftBack(today: Day, unit: Unit, n: number): Day {
  switch (unit) {
    case 'week':
      return addDays(today, -7 * n);
    case 'month': {
      const back = addMonths({ ...today, d: 1 }, -n);
      return { ...back, d: Math.min(today.d, lastDayOfMonth(back.y, back.m).d) };
    }
    case 'quarter': {
      const back = addMonths({ ...today, d: 1 }, -3 * n);
      return { ...back, d: Math.min(today.d, lastDayOfMonth(back.y, back.m).d) };
    }
    case 'year':
      return { y: today.y - n, m: today.m, d: Math.min(today.d, lastDayOfMonth(today.y - n, today.m).d) };
    default:
      return addDays(today, -n);
  }
}

/**
 * The first period named in `text` (folded: lower case, no accents), with its place in the text.
 * Only at word starts; numbers that are not dates ('over 100') are left alone.
 */
export function findPeriod(text: string, today: Day): Period | null {
  for (let i = 0; i < text.length; i++) {
    if (i > 0 && /[a-z0-9]/.test(text[i - 1]!)) continue;
    if (!/[a-z0-9]/.test(text[i]!)) continue;
    const found = periodAt(text.slice(i), today);
    if (!found) continue;
    const label = text.slice(i, i + found.length).trim();
    return {
      from: found.from ? iso(found.from) : null,
      to: found.to ? iso(found.to) : null,
      label: label.replace(/^(?:in|during|on|for|of|over) (?:the )?/, '').replace(/^the /, ''),
      start: i,
      end: i + found.length,
    };
  }
  return null;
}

/** '2025-01-01 to 2025-03-31', 'from 2025-01-01', 'until 2025-03-31', '2025-03-01'. */
export function describeRange(period: Pick<Period, 'from' | 'to'>): string {
  if (period.from && period.to) return period.from === period.to ? period.from : `${period.from} to ${period.to}`;
  if (period.from) return `from ${period.from}`;
  return `until ${period.to ?? ''}`;
}
