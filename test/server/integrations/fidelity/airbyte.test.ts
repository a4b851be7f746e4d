/**
 * Airbyte protocol fidelity through the app: the test source (peers/airbyte-source.mjs) prints
 * RECORD lines whose numbers a double would change, for every Airbyte data type; each value read
 * back through the tables API and the CSV and Parquet downloads equals what the source printed.
 * Its STATE holds a 19-digit cursor: the next read gets it back exactly.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { parseJsonExact } from '../../../../src/server/exact-values/json';
import { makeApp, signIn, type TestApp } from '../../helpers';
import {
  api,
  createIntegration,
  definitionNamed,
  expectCompleted,
  ok,
  selectDatasets,
  syncNow,
  type Integration,
} from '../helpers';
import { apiRows, downloadRows, warehouseTypes, type Row } from './exports';
import { canonical, type Kind } from './renderings';

const PEER = path.join(import.meta.dirname, '../peers/airbyte-source.mjs');

let shared: string;
beforeEach(() => {
  shared = fs.mkdtempSync(path.join(os.tmpdir(), 'airbyte-fidelity-'));
  fs.chmodSync(shared, 0o777);
  // A copy any user may read: the checkout may sit in a folder closed to the user sources run as.
  fs.copyFileSync(PEER, path.join(shared, 'source.mjs'));
  fs.chmodSync(path.join(shared, 'source.mjs'), 0o644);
});
afterEach(() => fs.rmSync(shared, { recursive: true, force: true }));

async function appWithSource(): Promise<{ t: TestApp; cookie: string }> {
  const file = path.join(shared, 'sources.json');
  fs.writeFileSync(
    file,
    JSON.stringify([
      { key: 'test', name: 'Test source', command: process.execPath, args: [path.join(shared, 'source.mjs')] },
    ]),
  );
  const t = await makeApp({ AIRBYTE_SOURCES: file });
  return { t, cookie: await signIn(t, 'owner@example.com') };
}

/** What the source prints for record i (see airbyte-source.mjs), as text. */
function printed(i: number): Record<string, string | null> {
  return {
    id: String(1234567890123456789n + BigInt(i)),
    big: i === 3 ? '123456789012345678901234567890' : `900719925474099${i}`,
    amount: i % 2 ? '99999999999999.999999' : `204142800000.07919${i}`,
    ratio: i === 1 ? null : '0.30000000000000000001',
    flag: String(i % 2 === 0),
    day: `2024-02-2${i}`,
    at: `2024-01-01 08:00:0${i}.123456`,
    local: '2024-01-01 10:00:00.5',
    clock: `10:00:0${i}.123456`,
    name: i === 2 ? '' : i === 4 ? null : `n${i}`,
  };
}

const KINDS: Record<string, Kind> = {
  id: 'int',
  big: 'decimal',
  amount: 'decimal',
  ratio: 'decimal',
  flag: 'boolean',
  day: 'date',
  at: 'timestamptz',
  local: 'timestamp',
  clock: 'time',
  name: 'text',
};

function expectPrinted(rows: Row[], count: number, printer: 'api' | 'duckdb', how: string) {
  expect(rows.length, how).toBe(count);
  rows.forEach((row, i) => {
    const source = printed(i);
    for (const [name, kind] of Object.entries(KINDS)) {
      const text = source[name] ?? null;
      expect(canonical(kind, row[name], printer), `${how}: record ${i} ${name}`).toBe(
        text === null ? null : canonical(kind, text, 'source'),
      );
    }
    const parse = (v: unknown) => (typeof v === 'string' ? parseJsonExact(v) : v);
    expect(parse(row.tags), `${how}: record ${i} tags`).toEqual(['a', '', null]);
    expect((parse(row.nums) as unknown[]).map(String), `${how}: record ${i} nums`).toEqual([
      '1',
      '9223372036854775807',
    ]);
    expect(canonical('json', row.meta, printer), `${how}: record ${i} meta`).toBe(
      canonical('json', '{"big":12345678901234567890123,"x":[1.50],"s":"t\\"q"}', 'source'),
    );
  });
}

async function typedIntegration(t: TestApp, cookie: string, configuration: Record<string, unknown>) {
  const definition = await definitionNamed(t, cookie, 'Test source');
  const created = ok(
    await createIntegration(t, cookie, {
      integrationDefinitionId: definition.id,
      name: 'Typed source',
      schemaName: 'typed_source',
      configuration,
    }),
    201,
  );
  await t.services.integrations.idle();
  return created;
}

describe('Airbyte protocol type fidelity through the app', () => {
  it('stores what the source printed exactly, per Airbyte data type', async () => {
    const { t, cookie } = await appWithSource();
    const created = await typedIntegration(t, cookie, { api_key: 'good' });
    await selectDatasets(t, cookie, created.id, { typed: { syncType: 'FullRefresh', dataIngestionType: 'Overwrite' } });
    const run = await syncNow(t, cookie, created.id);
    expectCompleted(run);
    expect(run.logs.filter((l) => l.startsWith('[WARN]'))).toEqual([
      '[WARN] typed: Column big: 1 value does not fit int64; it is stored as an exact decimal (discovered as int64).',
    ]);
    const detail = ok(await api<Integration>(t, cookie, 'GET', `/api/integrations/${created.id}`));
    const datasetId = detail.datasets.find((d) => d.name === 'typed')!.id;
    const accountId = String(
      (
        await t.deps.db
          .selectFrom('integrations')
          .select('account_id')
          .where('id', '=', created.id)
          .executeTakeFirstOrThrow()
      ).account_id,
    );
    const types = await warehouseTypes(t, accountId, 'typed_source', 'typed');
    expect(types).toEqual({
      id: 'BIGINT',
      big: 'DECIMAL(38,0)',
      amount: 'DECIMAL(38,6)',
      ratio: 'DECIMAL(38,20)',
      flag: 'BOOLEAN',
      day: 'DATE',
      at: 'TIMESTAMP WITH TIME ZONE',
      local: 'TIMESTAMP',
      clock: 'TIME',
      name: 'VARCHAR',
      tags: 'VARCHAR[]',
      nums: 'BIGINT[]',
      meta: 'JSON',
    });
    expectPrinted(await apiRows(t, cookie, datasetId, 'id'), 5, 'api', 'tables API');
    for (const format of ['csv', 'parquet'] as const) {
      expectPrinted(await downloadRows(t, cookie, datasetId, format, 'id', types), 5, 'duckdb', `${format} download`);
    }
  });

  it('hands a 19-digit cursor back exactly; the boundary record is absorbed by the key', async () => {
    const { t, cookie } = await appWithSource();
    const created = await typedIntegration(t, cookie, { api_key: 'good' });
    await selectDatasets(t, cookie, created.id, {
      typed: { syncType: 'Incremental', dataIngestionType: 'AppendDedup' },
    });
    expectCompleted(await syncNow(t, cookie, created.id));
    const [stored] = await t.deps.db
      .selectFrom('integration_datasets')
      .select('state')
      .where('name', '=', 'typed')
      .execute();
    expect(stored?.state).toContain('"cursor":1234567890123456793');

    ok(
      await api(t, cookie, 'PUT', `/api/integrations/${created.id}`, {
        configuration: { api_key: 'good', typed_records: 2 },
      }),
    );
    await t.services.integrations.idle();
    t.clock.advance(60_000);
    const second = await syncNow(t, cookie, created.id);
    expectCompleted(second);
    const detail = ok(await api<Integration>(t, cookie, 'GET', `/api/integrations/${created.id}`));
    const rows = await apiRows(t, cookie, detail.datasets.find((d) => d.name === 'typed')!.id, 'id');
    expect(rows.map((r) => String(r.id))).toEqual(
      Array.from({ length: 7 }, (_, i) => String(1234567890123456789n + BigInt(i))),
    );
    expect(second.recordsProcessed).toBe(3); // the boundary record and the two new ones
  });
});

/** A source whose stream 'raw' declares no properties, and whose stream 'declared' gets fields it does not declare. */
const LOOSE_SOURCE = `
const [command] = process.argv.slice(2);
const out = (m) => process.stdout.write((typeof m === 'string' ? m : JSON.stringify(m)) + '\\n');
const streams = [
  { name: 'raw', json_schema: { type: 'object' }, supported_sync_modes: ['full_refresh'], source_defined_primary_key: [['id']] },
  { name: 'declared', json_schema: { type: 'object', properties: { id: { type: 'integer' } } }, supported_sync_modes: ['full_refresh'] },
];
if (command === 'spec') out({ type: 'SPEC', spec: { connectionSpecification: { type: 'object', properties: {} } } });
if (command === 'check') out({ type: 'CONNECTION_STATUS', connectionStatus: { status: 'SUCCEEDED' } });
if (command === 'discover') out({ type: 'CATALOG', catalog: { streams } });
if (command === 'read') {
  for (const stream of ['raw', 'declared']) {
    out('{"type":"RECORD","record":{"stream":"' + stream + '","emitted_at":1,"data":{"id":9007199254740993,"v":0.30000000000000000001,"o":{"a":[1.50,""]}}}}');
    out('{"type":"RECORD","record":{"stream":"' + stream + '","emitted_at":1,"data":{"id":2,"w":null}}}');
  }
}
`;

describe('Airbyte streams without a declared schema', () => {
  it('stores each record of a stream that declares no properties whole as JSON; undeclared fields are named in the log', async () => {
    fs.writeFileSync(path.join(shared, 'loose.mjs'), LOOSE_SOURCE);
    fs.chmodSync(path.join(shared, 'loose.mjs'), 0o644);
    const file = path.join(shared, 'sources.json');
    fs.writeFileSync(
      file,
      JSON.stringify([
        { key: 'loose', name: 'Loose source', command: process.execPath, args: [path.join(shared, 'loose.mjs')] },
      ]),
    );
    const t = await makeApp({ AIRBYTE_SOURCES: file });
    const cookie = await signIn(t, 'owner@example.com');
    const definition = await definitionNamed(t, cookie, 'Loose source');
    const created = ok(
      await createIntegration(t, cookie, {
        integrationDefinitionId: definition.id,
        name: 'Loose',
        schemaName: 'loose',
        configuration: {},
      }),
      201,
    );
    await t.services.integrations.idle();
    await selectDatasets(t, cookie, created.id, {
      raw: { syncType: 'FullRefresh', dataIngestionType: 'Overwrite' },
      declared: { syncType: 'FullRefresh', dataIngestionType: 'Overwrite' },
    });
    const run = await syncNow(t, cookie, created.id);
    expectCompleted(run);
    expect(run.logs.filter((l) => l.startsWith('[WARN]'))).toEqual([
      "[WARN] declared: Fields the stream's schema does not declare are not stored: v (1 record), o (1 record), w (1 record).",
    ]);
    const detail = ok(await api<Integration>(t, cookie, 'GET', `/api/integrations/${created.id}`));
    const raw = detail.datasets.find((d) => d.name === 'raw')!;
    const rows = await apiRows(t, cookie, raw.id, '_row_id');
    expect(rows.map((r) => canonical('json', r._airbyte_data, 'api'))).toEqual([
      canonical('json', '{"id":9007199254740993,"v":0.30000000000000000001,"o":{"a":[1.50,""]}}', 'source'),
      canonical('json', '{"id":2,"w":null}', 'source'),
    ]);
    const declared = detail.datasets.find((d) => d.name === 'declared')!;
    expect((await apiRows(t, cookie, declared.id, 'id')).map((r) => String(r.id))).toEqual(['2', '9007199254740993']);
  });
});
