import { describe, expect, it } from 'vitest';
import { newTimeOrderedId } from '../../src/server/db/ids';

describe('newTimeOrderedId', () => {
  it('makes unique UUID-shaped ids that sort in creation order, also within one millisecond', () => {
    const ids = Array.from({ length: 2_000 }, () => newTimeOrderedId());
    expect(new Set(ids).size).toBe(ids.length);
    expect([...ids].sort()).toEqual(ids);
    for (const id of ids.slice(0, 20))
      expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  });
});
