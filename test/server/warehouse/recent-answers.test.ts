import { describe, expect, it } from 'vitest';
import { RecentAnswers } from '../../../src/server/warehouse/recent-answers';

const A = 'account-a';
const B = 'account-b';
const rows = (n: number, tag = 'r') => Array.from({ length: n }, (_, i) => ({ id: i, tag }));

describe('recent answers', () => {
  it('serves an answer only under the version it was made at, and only to its account', () => {
    const answers = new RecentAnswers({ maxEntries: 10, maxRows: 100 });
    answers.put(A, 'static.t_1', 3, 'q', rows(2));
    expect(answers.get(A, 'static.t_1', 3, 'q')).toEqual(rows(2));
    expect(answers.get(B, 'static.t_1', 3, 'q')).toBeUndefined();
    expect(answers.get(A, 'static.t_1', 3, 'other query')).toBeUndefined();
    // A write moved the version on: the old answer is gone for good.
    expect(answers.get(A, 'static.t_1', 4, 'q')).toBeUndefined();
    expect(answers.get(A, 'static.t_1', 3, 'q')).toBeUndefined();
    expect(answers.stats).toEqual({ hits: 1, misses: 4 });
    expect(answers.size).toEqual({ entries: 0, rows: 0 });
  });

  it('drops every answer of a relation when it is written, and nothing else', () => {
    const answers = new RecentAnswers({ maxEntries: 10, maxRows: 100 });
    answers.put(A, 'static.t_1', 0, 'page 1', rows(2));
    answers.put(A, 'static.t_1', 0, 'count', rows(1));
    answers.put(A, 'static.t_2', 0, 'page 1', rows(3));
    answers.put(B, 'static.t_1', 0, 'page 1', rows(4));
    answers.relationChanged(A, 'static.t_1');
    expect(answers.size).toEqual({ entries: 2, rows: 7 });
    expect(answers.get(A, 'static.t_2', 0, 'page 1')).toHaveLength(3);
    expect(answers.get(B, 'static.t_1', 0, 'page 1')).toHaveLength(4);
  });

  it('keeps at most maxEntries answers and maxRows rows, dropping the least recently used', () => {
    const answers = new RecentAnswers({ maxEntries: 3, maxRows: 10 });
    answers.put(A, 'r', 0, 'q1', rows(2));
    answers.put(A, 'r', 0, 'q2', rows(2));
    answers.put(A, 'r', 0, 'q3', rows(2));
    answers.get(A, 'r', 0, 'q1'); // q2 is now the least recently used
    answers.put(A, 'r', 0, 'q4', rows(2));
    expect(answers.get(A, 'r', 0, 'q2')).toBeUndefined();
    expect(answers.size).toEqual({ entries: 3, rows: 6 });
    // Rows over the budget push out the oldest until it fits; an answer bigger than all of it is not kept.
    answers.put(A, 'r', 0, 'q5', rows(7));
    expect(answers.size).toEqual({ entries: 2, rows: 9 });
    expect(answers.get(A, 'r', 0, 'q5')).toHaveLength(7);
    answers.put(A, 'r', 0, 'q6', rows(11));
    expect(answers.get(A, 'r', 0, 'q6')).toBeUndefined();
  });

  it('hands out frozen rows, so no caller can change what the next one is served', () => {
    const answers = new RecentAnswers({ maxEntries: 2, maxRows: 10 });
    answers.put(A, 'r', 0, 'q', rows(1));
    const served = answers.get(A, 'r', 0, 'q');
    expect(Object.isFrozen(served)).toBe(true);
    expect(Object.isFrozen(served?.[0])).toBe(true);
  });

  it('keeps nothing when turned off', () => {
    const answers = new RecentAnswers({ maxEntries: 0, maxRows: 0 });
    answers.put(A, 'r', 0, 'q', rows(1));
    expect(answers.get(A, 'r', 0, 'q')).toBeUndefined();
  });
});
