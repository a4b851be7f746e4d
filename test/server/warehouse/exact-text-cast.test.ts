/**
 * Text read into a typed column exactly or not at all (exact-text-cast.ts), on real DuckDB: each
 * value either becomes the value it writes, or NULL, never another value.
 */
import { describe, expect, it } from 'vitest';
import { exactCastFromText, exactConversion } from '../../../src/server/warehouse/exact-text-cast';
import { makeWarehouse } from './helpers';

const ACCOUNT = '66666666-6666-4666-8666-666666666666';

/** Each text read as `type`, rendered as text (null where it does not fit). */
async function read(type: string, texts: string[]): Promise<(string | null)[]> {
  const { warehouse } = makeWarehouse();
  const executor = warehouse.forAccount(ACCOUNT);
  const values = texts.map((_, i) => `(${i}, CAST($${i + 1} AS VARCHAR))`).join(', ');
  const rows = await executor.all({
    sql: `SELECT CAST(${exactCastFromText('v', type)} AS VARCHAR) AS r FROM (VALUES ${values}) AS t(i, v) ORDER BY i`,
    parameters: texts,
  });
  return rows.map((r) => (r.r === null ? null : String(r.r)));
}

describe('exactCastFromText', () => {
  it('reads whole numbers only as the type writes them back', async () => {
    expect(
      await read('BIGINT', ['42', ' 42 ', '007', '+5', '1.5', '1.0', '-0', '1e3', '1_000', '9223372036854775808']),
    ).toEqual(['42', '42', null, null, null, null, null, null, null, null]);
  });

  it('reads decimals with no more digits after the point than the type keeps', async () => {
    expect(
      await read('DECIMAL(18,2)', ['0.13', '0.125', '1.500', '.5', '5.', '007', '-0.5', '1e2', '12345678901234567.5']),
    ).toEqual(['0.13', null, '1.50', '0.50', '5.00', null, '-0.50', null, null]);
  });

  it('reads doubles only when a double gives the number back', async () => {
    expect(await read('DOUBLE', ['1.5', '0.1', '9007199254740993', '007', '1e400', 'inf', 'abc'])).toEqual([
      '1.5',
      '0.1',
      null,
      null,
      null,
      'inf',
      null,
    ]);
  });

  it('reads booleans in the spellings a CSV import reads', async () => {
    expect(await read('BOOLEAN', ['true', 'FALSE', 'yes', 'no', 't', 'F', 'y', '1', 'on'])).toEqual([
      'true',
      'false',
      'true',
      'false',
      'true',
      'false',
      null,
      null,
      null,
    ]);
  });

  it('reads dates and date-times without dropping a time, an offset, a digit or an era', async () => {
    expect(await read('DATE', ['2024-01-05', '2024-01-05 10:30', '2023-02-29', '0044-03-15 BC', 'Jan 1 2000'])).toEqual(
      ['2024-01-05', null, null, '0044-03-15 (BC)', null],
    );
    expect(
      await read('TIMESTAMP', [
        '2024-01-05 10:00:00',
        '2024-01-05T10:00:00+02:00',
        '2024-01-05 10:00:00.123456',
        '2024-01-05 10:00:00.123456789',
        '2024-01-05 10:00:00.1234560',
        '2024-01-05',
        '10:00',
      ]),
    ).toEqual([
      '2024-01-05 10:00:00',
      '2024-01-05 08:00:00',
      '2024-01-05 10:00:00.123456',
      null,
      '2024-01-05 10:00:00.123456',
      '2024-01-05 00:00:00',
      null,
    ]);
    expect(
      await read('TIMESTAMP WITH TIME ZONE', ['2024-01-05T10:00:00+02:00', '2024-01-05T10:00:00.123456789Z']),
    ).toEqual(['2024-01-05 08:00:00+00', null]);
    expect(
      await read('TIMESTAMP_NS', ['2024-01-05 10:00:00.123456789', '2024-01-05T10:00:00.123456789+02:00']),
    ).toEqual(['2024-01-05 10:00:00.123456789', null]);
  });

  it('converts typed values only when they convert and back unchanged', async () => {
    const { warehouse } = makeWarehouse();
    const executor = warehouse.forAccount(ACCOUNT);
    const [row] = await executor.all({
      sql:
        `SELECT ${exactConversion('1.5::DOUBLE', 'DOUBLE', 'BIGINT')} AS a, ` +
        `${exactConversion('3.0::DOUBLE', 'DOUBLE', 'BIGINT')} AS b, ` +
        `${exactConversion("TIMESTAMP '2024-01-05 10:30:00'", 'TIMESTAMP', 'DATE')} AS c, ` +
        `CAST(${exactConversion("'007'", 'VARCHAR', 'BIGINT')} AS VARCHAR) AS d`,
      parameters: [],
    });
    expect(row).toEqual({ a: null, b: 3, c: null, d: null });
  });
});
