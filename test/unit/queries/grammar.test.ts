/** The grammar's constructs, periods with a fixed today, ambiguity and plain refusals. */
import { beforeAll, afterAll, describe, expect, it } from 'vitest';
import { understand } from '../../../src/server/modules/queries/grammar';
import { findPeriod, localDate } from '../../../src/server/modules/queries/periods';
import { openQuestionData, NOW, type QuestionData } from '../../queries/fixture';

const today = localDate(NOW);
const period = (text: string) => {
  const p = findPeriod(text, today);
  return p ? [p.from, p.to] : null;
};

describe('periods relative to today (2025-06-15, a Sunday)', () => {
  it.each([
    ['last month', ['2025-05-01', '2025-05-31']],
    ['this year', ['2025-01-01', '2025-12-31']],
    ['q3 2025', ['2025-07-01', '2025-09-30']],
    ['q3', ['2024-07-01', '2024-09-30']],
    ['since january', ['2025-01-01', null]],
    ['between 1 march and 15 april 2025', ['2025-03-01', '2025-04-15']],
    ['past 7 days', ['2025-06-09', '2025-06-15']],
    ['yesterday', ['2025-06-14', '2025-06-14']],
    ['last quarter', ['2025-01-01', '2025-03-31']],
    ['last week', ['2025-06-02', '2025-06-08']],
    ['in march', ['2025-03-01', '2025-03-31']],
    ['in september', ['2024-09-01', '2024-09-30']],
    ['before 2024-07-01', [null, '2024-06-30']],
  ])('%s', (text, expected) => {
    expect(period(text)).toEqual(expected);
  });

  it('leaves numbers that are not dates alone', () => {
    expect(findPeriod('orders over 2000', today)).toBeNull();
    expect(findPeriod('between 10 and 20', today)).toBeNull();
  });

  it('reads today in the user time zone', () => {
    expect(localDate(new Date('2025-06-15T23:30:00Z'), 'Asia/Tokyo')).toEqual({ y: 2025, m: 6, d: 16 });
  });
});

describe('grammar', () => {
  let data: QuestionData;
  beforeAll(async () => {
    data = await openQuestionData();
  });
  afterAll(() => data.db.close());
  const read = (q: string) => understand(q, data.catalogue, { today: NOW });

  it('says how it read a sum by month over a period', () => {
    const u = read('total amount by month last quarter');
    expect(u.kind).toBe('query');
    if (u.kind !== 'query') return;
    expect(u.query.reading).toBe(
      'Sum of amount by Month of ordered_at, ordered_at in last quarter (2025-01-01 to 2025-03-31), from orders',
    );
    expect(u.query.groupBy).toEqual([{ column: 'ordered_at', grain: 'month' }]);
  });

  it('counts, filters on named values and comparisons', () => {
    const u = read('how many cancelled orders over 100');
    if (u.kind !== 'query') throw new Error(JSON.stringify(u));
    expect(u.query.measures).toEqual([{ function: 'Count', column: null }]);
    expect(u.query.filters).toEqual([
      { column: 'status', operator: 'Equals', value: 'cancelled', value2: null },
      { column: 'amount', operator: 'GreaterThan', value: 100, value2: null },
    ]);
  });

  it('top N by a measure', () => {
    const u = read('top 3 cities by number of customers');
    if (u.kind !== 'query') throw new Error(JSON.stringify(u));
    expect(u.query.limit).toBe(3);
    expect(u.query.sort).toMatchObject({ by: 'measure', index: 0, direction: 'Descending' });
    expect(u.query.groupBy).toEqual([{ column: 'city', grain: null }]);
  });

  it('asks back with full questions when a word means columns of several tables', () => {
    const u = read('average unit price');
    expect(u.kind).toBe('ambiguous');
    if (u.kind !== 'ambiguous') return;
    expect(u.suggestions).toEqual(['average unit price in products', 'average unit price in orders']);
    for (const s of u.suggestions) expect(read(s).kind).toBe('query');
  });

  it('reads the most, the N cheapest, and ids named with a number', () => {
    const most = read('which channel has the most orders');
    if (most.kind !== 'query') throw new Error(JSON.stringify(most));
    expect(most.query).toMatchObject({ groupBy: [{ column: 'channel' }], limit: 1, sort: { by: 'measure' } });
    const cheapest = read('5 cheapest products');
    if (cheapest.kind !== 'query') throw new Error(JSON.stringify(cheapest));
    expect(cheapest.query).toMatchObject({
      measures: [],
      limit: 5,
      sort: { by: 'column', column: 'unit_price', direction: 'Ascending' },
    });
    const id = read('orders for product 12');
    if (id.kind !== 'query') throw new Error(JSON.stringify(id));
    expect(id.query.filters).toEqual([{ column: 'product_id', operator: 'Equals', value: 12, value2: null }]);
  });

  it('reads the group with the highest average, and empty cells', () => {
    const best = read('which office has the highest average salary');
    if (best.kind !== 'query') throw new Error(JSON.stringify(best));
    expect(best.query.reading).toBe('Average of salary by office, top 1 by Average of salary, from employees');
    const empty = read('tickets with no assignee');
    if (empty.kind !== 'query') throw new Error(JSON.stringify(empty));
    expect(empty.query.filters).toEqual([{ column: 'assignee', operator: 'Empty', value: null, value2: null }]);
  });

  it('says plainly which calculation it cannot make, rather than answering another', () => {
    const u = read('what percentage of orders were cancelled');
    expect(u).toEqual({ kind: 'unknown', text: expect.stringContaining('I cannot calculate a percentage yet') });
  });

  it('says plainly what it could not find', () => {
    const u = read('how many invoices were paid');
    expect(u).toEqual({ kind: 'unknown', text: expect.stringContaining("I could not find 'invoices'") });
  });
});
