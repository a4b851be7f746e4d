/**
 * Property tests: random big integers, decimals, dates and strings go from a source (a JSON API,
 * a real PostgreSQL) to the warehouse, back through the tables API and out as CSV and Parquet
 * downloads, and every value is still the one the source held. Plus the exact number helpers on
 * their own, against BigInt arithmetic.
 */
import fc from 'fast-check';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  compareDecimals,
  fitsDouble,
  normalDecimal,
  plainDecimal,
} from '../../../../src/server/exact-values/decimal-text';
import { exactJsonText, ExactNumber, parseJsonExact } from '../../../../src/server/exact-values/json';
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
import { adminClient, findPostgresBin, startPostgres, type PostgresPeer } from '../peers/postgres';
import { postgresIntegration } from './postgres-integration';
import { apiRows, downloadRows, warehouseTypes, type Row } from './exports';
import { canonical, type Kind } from './renderings';

const INT64_MAX = (1n << 63n) - 1n;

const int64 = fc.bigInt({ min: -INT64_MAX - 1n, max: INT64_MAX });
/** Decimals of up to 38 digits: sign, integer digits, a fraction of a fixed scale. */
const decimal = (scale: number, intDigits: number) =>
  fc
    .tuple(
      fc.boolean(),
      fc.bigInt({ min: 0n, max: 10n ** BigInt(intDigits) - 1n }),
      fc.bigInt({ min: 0n, max: 10n ** BigInt(scale) - 1n }),
    )
    .map(
      ([negative, whole, fraction]) =>
        `${negative ? '-' : ''}${whole}${scale > 0 ? `.${String(fraction).padStart(scale, '0')}` : ''}`,
    );
const isoDate = fc
  .tuple(fc.integer({ min: 0, max: 9999 }), fc.integer({ min: 1, max: 12 }), fc.integer({ min: 1, max: 28 }))
  .map(([y, m, d]) => `${String(y).padStart(4, '0')}-${String(m).padStart(2, '0')}-${String(d).padStart(2, '0')}`);
/** Any text: unicode, quotes, separators, line breaks, '' (never a lone surrogate: not text). */
const text = fc.oneof(
  fc.string({ unit: 'grapheme', maxLength: 30 }),
  fc.constantFrom('', ' ', 'NULL', 'null', '""', '"a, b"', 'line\nbreak\r\n', '\\N', 'tab\t'),
);

/** The decimal text of `units` × 10^-scale, e.g. (-1000n, 10) → `-0.0000001000`. */
function withScale(units: bigint, scale: number): string {
  const digits = (units < 0n ? -units : units).toString().padStart(scale + 1, '0');
  return `${units < 0n ? '-' : ''}${digits.slice(0, -scale)}.${digits.slice(-scale)}`;
}

describe('exact numbers on their own', () => {
  it('parseJsonExact and exactJsonText give back every number token as written', () => {
    const token = fc.oneof(
      int64.map(String),
      fc.bigInt({ min: -(10n ** 40n), max: 10n ** 40n }).map(String),
      decimal(20, 18),
      fc.double({ noNaN: true, noDefaultInfinity: true }).map((n) => String(n)),
      fc.constantFrom('1.50', '1e5', '-0', '1E-7', '0.0000001', '123456789012345678901234567890.5'),
    );
    fc.assert(
      fc.property(fc.array(token, { maxLength: 20 }), fc.string(), (tokens, s) => {
        const source = `{"numbers": [${tokens.join(', ')}], "text": ${JSON.stringify(s)}}`;
        const parsed = parseJsonExact(source) as { numbers: unknown[]; text: string };
        expect(parsed.text).toBe(s);
        parsed.numbers.forEach((value, i) => {
          const written = tokens[i] as string;
          if (value instanceof ExactNumber) expect(value.text).toBe(written);
          else expect(String(value)).toBe(written); // JSON.parse printed it back identically
        });
        // Written back exactly, it reads the same again.
        expect(parseJsonExact(exactJsonText(parsed))).toEqual(parsed);
      }),
    );
  });

  it('decimal text compares, spells and fits doubles exactly', () => {
    fc.assert(
      fc.property(decimal(10, 20), decimal(10, 20), (a, b) => {
        const scaled = (x: string) => BigInt(x.replace('.', ''));
        const expected = scaled(a) < scaled(b) ? -1 : scaled(a) > scaled(b) ? 1 : 0;
        expect(compareDecimals(a, b)).toBe(expected);
        expect(plainDecimal(`${a}e0`)).toBe(plainDecimal(a));
        expect(normalDecimal(plainDecimal(`${a}e3`) as string)).toBe(
          normalDecimal(plainDecimal(withScale(scaled(a) * 1000n, 10)) as string),
        );
        // A double fits when it prints back as the same number: exactly when JSON would keep it.
        expect(fitsDouble(a)).toBe(normalDecimal(plainDecimal(String(Number(a))) as string) === normalDecimal(a));
      }),
    );
  });
});

/** One record of random values, and the kinds they are compared as. */
const KINDS: Record<string, Kind> = {
  id: 'int',
  small: 'int',
  big: 'decimal',
  amount: 'decimal',
  day: 'date',
  label: 'text',
};

const recordOf = fc.record({
  small: int64,
  big: fc.bigInt({ min: -(10n ** 37n), max: 10n ** 37n }),
  amount: decimal(12, 20),
  day: isoDate,
  label: text,
});

describe('random values survive a REST API sync, the tables API and both downloads', () => {
  let peer: ApiPeer;
  let served = '[]';
  beforeAll(async () => {
    peer = await startApi({ '/items': () => ({ raw: served }) });
  });
  afterAll(() => peer?.close());

  it('holds for every run', async () => {
    const t = await makeApp({ CONNECTOR_PRIVATE_NETWORKS: 'true' });
    const cookie = await signIn(t, 'owner@example.com');
    // Discovery sees a record of every kind, so each column's format is known from the start.
    served = exactJsonText([
      {
        id: 1,
        small: new ExactNumber('9223372036854775807'),
        big: new ExactNumber(`1${'0'.repeat(30)}`),
        amount: new ExactNumber('0.30000000000000000001'),
        day: '2024-01-01',
        label: 'x',
      },
    ]);
    const definition = await definitionNamed(t, cookie, 'REST API');
    const created = ok(
      await createIntegration(t, cookie, {
        integrationDefinitionId: definition.id,
        name: 'Random',
        schemaName: 'random',
        configuration: { base_url: peer.baseUrl, streams: [{ name: 'items', path: '/items', primary_key: 'id' }] },
      }),
      201,
    );
    await t.services.integrations.idle();
    await selectDatasets(t, cookie, created.id, { items: { syncType: 'FullRefresh', dataIngestionType: 'Overwrite' } });
    const accountId = await accountOf(t, created.id);

    await fc.assert(
      fc.asyncProperty(fc.array(recordOf, { minLength: 1, maxLength: 30 }), async (drawn) => {
        const records = drawn.map((r, i) => ({
          id: i + 1,
          small: new ExactNumber(String(r.small)),
          big: new ExactNumber(String(r.big)),
          amount: new ExactNumber(r.amount),
          day: r.day,
          label: r.label,
        }));
        served = exactJsonText(records);
        t.clock.advance(60_000);
        expectCompleted(await syncNow(t, cookie, created.id));
        const datasetId = await firstDataset(t, cookie, created.id);
        const types = await warehouseTypes(t, accountId, 'random', 'items');
        expect(types).toMatchObject({ small: 'BIGINT', day: 'DATE', label: 'VARCHAR' });
        const source = records.map((r) => Object.fromEntries(Object.entries(r).map(([k, v]) => [k, String(v)])));
        await expectEverywhere(t, cookie, datasetId, types, source);
      }),
      { numRuns: 8 },
    );
  }, 180_000);
});

/** A JSON value token of any kind a field may hold, spelled as an API might (numbers as written). */
const mixedToken = fc.oneof(
  // Numbers and literals, as written.
  fc.constantFrom('null', 'true', 'false', '0', '-0', '1E+2', '1e400', '0.1', '0.30000000000000004', '1.50'),
  int64.map(String),
  fc.bigInt({ min: -(10n ** 30n), max: 10n ** 30n }).map(String),
  // Strings, quoted: text the warehouse would read as another value, and any text.
  fc
    .constantFrom(
      '00501',
      '1e2',
      ' 7 ',
      '7',
      '-0',
      '0.50',
      '+1',
      'NaN',
      'true',
      '',
      '-0044-03-15',
      'epoch',
      ' 2024-01-01',
    )
    .map((text) => JSON.stringify(text)),
  fc
    .oneof(
      fc.string({ maxLength: 8 }),
      fc
        .tuple(fc.integer({ min: 1, max: 9999 }), fc.integer({ min: 1, max: 12 }), fc.integer({ min: 1, max: 28 }))
        .map(([y, m, d]) => [y, m, d].map((n, k) => String(n).padStart(k === 0 ? 4 : 2, '0')).join('-')),
    )
    .map((text) => JSON.stringify(text)),
);

describe('mixed values in one field survive a REST API sync exactly, whatever discovery saw', () => {
  let peer: ApiPeer;
  let served = '{"data": []}';
  beforeAll(async () => {
    peer = await startApi({ '/items': () => ({ raw: served }) });
  });
  afterAll(() => peer?.close());

  it('holds for every run: each value reads back as itself, or as its exact text when its column became text', async () => {
    const t = await makeApp({ CONNECTOR_PRIVATE_NETWORKS: 'true' });
    const cookie = await signIn(t, 'owner@example.com');
    const definition = await definitionNamed(t, cookie, 'REST API');
    await fc.assert(
      fc.asyncProperty(fc.array(mixedToken, { minLength: 2, maxLength: 12 }), async (tokens) => {
        // JSON tokens as the API writes them: strings quoted, numbers as spelled.
        const body = `{"data": [${tokens.map((v, i) => `{"id": ${i + 1}, "v": ${v}}`).join(', ')}]}`;
        // Discovery sees the first record only; the sync reads them all.
        served = `{"data": [{"id": 1, "v": ${tokens[0]}}]}`;
        const created = ok(
          await createIntegration(t, cookie, {
            integrationDefinitionId: definition.id,
            name: 'Mixed',
            schemaName: `mixed_${Math.random().toString(36).slice(2, 8)}`,
            configuration: {
              base_url: peer.baseUrl,
              streams: [{ name: 'items', path: '/items', primary_key: 'id', record_selector: 'data' }],
            },
          }),
          201,
        );
        await t.services.integrations.idle();
        await selectDatasets(t, cookie, created.id, {
          items: { syncType: 'FullRefresh', dataIngestionType: 'Overwrite' },
        });
        served = body;
        t.clock.advance(60_000);
        expectCompleted(await syncNow(t, cookie, created.id));
        const datasetId = await firstDataset(t, cookie, created.id);
        const rows = await apiRows(t, cookie, datasetId, 'id');
        const parsed = (parseJsonExact(body) as { data: Row[] }).data;
        expect(rows.length).toBe(parsed.length);
        rows.forEach((row, i) => {
          const source = parsed[i]?.v;
          const got = row.v;
          const token = tokens[i] as string;
          if (source === null) return expect(got, token).toBeNull();
          if (typeof source === 'string' || typeof source === 'boolean') {
            // As itself, or in a column of its kind as the value its text spells ('7' as 7, 'true' as true).
            // A plain decimal string stored as a DECIMAL is that number ('0.50' in DECIMAL(p,2) reads 0.5,
            // as the API writes every number); a spelling that says more (00501, +1, ' 7 ') never is.
            const decimalOf = (text: string) => (/^-?(0|[1-9]\d*)(\.\d+)?$/.test(text) ? plainDecimal(text) : null);
            const sourceDecimal = typeof source === 'string' ? decimalOf(source) : null;
            const gotDecimal = typeof got === 'number' ? plainDecimal(String(got)) : null;
            const sameNumber =
              sourceDecimal !== null && gotDecimal !== null && compareDecimals(gotDecimal, sourceDecimal) === 0;
            return expect(
              got === source || String(got) === String(source) || sameNumber,
              `${token} read as ${JSON.stringify(got)}`,
            ).toBe(true);
          }
          // A number: the same decimal value, and the very spelling when it is text.
          const text = source instanceof ExactNumber ? source.text : String(source);
          if (typeof got === 'string' && plainDecimal(got) === null) throw new Error(`${token} read as ${got}`);
          const same =
            got === text ||
            (plainDecimal(String(got)) !== null &&
              plainDecimal(text) !== null &&
              compareDecimals(plainDecimal(String(got)) as string, plainDecimal(text) as string) === 0);
          expect(same, `${token} read as ${JSON.stringify(got)}`).toBe(true);
        });
      }),
      { numRuns: 60 },
    );
  }, 180_000);
});

async function accountOf(t: TestApp, integrationId: string): Promise<string> {
  const row = await t.deps.db
    .selectFrom('integrations')
    .select('account_id')
    .where('id', '=', integrationId)
    .executeTakeFirstOrThrow();
  return String(row.account_id);
}

async function firstDataset(t: TestApp, cookie: string, integrationId: string): Promise<string> {
  const detail = ok(await api<Integration>(t, cookie, 'GET', `/api/integrations/${integrationId}`));
  return detail.datasets[0]!.id;
}

/** Every row through the tables API and both downloads equals `source` (text of each value, by id). */
async function expectEverywhere(
  t: TestApp,
  cookie: string,
  datasetId: string,
  types: Record<string, string>,
  source: Row[],
): Promise<void> {
  const check = (rows: Row[], printer: 'api' | 'duckdb', how: string) => {
    expect(rows.length, how).toBe(source.length);
    rows.forEach((row, i) => {
      for (const [name, kind] of Object.entries(KINDS)) {
        expect(canonical(kind, row[name], printer), `${how} ${i} ${name}`).toBe(
          canonical(kind, (source[i] as Row)[name], 'source'),
        );
      }
    });
  };
  check(await apiRows(t, cookie, datasetId, 'id'), 'api', 'tables API');
  for (const format of ['csv', 'parquet'] as const) {
    check(await downloadRows(t, cookie, datasetId, format, 'id', types), 'duckdb', `${format} download`);
  }
}

const bin = findPostgresBin();

describe.skipIf(!bin)('random values survive a PostgreSQL sync, the tables API and both downloads', () => {
  let peer: PostgresPeer;
  let admin: pg.Client;

  beforeAll(async () => {
    peer = await startPostgres();
    admin = await adminClient(peer);
    await admin.query(`CREATE TABLE random_values (id int PRIMARY KEY, small bigint, big numeric(38,0), amount numeric,
      day date, label text)`);
  }, 120_000);
  afterAll(async () => {
    await admin?.end();
    await peer?.stop();
  });

  /** Dates of any era PostgreSQL and DuckDB share, BC included. */
  const pgDate = fc
    .tuple(fc.integer({ min: -4712, max: 9999 }), fc.integer({ min: 1, max: 12 }), fc.integer({ min: 1, max: 28 }))
    .map(
      ([y, m, d]) =>
        `${String(y <= 0 ? 1 - y : y).padStart(4, '0')}-${String(m).padStart(2, '0')}-${String(d).padStart(2, '0')}${y <= 0 ? ' BC' : ''}`,
    );
  const pgRecord = fc.record({
    small: int64,
    big: fc.bigInt({ min: -(10n ** 38n) + 1n, max: 10n ** 38n - 1n }),
    amount: fc.integer({ min: 0, max: 20 }).chain((scale) => decimal(scale, 38 - scale - 1)),
    day: pgDate,
    label: text.filter((s) => !s.includes('\0')), // PostgreSQL text cannot hold NUL
  });

  it('holds for every run', async () => {
    const t = await makeApp({ CONNECTOR_PRIVATE_NETWORKS: 'true' });
    const cookie = await signIn(t, 'owner@example.com');
    const created = await postgresIntegration(t, cookie, peer, { name: 'Random pg', schemaName: 'random_pg' });
    await selectDatasets(t, cookie, created.id, {
      random_values: { syncType: 'FullRefresh', dataIngestionType: 'Overwrite' },
    });
    const accountId = await accountOf(t, created.id);

    await fc.assert(
      fc.asyncProperty(fc.array(pgRecord, { minLength: 1, maxLength: 30 }), async (drawn) => {
        await admin.query('TRUNCATE random_values');
        for (const [i, r] of drawn.entries()) {
          await admin.query('INSERT INTO random_values VALUES ($1, $2, $3, $4, $5, $6)', [
            i + 1,
            String(r.small),
            String(r.big),
            r.amount,
            r.day,
            r.label,
          ]);
        }
        t.clock.advance(60_000);
        expectCompleted(await syncNow(t, cookie, created.id));
        const types = await warehouseTypes(t, accountId, 'random_pg', 'random_values');
        const { rows: source } = await admin.query({
          text: 'SELECT id, small, big, amount, day, label FROM random_values ORDER BY id',
          types: { getTypeParser: () => (v: string) => v },
        });
        await expectEverywhere(t, cookie, await firstDataset(t, cookie, created.id), types, source as Row[]);
      }),
      { numRuns: 8 },
    );
  }, 180_000);
});
