import { readFile } from 'node:fs/promises';
import path from 'node:path';
import avro from 'avsc';
import nodemailer from 'nodemailer';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  startEmailListener,
  type EmailAttachment,
  type EmailListener,
} from '../../../../src/server/modules/integrations/connectors/email';
import type { LogLevel } from '../../../../src/server/modules/integrations/connectors/types';
import { openTestDuckDb, type TestDuckDb } from '../../../engine/duckdb';
import { makeContext, type TestContext } from '../peers/context';

let ctx: TestContext;
let listener: EmailListener;
let received: EmailAttachment[];
let logs: { level: LogLevel; message: string; address?: string }[];
let db: TestDuckDb;

beforeAll(async () => {
  ctx = await makeContext();
  db = await openTestDuckDb();
  listener = await startEmailListener({
    port: 0,
    host: '127.0.0.1',
    domain: 'in.example.com',
    dir: ctx.tempDir,
    accepts: (address) => address.startsWith('sales-'),
    onAttachment: (a) => {
      received.push(a);
    },
    log: (level, message, address) => logs.push({ level, message, address }),
  });
});
afterAll(async () => {
  await listener.close();
  db.close();
  await ctx.cleanup();
});
beforeEach(() => {
  received = [];
  logs = [];
});
afterEach(() => undefined);

const transport = () =>
  nodemailer.createTransport({ host: '127.0.0.1', port: listener.port, secure: false, ignoreTLS: true });

async function send(to: string, attachments: { filename: string; content: Buffer | string; contentType?: string }[]) {
  return transport().sendMail({
    from: 'reports@vendor.example',
    to,
    subject: 'Daily export',
    text: 'see attached',
    attachments,
  });
}

async function rowsOf(a: EmailAttachment | undefined): Promise<Record<string, unknown>[]> {
  if (!a) throw new Error('attachment missing');
  const reader = a.format === 'csv' ? 'read_csv' : a.format === 'parquet' ? 'read_parquet' : 'read_json';
  return db.rows(`SELECT * FROM ${reader}('${a.path}')`);
}

async function parquetFile(): Promise<Buffer> {
  const file = path.join(ctx.tempDir, 'source.parquet');
  await db.exec(`COPY (SELECT 1 AS id, 'north' AS region) TO '${file}' (FORMAT parquet)`);
  return readFile(file);
}

/** Keeps values as given; registering it makes the written schema keep its logicalType attributes. */
class AsIs extends avro.types.LogicalType {
  protected override _fromValue(value: unknown) {
    return value;
  }
  protected override _toValue(value: unknown) {
    return value;
  }
}

function avroFile(): Promise<Buffer> {
  const schema = {
    type: 'record',
    name: 'Sale',
    fields: [
      { name: 'id', type: 'long' },
      { name: 'item', type: 'string' },
      { name: 'day', type: { type: 'int', logicalType: 'date' } },
      { name: 'at', type: { type: 'long', logicalType: 'timestamp-millis' } },
      { name: 'note', type: ['null', 'string'], default: null },
    ],
  };
  const type = avro.Type.forSchema(schema as Parameters<typeof avro.Type.forSchema>[0], {
    logicalTypes: { date: AsIs, 'timestamp-millis': AsIs },
  });
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    const encoder = new avro.streams.BlockEncoder(type, { codec: 'deflate' });
    encoder.on('data', (c: Buffer) => chunks.push(c));
    encoder.on('end', () => resolve(Buffer.concat(chunks)));
    encoder.on('error', reject);
    encoder.write({ id: 1, item: 'tea', day: 19_723, at: Date.UTC(2024, 0, 1, 12), note: null });
    encoder.write({ id: 2, item: 'cake', day: 19_724, at: Date.UTC(2024, 0, 2, 8), note: 'fresh' });
    encoder.end();
  });
}

describe('incoming e-mail listener with real SMTP delivery', () => {
  it('turns each data attachment into a loadable file and ignores the rest', async () => {
    await send('Sales-7f3a@in.example.com', [
      { filename: 'orders_2024-05-01.csv', content: 'id,total\n1,9.5\n2,3\n' },
      {
        filename: 'customers.json',
        content: JSON.stringify([
          { id: 1, name: 'Ann' },
          { id: 2, name: 'Bob' },
        ]),
      },
      {
        filename: 'stock.xml',
        content:
          '<?xml version="1.0"?><stock><item sku="007"><qty>5</qty><name>Tea &amp; co</name></item><item sku="008"><qty>0</qty><name>Cake</name></item></stock>',
      },
      { filename: 'regions.parquet', content: await parquetFile() },
      { filename: 'sales.avro', content: await avroFile() },
      { filename: 'report', content: 'x\n1\n', contentType: 'text/csv' },
      { filename: 'logo.png', content: Buffer.from([0x89, 0x50, 0x4e, 0x47]), contentType: 'image/png' },
    ]);

    expect(received.map((a) => [a.fileName, a.format, a.datasetName, a.address])).toEqual([
      ['orders_2024-05-01.csv', 'csv', 'orders', 'sales-7f3a'],
      ['customers.json', 'jsonl', 'customers', 'sales-7f3a'],
      ['stock.xml', 'jsonl', 'stock', 'sales-7f3a'],
      ['regions.parquet', 'parquet', 'regions', 'sales-7f3a'],
      ['sales.avro', 'jsonl', 'sales', 'sales-7f3a'],
      ['report', 'csv', 'report', 'sales-7f3a'],
    ]);
    expect(received.map((a) => path.extname(a.path))).toEqual([
      '.csv',
      '.jsonl',
      '.jsonl',
      '.parquet',
      '.jsonl',
      '.csv',
    ]);
    // DuckDB's JSON conversion prints BIGINT columns as text: '1'.
    const [csv, json, xml, parquet, avroRows, report] = await Promise.all(received.map(rowsOf));
    expect(csv).toEqual([
      { id: '1', total: 9.5 },
      { id: '2', total: 3 },
    ]);
    expect(json).toEqual([
      { id: '1', name: 'Ann' },
      { id: '2', name: 'Bob' },
    ]);
    expect(xml).toEqual([
      { sku: '007', qty: '5', name: 'Tea & co' },
      { sku: '008', qty: '0', name: 'Cake' },
    ]);
    expect(parquet).toEqual([{ id: 1, region: 'north' }]);
    expect(report).toEqual([{ x: '1' }]);
    expect(avroRows?.map((r) => [r.id, r.item, String(r.day), r.note])).toEqual([
      ['1', 'tea', '2024-01-01', null],
      ['2', 'cake', '2024-01-02', 'fresh'],
    ]);
    expect(String(avroRows?.[0]?.at)).toContain('2024-01-01');
    expect(logs).toContainEqual({
      level: 'WARN',
      message: 'Ignored attachment logo.png (image/png): not a CSV, JSON, XML, Parquet or Avro file',
      address: 'sales-7f3a',
    });
  });

  it('logs and skips an unreadable data attachment, keeping the others', async () => {
    await send('sales-1@in.example.com', [
      { filename: 'broken.json', content: '{"id": 1,' },
      { filename: 'ok.csv', content: 'a\n1\n' },
    ]);
    expect(received.map((a) => a.fileName)).toEqual(['ok.csv']);
    expect(
      logs.some((l) => l.level === 'ERROR' && l.message === 'Ignored attachment broken.json: not valid JSON'),
    ).toBe(true);
  });

  it('refuses unknown addresses and other domains at RCPT TO', async () => {
    await expect(send('someone@in.example.com', [{ filename: 'a.csv', content: 'a\n1\n' }])).rejects.toThrow(/550/);
    await expect(send('sales-1@other.example.com', [{ filename: 'a.csv', content: 'a\n1\n' }])).rejects.toThrow(/550/);
    expect(received).toEqual([]);
  });
});
