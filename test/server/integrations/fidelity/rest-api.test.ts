/**
 * REST API type fidelity through the app: a real local API answers JSON whose numbers a double
 * would change (19-digit ids, 20-digit decimals, numbers inside objects and lists). Every value
 * read back through the tables API, the CSV and the Parquet download equals the JSON the API sent;
 * values the discovery sample did not foresee widen their column, with a warning. Incremental
 * reads send a 19-digit cursor exactly.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { exactJsonText, ExactNumber } from '../../../../src/server/exact-values/json';
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
import { startApi, type ApiPeer } from '../peers/http-api';
import { apiRows, downloadRows, tableOf, warehouseTypes, type Row } from './exports';
import { canonical, type Kind } from './renderings';

const n = (text: string) => new ExactNumber(text);
const RECORDS = 250;
const PAGE = 100;

/** The records the API serves (numbers as ExactNumbers: written into the answer exactly). */
function record(i: number): Record<string, unknown> {
  return {
    id: n(String(1234567890123456000n + BigInt(i))),
    big: i === 150 ? n('123456789012345678901234567890') : n(String(9007199254740993n * BigInt(i % 7))),
    amount: i % 3 === 0 ? n('99999999999999.999999') : n(`${204142800000 + i}.079190`),
    price: [19.99, 0.1, 3, 1e-7][i % 4],
    ratio: i % 5 === 0 ? n('0.30000000000000000001') : 0.25,
    count: i === 180 ? 1.5 : i,
    flag: i % 2 === 0,
    day: i === 190 ? 'not a date' : `2024-02-${String(1 + (i % 28)).padStart(2, '0')}`,
    at: `2024-01-01T10:${String(i % 60).padStart(2, '0')}:00.123456Z`,
    // Instants hold microseconds: nanoseconds keep the column text, seen in the sample or later.
    nanos: '2024-01-01T10:00:00.123456789Z',
    stamp: i === 200 ? '2024-01-01T10:00:00.123456789Z' : '2024-01-01T10:00:00.5Z',
    name: i % 10 === 0 ? '' : i % 10 === 1 ? null : `name ${i}`,
    tags: i % 4 === 0 ? [] : ['a', '', null, `t${i}`],
    nums: [1, n('12345678901234567890'), null],
    meta: { big: n('12345678901234567890123'), x: [n('1.50'), 'y'], deep: { z: n('-0.000000012345678901234567890') } },
  };
}

const KINDS: Record<string, Kind> = {
  id: 'int',
  big: 'decimal',
  amount: 'decimal',
  price: 'double',
  ratio: 'decimal',
  count: 'decimal',
  flag: 'boolean',
  day: 'text',
  at: 'timestamptz',
  nanos: 'text',
  stamp: 'text',
  name: 'text',
};

let peer: ApiPeer | null = null;
afterEach(async () => {
  await peer?.close();
  peer = null;
});

async function servePages(): Promise<ApiPeer> {
  return startApi({
    '/items': (query) => {
      const page = Number(query.get('page') ?? '1');
      const since = query.get('since');
      const all = Array.from({ length: RECORDS }, (_, i) => record(i));
      // The API keeps records at or after the cursor, compared exactly (as a database would).
      const kept = since === null ? all : all.filter((r) => BigInt(String(r.id)) >= BigInt(since));
      return { raw: exactJsonText({ data: kept.slice((page - 1) * PAGE, page * PAGE) }) };
    },
  });
}

async function restIntegration(t: TestApp, cookie: string, api_: ApiPeer, stream: Record<string, unknown>) {
  const definition = await definitionNamed(t, cookie, 'REST API');
  const created = ok(
    await createIntegration(t, cookie, {
      integrationDefinitionId: definition.id,
      name: 'Exact API',
      schemaName: 'exact_api',
      configuration: {
        base_url: api_.baseUrl,
        streams: [
          {
            name: 'items',
            path: '/items',
            primary_key: 'id',
            record_selector: 'data',
            pagination: { type: 'page_number', page_param: 'page', size_param: 'per_page', page_size: PAGE },
            ...stream,
          },
        ],
      },
    }),
    201,
  );
  await t.services.integrations.idle();
  return created;
}

function expectSameRecords(seen: Row[], printer: 'api' | 'duckdb', how: string) {
  expect(seen.length, how).toBe(RECORDS);
  seen.forEach((row, i) => {
    const source = record(i);
    for (const [name, kind] of Object.entries(KINDS)) {
      const value = source[name];
      const text = value instanceof ExactNumber ? value.text : value === null ? null : String(value);
      expect(canonical(kind, row[name], printer), `${how}: record ${i} ${name}`).toBe(
        text === null ? null : canonical(kind, text, 'source'),
      );
    }
    const parse = (v: unknown) => (typeof v === 'string' ? (JSON.parse(v) as unknown) : v);
    expect(parse(row.tags), `${how}: record ${i} tags`).toEqual(source.tags);
    expect(parse(row.nums), `${how}: record ${i} nums`).toEqual(['1', '12345678901234567890', null]);
    expect(canonical('json', row.meta, printer), `${how}: record ${i} meta`).toBe(
      canonical('json', exactJsonText(source.meta), 'source'),
    );
  });
}

describe('REST API type fidelity through the app', () => {
  it('keeps 19-digit integers, 20-digit decimals and JSON numbers exact; unforeseen values widen their column', async () => {
    peer = await servePages();
    const t = await makeApp({ CONNECTOR_PRIVATE_NETWORKS: 'true' });
    const cookie = await signIn(t, 'owner@example.com');
    const created = await restIntegration(t, cookie, peer, {});
    await selectDatasets(t, cookie, created.id, { items: { syncType: 'FullRefresh', dataIngestionType: 'Overwrite' } });
    const run = await syncNow(t, cookie, created.id);
    expectCompleted(run);
    expect(run.logs.filter((l) => l.startsWith('[WARN]'))).toEqual([
      '[WARN] items: Column big: 1 value does not fit int64; it is stored as an exact decimal (discovered as int64).',
      '[WARN] items: Column count: 1 value does not fit int64; it is stored as an exact decimal (discovered as int64).',
      '[WARN] items: Column day: 1 value does not fit date; it is stored as exact text (discovered as date).',
      '[WARN] items: Column stamp: 1 value does not fit timestamptz; it is stored as exact text (discovered as timestamptz).',
    ]);
    const detail = ok(await api<Integration>(t, cookie, 'GET', `/api/integrations/${created.id}`));
    const datasetId = detail.datasets[0]!.id;
    const accountId = String(
      (
        await t.deps.db
          .selectFrom('integrations')
          .select('account_id')
          .where('id', '=', created.id)
          .executeTakeFirstOrThrow()
      ).account_id,
    );
    const types = await warehouseTypes(t, accountId, 'exact_api', 'items');
    expect(types).toEqual({
      id: 'BIGINT',
      big: 'DECIMAL(38,0)',
      amount: 'DECIMAL(38,6)',
      price: 'DOUBLE',
      ratio: 'DECIMAL(38,20)',
      count: 'DECIMAL(18,1)',
      flag: 'BOOLEAN',
      day: 'VARCHAR',
      at: 'TIMESTAMP WITH TIME ZONE',
      nanos: 'VARCHAR',
      stamp: 'VARCHAR',
      name: 'VARCHAR',
      tags: 'VARCHAR[]',
      nums: 'VARCHAR[]',
      meta: 'JSON',
    });
    const table = await tableOf(t, cookie, datasetId);
    expect(Object.fromEntries(table.columns.map((c) => [c.columnKey, c.type]))).toMatchObject({
      id: 'Number',
      amount: 'Number',
      tags: 'Array',
      meta: 'Json',
      at: 'DateTime',
    });

    expectSameRecords(await apiRows(t, cookie, datasetId, 'id'), 'api', 'tables API');
    for (const format of ['csv', 'parquet'] as const) {
      expectSameRecords(await downloadRows(t, cookie, datasetId, format, 'id', types), 'duckdb', `${format} download`);
    }
  });

  it('keeps properties named like object internals (__proto__, constructor) as data', async () => {
    peer = await startApi({
      '/items': () => ({
        raw: '{"data": [{"id": 1, "__proto__": "p", "constructor": 7}, {"id": 2, "__proto__": null, "toString": "s"}]}',
      }),
    });
    const t = await makeApp({ CONNECTOR_PRIVATE_NETWORKS: 'true' });
    const cookie = await signIn(t, 'owner@example.com');
    const created = await restIntegration(t, cookie, peer, { pagination: { type: 'none' } });
    await selectDatasets(t, cookie, created.id, { items: { syncType: 'FullRefresh', dataIngestionType: 'Overwrite' } });
    expectCompleted(await syncNow(t, cookie, created.id));
    const detail = ok(await api<Integration>(t, cookie, 'GET', `/api/integrations/${created.id}`));
    const rows = await apiRows(t, cookie, detail.datasets[0]!.id, 'id');
    expect(
      rows.map((r) => [r.id, Object.getOwnPropertyDescriptor(r, '__proto__')?.value, r.constructor, r.toString]),
    ).toEqual([
      [1, 'p', 7, null],
      [2, null, null, 's'],
    ]);
  });

  it('sends a 19-digit cursor exactly and keeps one row per key across the inclusive boundary', async () => {
    peer = await servePages();
    const t = await makeApp({ CONNECTOR_PRIVATE_NETWORKS: 'true' });
    const cookie = await signIn(t, 'owner@example.com');
    const created = await restIntegration(t, cookie, peer, { cursor_field: 'id', cursor_param: 'since' });
    await selectDatasets(t, cookie, created.id, {
      items: { syncType: 'Incremental', dataIngestionType: 'AppendDedup' },
    });
    expectCompleted(await syncNow(t, cookie, created.id));
    t.clock.advance(60_000);
    expectCompleted(await syncNow(t, cookie, created.id));
    const last = peer.seen('/items').at(-1)!;
    expect(last.query.get('since')).toBe(String(1234567890123456000n + BigInt(RECORDS - 1)));
    const detail = ok(await api<Integration>(t, cookie, 'GET', `/api/integrations/${created.id}`));
    const rows = await apiRows(t, cookie, detail.datasets[0]!.id, 'id');
    expect(rows.map((r) => String(r.id))).toEqual(
      Array.from({ length: RECORDS }, (_, i) => String(1234567890123456000n + BigInt(i))),
    );
  });
});

/**
 * A REST integration on one path whose answer the test sets (`pages` by the page parameter, or one
 * answer for every request): discovery reads `first`; `sync(next)` answers `next` and syncs.
 */
async function changingApi(first: Answer, stream: Record<string, unknown>, syncType: string, ingestion: string) {
  let answer = first;
  peer = await startApi({
    '/items': (query) => ({
      raw: typeof answer === 'string' ? answer : (answer[query.get('page') ?? '1'] ?? '{"data": []}'),
    }),
  });
  const t = await makeApp({ CONNECTOR_PRIVATE_NETWORKS: 'true' });
  const cookie = await signIn(t, 'owner@example.com');
  const created = await restIntegration(t, cookie, peer, { pagination: { type: 'none' }, ...stream });
  await selectDatasets(t, cookie, created.id, { items: { syncType, dataIngestionType: ingestion } });
  const detail = ok(await api<Integration>(t, cookie, 'GET', `/api/integrations/${created.id}`));
  const accountId = String(
    (
      await t.deps.db
        .selectFrom('integrations')
        .select('account_id')
        .where('id', '=', created.id)
        .executeTakeFirstOrThrow()
    ).account_id,
  );
  return {
    sync: async (next: Answer) => {
      answer = next;
      const run = await syncNow(t, cookie, created.id);
      t.clock.advance(60_000);
      return run;
    },
    rows: () => apiRows(t, cookie, detail.datasets[0]!.id, 'id'),
    types: () => warehouseTypes(t, accountId, 'exact_api', 'items'),
  };
}

type Answer = string | Record<string, string>;

/** An Overwrite full refresh of one record per page (discovery samples page 1 only), completed. */
async function syncPages(pages: Record<string, string>) {
  const api_ = await changingApi(
    pages,
    { pagination: { type: 'page_number', page_param: 'page', size_param: 'per_page', page_size: 1 } },
    'FullRefresh',
    'Overwrite',
  );
  const run = await api_.sync(pages);
  expectCompleted(run);
  return { api_, run };
}

describe('REST API values the discovery sample did not foresee', () => {
  it('a string a number or date column would print otherwise (00501, 1e2, " 7 ", 0.50) makes the column text', async () => {
    // Discovery sees page 1 (numbers, a date); page 2 sends strings of other spellings.
    const pages = {
      '1': '{"data": [{"id": 1, "zip": 501, "price": 0.5, "n": 7, "day": "2024-01-01"}]}',
      '2':
        '{"data": [{"id": 2, "zip": "00501", "price": "0.50", "n": " 7 ", "day": " 2024-01-02"},' +
        ' {"id": 3, "zip": "1e2", "price": "+1", "n": "7", "day": "2024-01-03"}]}',
    };
    const { api_, run } = await syncPages(pages);
    expect(run.logs.filter((l) => l.startsWith('[WARN]'))).toEqual([
      '[WARN] items: Column zip: 2 values do not fit decimal; it is stored as exact text (discovered as int64).',
      '[WARN] items: Column price: 1 value does not fit decimal; it is stored as exact text (discovered as double).',
      '[WARN] items: Column n: 1 value does not fit decimal; it is stored as exact text (discovered as int64).',
      '[WARN] items: Column day: 1 value does not fit date; it is stored as exact text (discovered as date).',
    ]);
    expect(await api_.types()).toMatchObject({ zip: 'VARCHAR', price: 'VARCHAR', n: 'VARCHAR', day: 'VARCHAR' });
    expect((await api_.rows()).map((r) => [r.zip, r.price, r.n, r.day])).toEqual([
      ['501', '0.5', '7', '2024-01-01'],
      ['00501', '0.50', ' 7 ', ' 2024-01-02'],
      ['1e2', '+1', '7', '2024-01-03'],
    ]);
  });
  it('a list meeting an element its type cannot hold becomes JSON; a list mixing strings and numbers is JSON', async () => {
    const pages = {
      '1': '{"data": [{"id": 1, "tags": [1, 2], "mixed": [1, "a", true]}]}',
      '2': '{"data": [{"id": 2, "tags": ["007", 3], "mixed": ["1"]}, {"id": 3, "tags": [1.50, 9223372036854775808], "mixed": []}]}',
    };
    const { api_, run } = await syncPages(pages);
    expect(run.logs.filter((l) => l.startsWith('[WARN]'))).toEqual([
      '[WARN] items: Column tags: 2 values do not fit list<int64>; it is stored as JSON (discovered as list<int64>).',
    ]);
    expect(await api_.types()).toMatchObject({ tags: 'JSON', mixed: 'JSON' });
    const rows = await api_.rows();
    expect(rows.map((r) => canonical('json', r.tags, 'api'))).toEqual(
      ['[1,2]', '["007",3]', '[1.50,9223372036854775808]'].map((j) => canonical('json', j, 'source')),
    );
    expect(rows.map((r) => r.mixed)).toEqual([[1, 'a', true], ['1'], []]);
  });
  it('a list of strings meeting a nested array or object becomes JSON, never the nested value as text', async () => {
    const pages = {
      '1': '{"data": [{"id": 1, "tags": ["a", "b"]}]}',
      '2': '{"data": [{"id": 2, "tags": [["a", "b"], "c"]}, {"id": 3, "tags": [{"k": 12345678901234567890}]}]}',
    };
    const { api_, run } = await syncPages(pages);
    expect(run.logs.filter((l) => l.startsWith('[WARN]'))).toEqual([
      '[WARN] items: Column tags: 2 values do not fit list<text>; it is stored as JSON (discovered as list<text>).',
    ]);
    expect(await api_.types()).toMatchObject({ tags: 'JSON' });
    expect((await api_.rows()).map((r) => canonical('json', r.tags, 'api'))).toEqual(
      ['["a","b"]', '[["a","b"],"c"]', '[{"k":12345678901234567890}]'].map((j) => canonical('json', j, 'source')),
    );
  });
});

describe('REST API date-times the warehouse would read otherwise', () => {
  it("'epoch', spaces and zone names make an instant column text; ISO instants with offsets stay instants", async () => {
    const pages = {
      '1': '{"data": [{"id": 1, "at": "2024-01-01T10:00:00+05:30", "ok": "2024-01-01T10:00:00Z"}]}',
      '2':
        '{"data": [{"id": 2, "at": "epoch", "ok": "-0044-03-15T00:00:00.5+01:00"}, {"id": 3, "at": " 2024-01-01T10:00:00Z", "ok": "2024-01-01"},' +
        ' {"id": 4, "at": "2024-01-01T10:00:00 America/New_York", "ok": null}]}',
    };
    const { api_, run } = await syncPages(pages);
    expect(run.logs.filter((l) => l.startsWith('[WARN]'))).toEqual([
      '[WARN] items: Column at: 3 values do not fit timestamptz; it is stored as exact text (discovered as timestamptz).',
    ]);
    expect(await api_.types()).toMatchObject({ at: 'VARCHAR', ok: 'TIMESTAMP WITH TIME ZONE' });
    expect((await api_.rows()).map((r) => [r.at, r.ok])).toEqual([
      ['2024-01-01T10:00:00+05:30', '2024-01-01T10:00:00.000Z'],
      ['epoch', '-000044-03-14T23:00:00.500Z'],
      [' 2024-01-01T10:00:00Z', '2024-01-01T00:00:00.000Z'],
      ['2024-01-01T10:00:00 America/New_York', null],
    ]);
  });
});

describe('REST API fields the discovery sample did not have', () => {
  it('are named in a warning with their record counts, never dropped silently', async () => {
    const pages = {
      '1': '{"data": [{"id": 1, "v": "a"}]}',
      '2': '{"data": [{"id": 2, "v": "b", "late": 9007199254740993}, {"id": 3, "late": null, "later": ""}]}',
    };
    const { api_, run } = await syncPages(pages);
    expect(run.logs.filter((l) => l.startsWith('[WARN]'))).toEqual([
      '[WARN] items: Fields the discovery sample did not have are not stored: late (2 records), later (1 record). ' +
        'Refresh the datasets to add them.',
    ]);
    expect((await api_.rows()).map((r) => [r.id, r.v])).toEqual([
      [1, 'a'],
      [2, 'b'],
      [3, null],
    ]);
  });
});

describe('REST API incremental reads never lose or duplicate rows', () => {
  it('keeps a record at the saved instant written in another zone, or past the millisecond', async () => {
    const first = '{"data": [{"id": 1, "at": "2024-01-01T10:00:00.1234+05:30"}]}';
    const api_ = await changingApi(first, { cursor_field: 'at', cursor_param: 'since' }, 'Incremental', 'AppendDedup');
    expectCompleted(await api_.sync(first));
    // The same instant in UTC, one 100 µs later, and one a microsecond before the saved cursor.
    const run = await api_.sync(
      '{"data": [{"id": 2, "at": "2024-01-01T04:30:00.1234Z"}, {"id": 3, "at": "2024-01-01T04:30:00.1235Z"},' +
        ' {"id": 4, "at": "2024-01-01T04:30:00.123399Z"}]}',
    );
    expectCompleted(run);
    expect((await api_.rows()).map((r) => [r.id, r.at])).toEqual([
      [1, '2024-01-01T04:30:00.123400Z'],
      [2, '2024-01-01T04:30:00.123400Z'],
      [3, '2024-01-01T04:30:00.123500Z'],
    ]);
  });

  it('AppendDedup keeps one row per key from the first read on: a key twice in one answer, keys past 2^53', async () => {
    const first =
      '{"data": [{"id": 9007199254740993, "v": "a", "c": 1}, {"id": 9007199254740992, "v": "b", "c": 1},' +
      ' {"id": 9007199254740993, "v": "a2", "c": 2}, {"id": 9007199254740992, "v": "b2", "c": 1}]}';
    const api_ = await changingApi(first, { cursor_field: 'c', cursor_param: 'since' }, 'Incremental', 'AppendDedup');
    expectCompleted(await api_.sync(first));
    expect((await api_.rows()).map((r) => [String(r.id), r.v])).toEqual([
      ['9007199254740992', 'b2'],
      ['9007199254740993', 'a2'],
    ]);
    // A later read with the key twice again keeps its last arrival.
    expectCompleted(
      await api_.sync(
        '{"data": [{"id": 9007199254740993, "v": "a3", "c": 2}, {"id": 9007199254740993, "v": "a4", "c": 2}]}',
      ),
    );
    expect((await api_.rows()).map((r) => [String(r.id), r.v])).toEqual([
      ['9007199254740992', 'b2'],
      ['9007199254740993', 'a4'],
    ]);
  });
  it('AppendDedup reads the saved cursor again without storing its rows without a key value twice', async () => {
    const first =
      '{"data": [{"id": 1, "v": "a", "c": 1}, {"v": "b", "c": 2}, {"v": "b", "c": 2}, {"id": 2, "v": "d", "c": 2}]}';
    const api_ = await changingApi(first, { cursor_field: 'c', cursor_param: 'since' }, 'Incremental', 'AppendDedup');
    expectCompleted(await api_.sync(first));
    // The inclusive read sends the boundary's records again, and a third keyless copy of "b".
    expectCompleted(
      await api_.sync(
        '{"data": [{"v": "b", "c": 2}, {"v": "b", "c": 2}, {"v": "b", "c": 2}, {"id": 2, "v": "d", "c": 2}, {"v": "e", "c": 3}]}',
      ),
    );
    expect((await api_.rows()).map((r) => [r.id ?? null, r.v, r.c])).toEqual([
      [1, 'a', 1],
      [2, 'd', 2],
      [null, 'b', 2],
      [null, 'b', 2],
      [null, 'b', 2],
      [null, 'e', 3],
    ]);
  });

  it('AppendDedup keeps every record without a primary key value, and says so', async () => {
    const first = '{"data": [{"id": 1, "v": "a"}, {"v": "b"}, {"id": null, "v": "c"}]}';
    const api_ = await changingApi(first, {}, 'FullRefresh', 'AppendDedup');
    const run = await api_.sync(first);
    expectCompleted(run);
    expect(run.logs.filter((l) => l.startsWith('[WARN]'))).toEqual([
      '[WARN] items: 2 records have no value for the primary key (id): each is kept as a row of its own, never de-duplicated.',
    ]);
    expectCompleted(await api_.sync('{"data": [{"v": "d"}, {"id": 1, "v": "a2"}]}'));
    expect((await api_.rows()).map((r) => r.v).sort()).toEqual(['a2', 'b', 'c', 'd']);
  });
});

describe('REST API names and text the warehouse cannot hold as they are', () => {
  it('stores fields named "" or holding a NUL under free names, and says so', async () => {
    const body = '{"data": [{"id": 1, "a\\u0000b": 1, "": "empty", "ab": 3, "column": "c"}]}';
    const api_ = await changingApi(body, {}, 'FullRefresh', 'Overwrite');
    const run = await api_.sync(body);
    expectCompleted(run);
    expect(run.logs.filter((l) => l.startsWith('[WARN]'))).toEqual([
      '[WARN] items: Property "a\\0b" is stored as column "ab_2": a column name cannot hold a NUL character.',
      '[WARN] items: Property "" is stored as column "column_2": a column needs a name.',
    ]);
    expect((await api_.rows()).map((r) => [r.ab_2, r.column_2, r.ab, r.column])).toEqual([[1, 'empty', 3, 'c']]);
  });

  it('refuses text that is not valid Unicode (a lone surrogate), naming the column and the count', async () => {
    const good = '{"data": [{"id": 1, "s": "ok", "o": {"k": "ok"}}]}';
    const api_ = await changingApi(good, {}, 'FullRefresh', 'Overwrite');
    expectCompleted(await api_.sync(good));
    // A lone surrogate in a text column, in a JSON value, and an escaped backslash before "ud800" (plain text).
    const run = await api_.sync(
      '{"data": [{"id": 2, "s": "a\\ud800", "o": {"k": "\\udc00"}}, {"id": 3, "s": "\\\\ud800", "o": {"k": "\\\\ud800"}},' +
        ' {"id": 4, "s": "\\ud83d\\ude00", "o": {"\\ud800": 1}}]}',
    );
    expect(run.status).toBe('Failed');
    expect(run.logs.filter((l) => l.startsWith('[WARN]') || l.startsWith('[ERROR] items'))).toEqual([
      '[WARN] items: Column s (1 value), column o (2 values) hold text that is not valid Unicode (a lone UTF-16 ' +
        'surrogate), which the warehouse cannot store unchanged; the sync stops and the dataset keeps its previous data.',
      "[ERROR] items: SystemError: A record does not fit the dataset's columns: column s (1 value), column o (2 values) " +
        'hold text that is not valid Unicode (a lone UTF-16 surrogate), which the warehouse cannot store unchanged. ' +
        'Its previous data is unchanged.',
    ]);
    expect((await api_.rows()).map((r) => r.s)).toEqual(['ok']);
  });
});
