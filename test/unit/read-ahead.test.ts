import { describe, expect, it } from 'vitest';
import type { ReadItem } from '../../src/server/modules/integrations/connectors/types';
import { readAhead } from '../../src/server/modules/integrations/read-ahead';

describe('readAhead', () => {
  it('yields every item in order, asking for the next one while the current is handled', async () => {
    const events: string[] = [];
    async function* source(): AsyncGenerator<ReadItem> {
      const batch: Record<string, unknown>[] = [];
      for (let i = 0; i < 3; i += 1) {
        batch.push({ i });
        events.push(`produce ${i}`);
        yield { kind: 'records', records: batch };
        batch.length = 0; // a connector reusing its array must not change what was yielded
      }
      yield { kind: 'state', state: { last: 2 } };
    }
    const seen: ReadItem[] = [];
    for await (const item of readAhead(source())) {
      events.push(`handle ${seen.length}`);
      await new Promise((r) => setTimeout(r, 5));
      seen.push(item);
    }
    expect(seen).toEqual([
      { kind: 'records', records: [{ i: 0 }] },
      { kind: 'records', records: [{ i: 1 }] },
      { kind: 'records', records: [{ i: 2 }] },
      { kind: 'state', state: { last: 2 } },
    ]);
    // Item 1 is produced before item 0 has been handled completely.
    expect(events.indexOf('produce 1')).toBeLessThan(events.indexOf('handle 1'));
  });

  it('passes a connector failure on, and closes the connector when the reader stops early', async () => {
    let closed = false;
    async function* failing(): AsyncGenerator<ReadItem> {
      yield { kind: 'records', records: [{ a: 1 }] };
      throw new Error('source broke');
    }
    await expect(async () => {
      for await (const _ of readAhead(failing())) void _;
    }).rejects.toThrow('source broke');

    async function* endless(): AsyncGenerator<ReadItem> {
      try {
        for (;;) yield { kind: 'records', records: [{ a: 1 }] };
      } finally {
        closed = true;
      }
    }
    for await (const _ of readAhead(endless())) break;
    await new Promise((r) => setTimeout(r, 10));
    expect(closed).toBe(true);
  });
});
