import ExcelJS from 'exceljs';
import { describe, expect, it } from 'vitest';
import { LIMITS } from '../../src/shared/limits';
import {
  PNG_1X1,
  call,
  expectError,
  makeApp,
  signIn,
  trpcMutation,
  trpcQuery,
  type CallResult,
  type TestApp,
  type TrpcError,
} from './helpers';
import { addColumn, api as modelApi, createModel, modelKey, rawColumn } from './models/helpers';
import {
  createTable,
  getTable,
  infiniteScroll,
  ok,
  tableFromCsv,
  uploadCsv,
  uploadFiles,
} from './static-tables/helpers';

type Method = 'POST' | 'PUT' | 'DELETE';

/** Every JSON-taking REST call of this area, with a path that exists for the signed-in owner. */
function jsonEndpoints(accountId: string): Array<[Method, string]> {
  return [
    ['POST', '/api/login'],
    ['POST', '/api/confirm'],
    ['POST', '/api/switch'],
    ['PUT', `/api/accounts/${accountId}`],
    ['POST', `/api/accounts/${accountId}/invite/accept`],
    ['POST', '/api/accounts/invite'],
    ['POST', '/api/accounts/invite/resend'],
    ['DELETE', '/api/accounts/invite'],
    ['POST', '/api/accounts/role'],
    ['DELETE', '/api/accounts/member'],
    ['PUT', '/api/users'],
  ];
}

async function ownerApp(env: Record<string, string> = {}): Promise<{ t: TestApp; cookie: string; accountId: string }> {
  const t = await makeApp(env);
  const cookie = await signIn(t, 'owner@example.com');
  const me = await call<{ currentAccountId: string }>(t.server, 'GET', '/api/me', { cookie });
  return { t, cookie, accountId: me.body.currentAccountId };
}

function raw(
  t: TestApp,
  method: Method,
  url: string,
  cookie: string,
  payload: string,
  contentType = 'application/json',
) {
  return call(t.server, method, url, { cookie, headers: { 'content-type': contentType }, body: payload });
}

describe('bad input gets a clear 4xx with { message }, never a 500', () => {
  it('malformed JSON is a 400 on every call', async () => {
    const { t, cookie, accountId } = await ownerApp();
    for (const [method, url] of jsonEndpoints(accountId)) {
      const res = await raw(t, method, url, cookie, '{"email": "a@b.co",');
      expect(expectError(res, 400), `${method} ${url}`).toBe('The request body is not valid JSON.');
    }
  });

  it('a missing body, null, an array or a bare string is a 400 naming what is wrong', async () => {
    const { t, cookie, accountId } = await ownerApp();
    for (const [method, url] of jsonEndpoints(accountId)) {
      const none = await call(t.server, method, url, { cookie });
      expect(none.status, `${method} ${url} without body`).toBe(400);
      for (const payload of ['null', '[]', '"text"', '42', '{}']) {
        const res = await raw(t, method, url, cookie, payload);
        const message = expectError(res, 400);
        expect(message.length, `${method} ${url} ${payload}`).toBeGreaterThan(3);
      }
    }
  });

  it('missing and wrong-typed fields name the field', async () => {
    const { t, cookie } = await ownerApp();
    const cases: Array<[Method, string, unknown, RegExp]> = [
      ['POST', '/api/login', {}, /^email: /],
      ['POST', '/api/login', { email: 42 }, /^email: .*expected string/],
      ['POST', '/api/login', { email: 'not-an-address' }, /^email: Provide an email adress$/],
      ['POST', '/api/login', { email: `${'a'.repeat(320)}@x.io` }, /^email: /],
      ['POST', '/api/confirm', { token: 12345678901 }, /^token: /],
      ['POST', '/api/confirm', { token: 'short' }, /^token: /],
      ['POST', '/api/switch', { accountId: { id: 'x' } }, /^accountId: /],
      ['POST', '/api/switch', { accountId: 'x'.repeat(101) }, /^accountId: /],
      ['POST', '/api/accounts/invite', { roles: ['admin'] }, /^email: /],
      ['POST', '/api/accounts/invite', { email: 'b@x.io', roles: 'admin' }, /^roles: /],
      ['POST', '/api/accounts/invite', { email: 'b@x.io', roles: ['emperor'] }, /^roles\.0: /],
      ['POST', '/api/accounts/invite', { email: 'b@x.io', name: ['Bob'] }, /^name: /],
      ['POST', '/api/accounts/role', { userName: 'owner@example.com' }, /^roles: /],
      ['POST', '/api/accounts/role', { userName: true, roles: ['admin'] }, /^userName: /],
      ['DELETE', '/api/accounts/member', { userId: null }, /^userId: /],
      ['DELETE', '/api/accounts/invite', { email: '' }, /^email: /],
      ['PUT', '/api/users', { name: 7 }, /^name: /],
    ];
    for (const [method, url, body, message] of cases) {
      const res = await call(t.server, method, url, { cookie, body });
      expect(expectError(res, 400), `${method} ${url} ${JSON.stringify(body)}`).toMatch(message);
    }
  });

  it('a body over BODY_LIMIT_BYTES is a 413, on REST and tRPC', async () => {
    const { t, cookie } = await ownerApp({ BODY_LIMIT_BYTES: '4096' });
    const huge = JSON.stringify({ email: 'a@b.co', padding: 'x'.repeat(8_000) });
    for (const url of ['/api/login', '/api/accounts/invite', '/trpc/auth.requestLogin']) {
      const res = await raw(t, 'POST', url, cookie, huge);
      expect(expectError(res, 413), url).toBe('The request is too large.');
    }
    const justUnder = JSON.stringify({ name: 'n'.repeat(50), padding: 'x'.repeat(3_900) });
    expect((await raw(t, 'PUT', '/api/users', cookie, justUnder)).status).toBe(200);
  });

  it('an unsupported content type is a 415 and a text body a 400', async () => {
    const { t, cookie } = await ownerApp();
    expectError(await raw(t, 'POST', '/api/login', cookie, '<email/>', 'application/xml'), 415);
    expectError(await raw(t, 'POST', '/api/login', cookie, 'email=a@b.co', 'text/plain'), 400);
  });

  it('a prototype-polluting body is refused', async () => {
    const { t, cookie } = await ownerApp();
    const res = await raw(t, 'PUT', '/api/users', cookie, '{"name":"X","__proto__":{"admin":true}}');
    expectError(res, 400);
  });

  it('an over-long path id is a 4xx with a message', async () => {
    const { t, cookie } = await ownerApp();
    const res = await call(t.server, 'GET', `/api/accounts/${'x'.repeat(500)}`, { cookie });
    expect(res.status).toBeGreaterThanOrEqual(400);
    expect(res.status).toBeLessThan(500);
    expect(typeof (res.body as { message?: unknown }).message).toBe('string');
  });
});

describe('tRPC bad input', () => {
  it('answers 400 with the first problem in words', async () => {
    const t = await makeApp();
    const bad = await trpcMutation<TrpcError>(t, 'auth.requestLogin', { email: 'nope' });
    expect(bad.status).toBe(400);
    expect(bad.body.error.message).toBe('email: Provide an email adress');
    expect(bad.body.error.data).toEqual({ code: 'BAD_REQUEST', httpStatus: 400 });

    const wrongType = await trpcMutation<TrpcError>(t, 'auth.confirm', { token: 5 });
    expect(wrongType.status).toBe(400);
    expect(wrongType.body.error.message).toMatch(/^token: .*expected string/);

    const missing = await trpcMutation<TrpcError>(t, 'auth.requestLogin', {});
    expect(missing.status).toBe(400);
    expect(missing.body.error.message).toMatch(/^email: /);
  });

  it('answers 400 to malformed JSON and hides internals', async () => {
    const t = await makeApp();
    const res = await call<TrpcError>(t.server, 'POST', '/trpc/auth.requestLogin', {
      headers: { 'content-type': 'application/json' },
      body: '{"email":',
    });
    expect(res.status).toBe(400);
    expect(res.body.error.message).toEqual(expect.any(String));
    expect(JSON.stringify(res.body)).not.toMatch(/stack|at .*\.ts/);
  });

  it('answers 400 for account-scoped procedures too', async () => {
    const t = await makeApp();
    const cookie = await signIn(t, 'owner@example.com');
    const res = await trpcMutation<TrpcError>(
      t,
      'accounts.changeRoles',
      { userName: 'owner@example.com', roles: [] },
      cookie,
    );
    expect(res.status).toBe(400);
    expect(res.body.error.message).toBe('roles: Choose at least one role.');
  });
});

// ---- The hostile-input corpus: each case through its real HTTP path, a 4xx with a message, never a 500.

/** A 4xx with a `{ message }` (REST) or `{ error: { message } }` (tRPC) a person can read. */
function expectClientError(res: CallResult, what: string): string {
  expect(res.status, `${what}: ${JSON.stringify(res.body)}`).toBeGreaterThanOrEqual(400);
  expect(res.status, `${what}: ${JSON.stringify(res.body)}`).toBeLessThan(500);
  const body = res.body as { message?: unknown; error?: { message?: unknown } };
  const message = body.message ?? body.error?.message;
  expect(typeof message, what).toBe('string');
  expect((message as string).length, what).toBeGreaterThan(5);
  return message as string;
}

const deepArray = (levels: number) => `${'['.repeat(levels)}${']'.repeat(levels)}`;
const deepObject = (levels: number): unknown => {
  let value: unknown = 1;
  for (let i = 0; i < levels; i += 1) value = { a: value };
  return value;
};

describe('hostile input corpus: deep JSON', () => {
  it('any REST JSON call refuses a body nested past the limit with a 400 naming it', async () => {
    const { t, cookie, accountId } = await ownerApp();
    const id = '00000000-0000-4000-8000-000000000000';
    const endpoints: Array<[Method, string]> = [
      ...jsonEndpoints(accountId),
      ['POST', '/api/static-tables'],
      ['PUT', `/api/static-tables/${id}`],
      ['PUT', `/api/static-tables/${id}/data`],
      ['POST', `/api/static-tables/${id}/query`],
      ['POST', `/api/static-tables/${id}/changes`],
      ['POST', `/api/tables/StaticTable/${id}/data/infinite-scroll`],
      ['POST', `/api/tables/StaticTable/${id}/data/count`],
      ['POST', '/api/models'],
      ['PUT', `/api/models/${id}/pivots`],
      ['PUT', `/api/models/${id}/filter_groups`],
      ['POST', `/api/models/${id}/columns`],
      ['POST', '/api/integrations'],
      ['PUT', `/api/integrations/${id}`],
      ['PUT', `/api/integrations/${id}/datasets`],
      ['POST', '/api/integrations/webhook/not-a-token'],
      ['POST', '/api/bug-reports'],
    ];
    const bodies = [
      `{"name":"x","a":${deepArray(100_000)}}`,
      JSON.stringify({ name: 'x', nested: deepObject(LIMITS.jsonMaxDepth) }),
    ];
    for (const [method, url] of endpoints) {
      for (const body of bodies) {
        const message = expectClientError(await raw(t, method, url, cookie, body), `${method} ${url}`);
        expect(message, `${method} ${url}`).toBe(
          `The JSON body is nested more than ${LIMITS.jsonMaxDepth} levels deep.`,
        );
      }
    }
    // JSON text in a download link's query is held to the same limit.
    const table = await createTable(t, cookie, { name: 'Kept', columns: [{ displayName: 'A' }], rows: [['kept']] });
    const link = `/api/tables/StaticTable/${table.id}/download?format=csv&filterGroups=${encodeURIComponent(deepArray(1_000))}`;
    expect(expectClientError(await call(t.server, 'GET', link, { cookie }), 'download link')).toBe(
      `filterGroups: The JSON body is nested more than ${LIMITS.jsonMaxDepth} levels deep.`,
    );
    // Exactly at the limit is not refused for its depth.
    const atLimit = JSON.stringify({ name: 'Fine', nested: deepObject(LIMITS.jsonMaxDepth - 1) });
    expect((await raw(t, 'PUT', '/api/users', cookie, atLimit)).status).toBe(200);
  });

  it('any tRPC procedure refuses input nested past the limit, queries and mutations alike', async () => {
    const { t, cookie } = await ownerApp();
    const deep = deepObject(200);
    const calls = [
      await trpcMutation(t, 'staticTables.change', { id: 'x', changes: [deep] }, cookie),
      await trpcMutation(t, 'integrations.create', { name: 'x', configuration: deep }, cookie),
      await trpcMutation(t, 'models.setPivots', { id: 'x', pivots: [deep] }, cookie),
      await trpcMutation(t, 'auth.requestLogin', { email: 'a@b.co', extra: deep }),
      await trpcQuery(t, 'tables.page', { type: 'StaticTable', id: 'x', filterGroups: [deep] }, cookie),
    ];
    for (const res of calls) {
      expect(expectClientError(res, 'tRPC')).toBe(
        `The JSON body is nested more than ${LIMITS.jsonMaxDepth} levels deep.`,
      );
    }
    const rawDeep = await call(t.server, 'POST', '/trpc/staticTables.rename', {
      cookie,
      headers: { 'content-type': 'application/json' },
      body: `{"id":"x","name":"y","d":${deepArray(100_000)}}`,
    });
    expectClientError(rawDeep, 'tRPC raw deep body');
  });
});

describe('hostile input corpus: uploads', () => {
  const boundary = 'ws-corpus';
  const part = (headers: string, content: string) => `--${boundary}\r\n${headers}\r\n\r\n${content}\r\n`;
  const csvPart = part(
    'Content-Disposition: form-data; name="file"; filename="a.csv"\r\nContent-Type: text/csv',
    'a,b\n1,2',
  );
  const malformed: Array<[string, string, string]> = [
    ['a body cut off before its closing boundary', `multipart/form-data; boundary=${boundary}`, csvPart.slice(0, -4)],
    ['no boundary in the Content-Type', 'multipart/form-data', csvPart],
    ['a boundary that never appears', 'multipart/form-data; boundary=other', `${csvPart}--${boundary}--\r\n`],
    ['an empty body', `multipart/form-data; boundary=${boundary}`, ''],
    ['garbage', `multipart/form-data; boundary=${boundary}`, '\u0000\u0001garbage\r\n\r\n--'],
    [
      'a part without headers',
      `multipart/form-data; boundary=${boundary}`,
      `--${boundary}\r\n\r\na,b\r\n--${boundary}--\r\n`,
    ],
    ['a boundary of 300 characters', `multipart/form-data; boundary=${'b'.repeat(300)}`, csvPart],
    ['an empty boundary', 'multipart/form-data; boundary=', csvPart],
    [
      'a __proto__ field',
      `multipart/form-data; boundary=${boundary}`,
      `${part('Content-Disposition: form-data; name="__proto__"', 'x')}--${boundary}--\r\n`,
    ],
  ];

  it.each(malformed)('a multipart upload with %s is a 4xx on every upload path', async (what, contentType, body) => {
    const { t, cookie } = await ownerApp();
    const table = await createTable(t, cookie, { name: 'Kept', columns: [{ displayName: 'A' }], rows: [['kept']] });
    const before = await getTable(t, cookie, table.id);
    for (const [method, url] of [
      ['PUT', `/api/static-tables/${table.id}/upload`],
      ['POST', '/api/error-reports'],
    ] as const) {
      expectClientError(await raw(t, method, url, cookie, body, contentType), `${what}: ${url}`);
    }
    expect(await getTable(t, cookie, table.id)).toEqual(before);
    expect(await uploadFiles(t, cookie)).toEqual([]);
  });

  const zipHead = Buffer.concat([Buffer.from('PK\u0003\u0004'), Buffer.alloc(200)]);
  const csvFiles: Array<[string, string | Buffer, RegExp]> = [
    ['binary garbage', Buffer.from(Array.from({ length: 5_000 }, (_, i) => (i * 7919) % 256)), /binary data/],
    ['a PNG image', PNG_1X1, /binary data|not text in rows/],
    ['a zip archive', zipHead, /binary data/],
    ['text with a NUL byte', Buffer.from('a,b\n1,\u0000\n'), /binary data/],
    [
      'bytes past the sniffer that are garbage',
      Buffer.from(`a,b\n${'1,2\n'.repeat(10)}\u00ff\u00fe\u0001"\u0002`, 'latin1'),
      /./,
    ],
    ['UTF-16 text', Buffer.from('\ufeffa,b\n1,2\n', 'utf16le'), /UTF-16/],
    ['an empty file', '', /^The file is empty\.$/],
    ['a byte order mark alone', '\ufeff', /^The file is empty\.$/],
    ['a lone quote', '"', /quoted value is never closed|could not be read/],
    ['6,000 columns', `${Array.from({ length: 6_000 }, (_, i) => `c${i}`).join(',')}\n`, /6000 columns.*at most 500/],
    ['a line of 3 MB', `a\n${'x'.repeat(3_000_000)}\n`, /too long/],
    ['rows that disagree', 'a,b\n1\n1,2,3\n', /^Line 2 has 1 value/],
  ];

  it.each(csvFiles)(
    'a CSV upload of %s is a 400 naming the problem; the table stays readable',
    async (_, content, message) => {
      const { t, cookie } = await ownerApp();
      const table = await createTable(t, cookie, { name: 'Kept', columns: [{ displayName: 'A' }], rows: [['kept']] });
      const before = await getTable(t, cookie, table.id);
      expect(expectClientError(await uploadCsv(t, cookie, table.id, content), 'upload')).toMatch(message);
      expect(await getTable(t, cookie, table.id)).toEqual(before);
      expect(ok(await infiniteScroll(t, cookie, table.id, { page: 1, pageSize: 50 })).data).toHaveLength(1);
    },
  );

  it('a CSV of a header only makes an empty table of those columns (not an error)', async () => {
    const { t, cookie } = await ownerApp();
    const table = await createTable(t, cookie, { name: 'Kept', columns: [{ displayName: 'A' }], rows: [['kept']] });
    expect(ok(await uploadCsv(t, cookie, table.id, 'x,y\n'))).toMatchObject({ rowCount: 0 });
    expect((await getTable(t, cookie, table.id)).columns.map((c) => c.displayName)).toEqual(['x', 'y']);
  });
});

describe('hostile input corpus: names in exports', () => {
  const names = [
    "'Quarter'",
    "'",
    'Q1: [draft] *?/\\ plan',
    'History',
    'A name that is far longer than the thirty-one characters a sheet may have',
    'Sales "2026"; filename=evil.exe',
    'Prévisions – 2026 📈📈📈📈📈📈📈📈📈📈📈📈📈📈',
    'Broken \ud800 surrogate',
    '../../etc/passwd',
  ];

  it('XLSX and CSV exports of models and pivots named with any text answer 200 with a safe file and sheet name', async () => {
    const { t, cookie } = await ownerApp();
    const source = await tableFromCsv(t, cookie, 'region,amount\nNorth,10\nSouth,5\n', 'Sales');
    const created = await createModel(t, cookie, 'Model');
    await addColumn(t, cookie, created.id, rawColumn(source, 'region'));
    const model = await addColumn(t, cookie, created.id, rawColumn(source, 'amount'));
    const region = modelKey(model, 'region');
    const amount = modelKey(model, 'amount');
    for (const name of names) {
      ok(await modelApi(t, cookie, 'PUT', `/api/models/${model.id}`, { name }));
      const pivot = { key: 'p1', name, rows: [{ column: region }], values: [{ column: amount, function: 'Sum' }] };
      ok(await modelApi(t, cookie, 'PUT', `/api/models/${model.id}/pivots`, { pivots: [pivot] }));
      for (const format of ['xlsx', 'csv']) {
        const res = await call(t.server, 'GET', `/api/models/${model.id}/export/pivot?pivotKey=p1&format=${format}`, {
          cookie,
        });
        expect(res.status, `${name} ${format}: ${res.raw.body.slice(0, 200)}`).toBe(200);
        expectSafeDisposition(res.headers['content-disposition'], name);
        if (format === 'xlsx') {
          const workbook = new ExcelJS.Workbook();
          await workbook.xlsx.load(res.raw.rawPayload as unknown as ArrayBuffer);
          const sheet = workbook.worksheets[0]!;
          expect(sheet.name.length, name).toBeLessThanOrEqual(31);
          expect(sheet.name, name).not.toMatch(/^'|'$|[[\]:*?/\\]/);
        }
      }
      const download = await call(t.server, 'GET', `/api/tables/ModelVersion/${model.versionId}/download?format=csv`, {
        cookie,
      });
      expect(download.status, name).toBe(200);
      expectSafeDisposition(download.headers['content-disposition'], name);
      ok(await call(t.server, 'PUT', `/api/static-tables/${source.id}`, { cookie, body: { name } }));
      const tableDownload = await call(t.server, 'GET', `/api/tables/StaticTable/${source.id}/download?format=csv`, {
        cookie,
      });
      expect(tableDownload.status, name).toBe(200);
      expectSafeDisposition(tableDownload.headers['content-disposition'], name);
    }
  });
});

function expectSafeDisposition(header: unknown, name: string): void {
  expect(typeof header, name).toBe('string');
  const value = header as string;
  expect(value, name).toMatch(/^attachment; filename="[\x20-\x7e]+"; filename\*=UTF-8''[A-Za-z0-9%._~!-]+$/);
  const quoted = /filename="([^"]*)"/.exec(value)![1]!;
  expect(quoted, name).not.toMatch(/[/\\"]/);
}

describe('hostile input corpus: numbers out of range', () => {
  it('a formula that overflows is a 400 naming its column on every read: grid, count, download, pivot, tRPC', async () => {
    const { t, cookie } = await ownerApp();
    const source = await tableFromCsv(t, cookie, 'n,label\n9000000000000000000,a\n5,b\n', 'Big');
    const created = await createModel(t, cookie, 'Overflowing');
    await addColumn(t, cookie, created.id, rawColumn(source, 'n'));
    let model = await addColumn(t, cookie, created.id, rawColumn(source, 'label'));
    model = await addColumn(t, cookie, created.id, {
      displayName: 'Times ten',
      function: `[${modelKey(model, 'n')}] * 10`,
    });
    const times = modelKey(model, 'Times ten');
    const pivot = {
      key: 'p1',
      name: 'P',
      rows: [{ column: modelKey(model, 'label') }],
      values: [{ column: times, function: 'Sum' }],
    };
    ok(await modelApi(t, cookie, 'PUT', `/api/models/${model.id}/pivots`, { pivots: [pivot] }));
    const version = model.versionId;
    const named =
      /^The column "Times ten" has a value out of range for its type \(Overflow in multiplication of INT64 .*\)\./;
    const filter = { filterGroups: [{ filters: [{ columnKey: times, operator: 'GreaterThan', value: 0 }] }] };
    const reads: Array<[string, () => Promise<CallResult>]> = [
      [
        'grid page',
        () =>
          call(t.server, 'POST', `/api/tables/ModelVersion/${version}/data/infinite-scroll`, {
            cookie,
            body: { page: 1, pageSize: 50 },
          }),
      ],
      [
        'filtered count',
        () => call(t.server, 'POST', `/api/tables/ModelVersion/${version}/data/count`, { cookie, body: filter }),
      ],
      ['download', () => call(t.server, 'GET', `/api/tables/ModelVersion/${version}/download?format=csv`, { cookie })],
      [
        'pivot page',
        () =>
          call(t.server, 'POST', `/api/tables/ModelVersion/${version}/resources/p1/Pivot/data/infinite-scroll`, {
            cookie,
            body: {},
          }),
      ],
      [
        'pivot export',
        () => call(t.server, 'GET', `/api/models/${model.id}/export/pivot?pivotKey=p1&format=xlsx`, { cookie }),
      ],
      [
        'tRPC page',
        () => trpcQuery(t, 'tables.page', { type: 'ModelVersion', id: version, page: 1, pageSize: 50 }, cookie),
      ],
      ['tRPC pivot', () => trpcQuery(t, 'models.pivotPage', { versionId: version, pivotKey: 'p1', page: 1 }, cookie)],
    ];
    for (const [what, read] of reads) expect(expectClientError(await read(), what), what).toMatch(named);
    // Published, the view overflows the same way.
    ok(await modelApi(t, cookie, 'POST', `/api/models/${model.id}/publish`));
    const published = await call(t.server, 'POST', `/api/tables/ModelVersion/${version}/data/infinite-scroll`, {
      cookie,
      body: { page: 1, pageSize: 50 },
    });
    expect(expectClientError(published, 'published grid')).toMatch(named);
    // Rows that do not overflow still read.
    const fine = {
      filterGroups: [{ filters: [{ columnKey: modelKey(model, 'label'), operator: 'Equals', value: 'b' }] }],
    };
    const rows = await call<{ data: Record<string, unknown>[] }>(
      t.server,
      'POST',
      `/api/tables/ModelVersion/${version}/data/infinite-scroll`,
      {
        cookie,
        body: { page: 1, pageSize: 50, ...fine },
      },
    );
    expect(ok(rows).data.map((r) => r[times])).toEqual([50]);
  });

  it('dates pushed past the calendar and casts out of range are a 400 naming the column too', async () => {
    const { t, cookie } = await ownerApp();
    const source = await tableFromCsv(t, cookie, 'day,label\n2026-01-05,a\n', 'Days');
    const created = await createModel(t, cookie, 'Far');
    const model = await addColumn(t, cookie, created.id, rawColumn(source, 'day'));
    const day = modelKey(model, 'day');
    const formulas: Array<[string, string, RegExp]> = [
      ['Far future', `DATE_ADD([${day}], 999999999, 'day')`, /not in timestamp range/],
      ['Too many years', `DATE_ADD([${day}], 99999999999999, 'year')`, /out of range/],
    ];
    for (const [name, formula, detail] of formulas) {
      const added = await addColumn(t, cookie, created.id, { displayName: name, function: formula });
      const res = await call(t.server, 'POST', `/api/tables/ModelVersion/${added.versionId}/data/infinite-scroll`, {
        cookie,
        body: { page: 1, pageSize: 50 },
      });
      const message = expectClientError(res, name);
      expect(message).toMatch(new RegExp(`^The column "${name}" has a value out of range for its type`));
      expect(message).toMatch(detail);
      ok(await modelApi(t, cookie, 'DELETE', `/api/models/${created.id}/columns/${modelKey(added, name)}`));
    }
  });
});
