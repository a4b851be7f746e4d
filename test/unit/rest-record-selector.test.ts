import { describe, expect, it } from 'vitest';
import { selectRecords } from '../../src/server/modules/integrations/connectors/rest-api/selector';

describe('REST API record selector', () => {
  it('takes the records of an array, a wildcard over an array or over an object, wrapping plain values', () => {
    const body = { data: [{ id: 1 }, { id: 2 }], byKey: { a: { id: 3 }, b: 4 } };
    expect(selectRecords(body, 'data')).toEqual([{ id: 1 }, { id: 2 }]);
    expect(selectRecords(body, 'data[*]')).toEqual([{ id: 1 }, { id: 2 }]);
    expect(selectRecords(body, 'byKey[*]')).toEqual([{ id: 3 }, { value: 4 }]);
  });

  it('takes an answer of 200,000 records through a wildcard (spreading them overflowed the call stack)', () => {
    const data = Array.from({ length: 200_000 }, (_, i) => ({ id: i }));
    expect(selectRecords({ data }, 'data[*]')).toHaveLength(200_000);
    const byKey = Object.fromEntries(data.map((record) => [`k${record.id}`, record]));
    expect(selectRecords({ byKey }, 'byKey[*]')).toHaveLength(200_000);
  });
});
