import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RELATIVE_TIME_LABELS, relativeTimeLabel, type RelativeTimeLabel } from '../../src/shared/relative-time';

/** A local date-time; months are 1-based here to read like a calendar. */
function at(year: number, month: number, day: number, hour = 0, minute = 0, second = 0, ms = 0): Date {
  return new Date(year, month - 1, day, hour, minute, second, ms);
}

describe('relativeTimeLabel', () => {
  // Thursday 18 June 2026, noon: this week began Monday 15 June.
  const now = at(2026, 6, 18, 12);

  const cases: Array<[string, Date, RelativeTimeLabel | null]> = [
    ['now', now, 'Today'],
    ['30 s ahead (clock skew)', new Date(now.getTime() + 30_000), 'Today'],
    ['midnight today', at(2026, 6, 18), 'Today'],
    ['last ms of yesterday', at(2026, 6, 17, 23, 59, 59, 999), 'Yesterday'],
    ['midnight yesterday', at(2026, 6, 17), 'Yesterday'],
    ['Tuesday', at(2026, 6, 16, 23, 59), 'This week'],
    ['Monday midnight', at(2026, 6, 15), 'This week'],
    ['last ms of last Sunday', at(2026, 6, 14, 23, 59, 59, 999), 'Last week'],
    ['Monday of last week', at(2026, 6, 8), 'Last week'],
    ['Sunday before last', at(2026, 6, 7, 23, 59), 'This month'],
    ['first of the month', at(2026, 6, 1), 'This month'],
    ['last ms of May', at(2026, 5, 31, 23, 59, 59, 999), 'Last month'],
    ['first of May', at(2026, 5, 1), 'Last month'],
    ['end of April', at(2026, 4, 30, 23, 59), 'This year'],
    ['New Year', at(2026, 1, 1), 'This year'],
    ['New Year’s Eve before', at(2025, 12, 31, 23, 59, 59, 999), 'Last year'],
    ['start of last year', at(2025, 1, 1), 'Last year'],
    ['two years ago', at(2024, 12, 31, 23, 59, 59, 999), null],
    ['2 minutes ahead', new Date(now.getTime() + 120_000), null],
  ];

  it.each(cases)('%s', (_name, date, label) => {
    expect(relativeTimeLabel(date, now)).toBe(label);
  });

  it('produces every label of the spec, listed nearest first', () => {
    expect(RELATIVE_TIME_LABELS).toEqual([
      'Today',
      'Yesterday',
      'This week',
      'Last week',
      'This month',
      'Last month',
      'This year',
      'Last year',
    ]);
    const produced = new Set(cases.map(([, date]) => relativeTimeLabel(date, now)).filter((l) => l !== null));
    expect([...produced]).toEqual([...RELATIVE_TIME_LABELS]);
  });

  it('prefers Yesterday on a Monday, and starts weeks on Monday when today is Sunday', () => {
    const monday = at(2026, 6, 15, 9);
    expect(relativeTimeLabel(at(2026, 6, 14, 8), monday)).toBe('Yesterday');
    expect(relativeTimeLabel(at(2026, 6, 13, 8), monday)).toBe('Last week');
    const sunday = at(2026, 6, 21, 9);
    expect(relativeTimeLabel(at(2026, 6, 15), sunday)).toBe('This week');
    expect(relativeTimeLabel(at(2026, 6, 14, 23), sunday)).toBe('Last week');
  });

  it('lets a week reach back into the previous month and year', () => {
    const wednesdayFirst = at(2026, 7, 1, 10);
    expect(relativeTimeLabel(at(2026, 6, 29, 10), wednesdayFirst)).toBe('This week');
    expect(relativeTimeLabel(at(2026, 6, 22), wednesdayFirst)).toBe('Last week');
    expect(relativeTimeLabel(at(2026, 6, 21, 23), wednesdayFirst)).toBe('Last month');

    const newYear = at(2026, 1, 1, 10);
    expect(relativeTimeLabel(at(2025, 12, 31, 22), newYear)).toBe('Yesterday');
    expect(relativeTimeLabel(at(2025, 12, 29), newYear)).toBe('This week');
    expect(relativeTimeLabel(at(2025, 12, 2), newYear)).toBe('Last month');
    expect(relativeTimeLabel(at(2025, 11, 30), newYear)).toBe('Last year');
  });

  it('defaults now to the current time', () => {
    expect(relativeTimeLabel(new Date())).toBe('Today');
  });
});

describe('relativeTimeLabel across a daylight-saving change', () => {
  const savedTz = process.env.TZ;
  beforeAll(() => {
    process.env.TZ = 'Europe/Berlin';
  });
  afterAll(() => {
    if (savedTz === undefined) delete process.env.TZ;
    else process.env.TZ = savedTz;
  });

  it('runs in a zone with daylight saving', () => {
    // 29 March 2026 has 23 hours in Berlin; without that the cases below prove nothing.
    expect(at(2026, 3, 30).getTime() - at(2026, 3, 29).getTime()).toBe(23 * 3_600_000);
  });

  it('counts calendar days after the clocks go forward', () => {
    const monday = at(2026, 3, 30, 10);
    expect(relativeTimeLabel(at(2026, 3, 29, 0, 30), monday)).toBe('Yesterday');
    expect(relativeTimeLabel(at(2026, 3, 28, 23, 30), monday)).toBe('Last week');
    const tuesday = at(2026, 3, 31, 10);
    expect(relativeTimeLabel(at(2026, 3, 23, 0, 30), tuesday)).toBe('Last week');
    expect(relativeTimeLabel(at(2026, 3, 22, 23, 30), tuesday)).toBe('This month');
  });

  it('counts calendar days after the clocks go back', () => {
    const monday = at(2026, 10, 26, 10);
    expect(relativeTimeLabel(at(2026, 10, 25, 0, 30), monday)).toBe('Yesterday');
    expect(relativeTimeLabel(at(2026, 10, 24, 23, 30), monday)).toBe('Last week');
    expect(relativeTimeLabel(at(2026, 10, 19, 0, 30), monday)).toBe('Last week');
  });
});
