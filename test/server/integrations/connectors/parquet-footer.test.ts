/**
 * The Parquet footer reader (connectors/parquet/thrift-compact.ts) reads files anyone may send (an
 * e-mail attachment, a file on an SFTP server): a crafted footer must fail at once, never loop on
 * sizes it does not hold or build numbers from endless bytes, and a footer that does not read is
 * left to DuckDB (exactParquet changes nothing).
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { exactParquet } from '../../../../src/server/modules/integrations/connectors/parquet/exact-parquet';
import {
  T,
  readStruct,
  writeStruct,
  type ThriftField,
} from '../../../../src/server/modules/integrations/connectors/parquet/thrift-compact';

/** Field 1 of a struct, of `type`, with `body` after its header. */
const field1 = (type: number, ...body: number[]) => Uint8Array.from([(1 << 4) | type, ...body]);
describe('the Parquet footer reader', () => {
  it('refuses a map of booleans claiming billions of entries at once (each entry takes two bytes)', () => {
    const footer = field1(T.MAP, 0xff, 0xff, 0xff, 0xff, 0x0f, (T.TRUE << 4) | T.TRUE, T.TRUE, T.FALSE, 0);
    expect(() => readStruct(footer)).toThrow('ends early');
  });

  it('refuses lists longer than the bytes left, and numbers longer than 64 bits', () => {
    expect(() => readStruct(field1(T.LIST, 0xf0 | T.I32, 0xff, 0xff, 0xff, 0xff, 0x0f, 2, 0))).toThrow('ends early');
    const endless = new Uint8Array(200_000).fill(0xff);
    endless[0] = (1 << 4) | T.I64;
    expect(() => readStruct(endless)).toThrow('longer than 64 bits');
  });

  it('refuses structs nested deeper than any footer', () => {
    const deep = new Uint8Array(100_000).fill((1 << 4) | T.STRUCT);
    expect(() => readStruct(deep)).toThrow('nests deeper');
  });

  it('reads and writes booleans in lists and maps as a byte each, so a footer reads back as written', () => {
    const fields: ThriftField[] = [
      {
        id: 1,
        type: T.MAP,
        value: {
          keyType: T.TRUE,
          valueType: T.I32,
          entries: [
            [true, 5n],
            [false, -3n],
          ],
        },
      },
      { id: 2, type: T.LIST, value: { elementType: T.TRUE, items: [true, false, true] } },
      { id: 3, type: T.TRUE, value: true },
    ];
    expect(readStruct(writeStruct(fields))).toEqual(fields);
  });

  it('leaves a file whose footer does not read to DuckDB, unchanged', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'footer-'));
    try {
      const file = path.join(dir, 'crafted.parquet');
      const footer = field1(T.MAP, 0xff, 0xff, 0xff, 0xff, 0x0f, (T.TRUE << 4) | T.TRUE, 0);
      const length = Buffer.alloc(4);
      length.writeUInt32LE(footer.length);
      const bytes = Buffer.concat([Buffer.from('PAR1'), Buffer.from(footer), length, Buffer.from('PAR1')]);
      await writeFile(file, bytes);
      expect(await exactParquet(file)).toEqual([]);
      expect(await readFile(file)).toEqual(bytes);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
