/**
 * Push sources keep every value exactly: webhook bodies (read with exact numbers, typed per call,
 * columns widened exactly when a later call needs it) and e-mail attachments (CSV decimals, JSON
 * with 19-digit ids and 20-digit decimals, Avro longs, decimals and microsecond timestamps).
 */
import fs from 'node:fs';
import path from 'node:path';
import avro from 'avsc';
import { describe, expect, it } from 'vitest';
import { storeAttachment } from '../../../../src/server/modules/integrations/connectors/email/attachments';
import { listen, makeApp, signIn, type TestApp } from '../../helpers';
import { api, createIntegration, definitionNamed, logsOf, ok, type Integration, type Job } from '../helpers';
import type { Paged } from '../../../../src/shared/tables';
import { apiRows, warehouseTypes } from './exports';

async function push(t: TestApp, cookie: string, definitionName: string, schema: string) {
  const definition = await definitionNamed(t, cookie, definitionName);
  return ok(
    await createIntegration(t, cookie, { integrationDefinitionId: definition.id, name: schema, schemaName: schema }),
    201,
  );
}

async function accountOf(t: TestApp, integrationId: string): Promise<string> {
  const row = await t.deps.db
    .selectFrom('integrations')
    .select('account_id')
    .where('id', '=', integrationId)
    .executeTakeFirstOrThrow();
  return String(row.account_id);
}

async function datasetId(t: TestApp, cookie: string, integrationId: string, name: string): Promise<string> {
  const detail = ok(await api<Integration>(t, cookie, 'GET', `/api/integrations/${integrationId}`));
  return detail.datasets.find((d) => d.name === name)!.id;
}

/** A logical type written as its underlying value, its attributes (precision, scale) kept in the file's schema. */
class Passthrough extends avro.types.LogicalType {
  private readonly attributes: Record<string, unknown>;
  constructor(schema: avro.Schema, opts?: object) {
    super(schema, opts);
    const { precision, scale } = schema as { precision?: number; scale?: number };
    this.attributes = { precision, scale };
  }
  protected override _fromValue(value: unknown): unknown {
    return value;
  }
  protected override _toValue(value: unknown): unknown {
    return value;
  }
  protected override _export(schema: avro.Schema): void {
    const attrs = schema as unknown as Record<string, unknown>;
    for (const [key, value] of Object.entries(this.attributes)) if (value !== undefined) attrs[key] = value;
  }
}

describe('push sources keep every value exactly', () => {
  it('webhook: 19-digit ids, 20-digit decimals and JSON numbers stay exact; later calls widen columns exactly', async () => {
    const t = await makeApp();
    const cookie = await signIn(t, 'owner@example.com');
    const hook = await push(t, cookie, 'Webhook', 'hooks');
    const base = await listen(t);
    const post = async (body: string) => {
      const res = await fetch(`${base}${hook.webhookUrl}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body,
      });
      expect(res.status, await res.clone().text()).toBe(200);
    };
    await post(
      '[{"id": 1234567890123456789, "amount": 99999999999999.999999, "price": 19.99, "meta": {"big": 12345678901234567890123, "x": 1.50}, "tags": [1, 9223372036854775807], "day": "2024-02-29"},' +
        ' {"id": 1234567890123456790, "amount": 204142800000.079190, "price": 3, "meta": null, "tags": [], "day": "2024-03-01"}]',
    );
    const types = await warehouseTypes(t, await accountOf(t, hook.id), 'hooks', 'records');
    expect(types).toEqual({
      id: 'BIGINT',
      amount: 'DECIMAL(38,6)',
      price: 'DOUBLE',
      meta: 'JSON',
      tags: 'BIGINT[]',
      day: 'DATE',
    });
    // Later calls: an id beyond 64 bits, a price with more digits than a double, a day that is not one.
    await post('{"id": 123456789012345678901234567890, "amount": 1, "price": 0.30000000000000000001, "day": "soon"}');
    expect(await warehouseTypes(t, await accountOf(t, hook.id), 'hooks', 'records')).toEqual({
      id: 'DECIMAL(38,0)',
      amount: 'DECIMAL(38,6)',
      price: 'VARCHAR',
      meta: 'JSON',
      tags: 'BIGINT[]',
      day: 'VARCHAR',
    });
    const rows = await apiRows(t, cookie, await datasetId(t, cookie, hook.id, 'records'), 'id');
    expect(rows.map((r) => [String(r.id), String(r.amount), String(r.price), r.day])).toEqual([
      ['1234567890123456789', '99999999999999.999999', '19.99', '2024-02-29'],
      ['1234567890123456790', '204142800000.079190', '3', '2024-03-01'],
      ['123456789012345678901234567890', '1', '0.30000000000000000001', 'soon'],
    ]);
    expect(rows[0]?.meta).toEqual({ big: '12345678901234567890123', x: 1.5 });
    expect(rows[0]?.tags).toEqual([1, '9223372036854775807']);
  });

  it('webhook: a column that becomes text keeps each value as the grid showed it (1, not 1.0), and the log says so', async () => {
    const t = await makeApp();
    const cookie = await signIn(t, 'owner@example.com');
    const hook = await push(t, cookie, 'Webhook', 'hooks');
    const base = await listen(t);
    const post = async (body: string) => {
      const res = await fetch(`${base}${hook.webhookUrl}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body,
      });
      expect(res.status, await res.clone().text()).toBe(200);
    };
    await post('{"id": 1, "x": 1.5, "day": "2024-02-29", "meta": {"a": 1}}');
    await post('{"id": 2, "x": 2, "day": "2024-03-01", "meta": {"a": 2}}');
    expect(await warehouseTypes(t, await accountOf(t, hook.id), 'hooks', 'records')).toMatchObject({
      x: 'DOUBLE',
      day: 'DATE',
      meta: 'JSON',
    });
    await post('{"id": 3, "x": "n/a", "day": "soon", "meta": "none"}');
    expect(await warehouseTypes(t, await accountOf(t, hook.id), 'hooks', 'records')).toMatchObject({
      x: 'VARCHAR',
      day: 'VARCHAR',
      meta: 'VARCHAR',
    });
    const rows = await apiRows(t, cookie, await datasetId(t, cookie, hook.id, 'records'), 'id');
    expect(rows.map((r) => [r.id, r.x, r.day, r.meta])).toEqual([
      [1, '1.5', '2024-02-29', '{"a":1}'],
      [2, '2', '2024-03-01', '{"a":2}'],
      [3, 'n/a', 'soon', 'none'],
    ]);
    const runs = ok(await api<Paged<Job>>(t, cookie, 'GET', `/api/integrations/${hook.id}/jobs?Page=1&PageSize=50`));
    const lines = (await Promise.all(runs.data.map((r) => logsOf(t, cookie, hook.id, r.id)))).flat().map((l) => l.line);
    expect(lines.filter((l) => l.startsWith('[WARN]')).sort()).toEqual([
      '[WARN] records: Column day is stored as DATE but the source now gives VARCHAR; it is kept as exact text.',
      '[WARN] records: Column meta is stored as JSON but the source now gives VARCHAR; it is kept as exact text.',
      '[WARN] records: Column x is stored as DOUBLE but the source now gives VARCHAR; it is kept as exact text.',
    ]);
  });

  it('webhook: lists of other elements in a later call make the column JSON, every list exact', async () => {
    const t = await makeApp();
    const cookie = await signIn(t, 'owner@example.com');
    const hook = await push(t, cookie, 'Webhook', 'hooks');
    const base = await listen(t);
    for (const body of [
      '{"id": 1, "tags": [1, 9223372036854775807]}',
      '{"id": 2, "tags": ["a", ""]}',
      '{"id": 3, "tags": [1.50, true]}',
    ]) {
      const res = await fetch(`${base}${hook.webhookUrl}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body,
      });
      expect(res.status, await res.clone().text()).toBe(200);
    }
    expect(await warehouseTypes(t, await accountOf(t, hook.id), 'hooks', 'records')).toMatchObject({ tags: 'JSON' });
    const rows = await apiRows(t, cookie, await datasetId(t, cookie, hook.id, 'records'), 'id');
    expect(rows.map((r) => r.tags)).toEqual([
      [1, '9223372036854775807'],
      ['a', ''],
      [1.5, true],
    ]);
  });

  it('e-mail: CSV, JSON and Avro attachments keep big integers, decimals and microseconds', async () => {
    const t = await makeApp();
    const cookie = await signIn(t, 'owner@example.com');
    const inbox = await push(t, cookie, 'Incoming e-mail', 'inbox');
    const dir = path.join(t.dataDir, 'mail-test');
    fs.mkdirSync(dir, { recursive: true });
    const receive = async (fileName: string, kind: 'csv' | 'json' | 'avro', content: Uint8Array) => {
      const stored = await storeAttachment(dir, fileName, kind, content);
      return t.services.integrations.receiveAttachment({
        address: inbox.emailAddress!,
        fileName,
        contentType: 'application/octet-stream',
        path: stored.path,
        format: stored.format,
      });
    };

    expect(
      await receive('sums.csv', 'csv', Buffer.from('id,amount,label\n1,99999999999999.999999,""\n2,0.1,\n')),
    ).toMatchObject({ stored: true, rows: 2 });
    expect(
      await receive(
        'ids.json',
        'json',
        Buffer.from(
          '[{"id": 1234567890123456789, "amount": 0.30000000000000000001}, {"id": 9007199254740993, "amount": 2}]',
        ),
      ),
    ).toMatchObject({ stored: true, rows: 2 });

    const longType = avro.types.LongType.__with({
      fromBuffer: (b: Buffer) => b.readBigInt64LE(),
      toBuffer: (n: bigint) => {
        const b = Buffer.alloc(8);
        b.writeBigInt64LE(n);
        return b;
      },
      fromJSON: BigInt,
      toJSON: Number,
      isValid: (n: unknown) => typeof n === 'bigint',
      compare: (a: bigint, b: bigint) => (a === b ? 0 : a < b ? -1 : 1),
    });
    const type = avro.Type.forSchema(
      {
        type: 'record',
        name: 'Row',
        fields: [
          { name: 'id', type: 'long' },
          { name: 'amount', type: { type: 'bytes', logicalType: 'decimal', precision: 20, scale: 6 } },
          { name: 'at', type: { type: 'long', logicalType: 'timestamp-micros' } },
        ],
      },
      // Logical types the writer knows, so the file's schema names them (as real writers do).
      { registry: { long: longType }, logicalTypes: { decimal: Passthrough, 'timestamp-micros': Passthrough } },
    );
    // An Avro container file in memory: 99999999999999.999999 as its unscaled two's complement
    // bytes, 2024-01-01T10:00:00.123456Z in microseconds.
    const avroBytes = await new Promise<Buffer>((resolve, reject) => {
      const encoder = new avro.streams.BlockEncoder(type);
      const chunks: Buffer[] = [];
      encoder.on('data', (chunk: Buffer) => chunks.push(chunk));
      encoder.on('end', () => resolve(Buffer.concat(chunks)));
      encoder.on('error', reject);
      const hex = 99999999999999999999n.toString(16).padStart(18, '0');
      encoder.end({ id: 1234567890123456789n, amount: Buffer.from(hex, 'hex'), at: 1704103200123456 });
    });
    expect(await receive('events.avro', 'avro', avroBytes)).toMatchObject({ stored: true, rows: 1 });

    const account = await accountOf(t, inbox.id);
    expect(await warehouseTypes(t, account, 'inbox', 'sums')).toEqual({
      id: 'BIGINT',
      amount: 'DECIMAL(38,6)',
      label: 'VARCHAR',
    });
    expect(await warehouseTypes(t, account, 'inbox', 'ids')).toEqual({ id: 'BIGINT', amount: 'DECIMAL(38,20)' });
    expect(await warehouseTypes(t, account, 'inbox', 'events')).toEqual({
      id: 'BIGINT',
      amount: 'DECIMAL(38,6)',
      at: 'TIMESTAMP WITH TIME ZONE',
    });
    const sums = await apiRows(t, cookie, await datasetId(t, cookie, inbox.id, 'sums'), 'id');
    expect(sums.map((r) => [r.id, String(r.amount), r.label])).toEqual([
      [1, '99999999999999.999999', ''],
      [2, '0.1', null],
    ]);
    const ids = await apiRows(t, cookie, await datasetId(t, cookie, inbox.id, 'ids'), 'id');
    expect(ids.map((r) => [String(r.id), String(r.amount)])).toEqual([
      ['9007199254740993', '2'],
      ['1234567890123456789', '0.30000000000000000001'],
    ]);
    const events = await apiRows(t, cookie, await datasetId(t, cookie, inbox.id, 'events'), 'id');
    expect(events.map((r) => [String(r.id), String(r.amount), r.at])).toEqual([
      ['1234567890123456789', '99999999999999.999999', '2024-01-01T10:00:00.123456Z'],
    ]);
  });
});
