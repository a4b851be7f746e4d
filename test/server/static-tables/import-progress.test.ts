import { describe, expect, it } from 'vitest';
import type { ImportProgress } from '../../../src/shared/static-table-import';
import { call, makeApp, signIn, type CallResult } from '../helpers';
import { createTable, ok, query } from './helpers';

/** A CSV of `rows` rows, large enough that DuckDB reads and writes it over several progress reads. */
function bigCsv(rows: number): Buffer {
  const lines = ['id,name,amount,day'];
  for (let i = 0; i < rows; i += 1) {
    lines.push(`${i},Customer ${(i * 7919) % 1_000_003},${((i * 48_271) % 100_000) / 100},2024-01-${(i % 28) + 1}`);
  }
  return Buffer.from(`${lines.join('\n')}\n`);
}

function upload(t: Awaited<ReturnType<typeof makeApp>>, cookie: string, url: string, csv: Buffer) {
  const boundary = '----ws-import-progress';
  const body = Buffer.concat([
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="big.csv"\r\nContent-Type: text/csv\r\n\r\n`,
    ),
    csv,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return call(t.server, 'PUT', url, {
    cookie,
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
    body,
  });
}

const TOKEN = 'progress-test-token-0001';

describe('CSV import progress', () => {
  it('reports how far a large import has got, rising to Done, only to the user who started it', async () => {
    const t = await makeApp({ SIGNUP: 'open' });
    const cookie = await signIn(t, 'owner@example.com');
    const other = await signIn(t, 'other@example.com');
    const table = await createTable(t, cookie, { name: 'Big', columns: [{ displayName: 'A' }], rows: [['x']] });
    const csv = bigCsv(600_000);

    const seen: ImportProgress[] = [];
    const settled = { done: false };
    const answer = upload(t, cookie, `/api/static-tables/${table.id}/upload?mode=Replace&progress=${TOKEN}`, csv);
    void answer.finally(() => (settled.done = true));
    while (!settled.done) {
      const read = await query<ImportProgress | null>(t, 'staticTables.importProgress', { token: TOKEN }, cookie);
      expect(read.status).toBe(200);
      const progress = read.body.result.data;
      if (progress) seen.push(progress);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    const res: CallResult = await answer;
    ok(res);
    expect((res.body as { importedRows: number }).importedRows).toBe(600_000);

    // Read after the answer: the import is Done at 100%.
    const after = await query<ImportProgress | null>(t, 'staticTables.importProgress', { token: TOKEN }, cookie);
    expect(after.body.result.data).toEqual({ stage: 'Done', fraction: 1 });
    // Never backwards, and seen on the way (not only at the end).
    const fractions = seen.map((p) => p.fraction);
    expect(fractions).toEqual([...fractions].sort((a, b) => a - b));
    const during = seen.filter((p) => p.stage !== 'Done');
    expect(during.length).toBeGreaterThan(0);
    // DuckDB's own progress of reading or writing the rows: a fraction inside a stage, not only its start.
    const inside = seen.filter(
      (p) =>
        (p.stage === 'Reading' && p.fraction > 0 && p.fraction < 0.5) ||
        (p.stage === 'Writing' && p.fraction > 0.54 && p.fraction < 0.93),
    );
    expect(inside.length, JSON.stringify(seen)).toBeGreaterThan(0);

    // Another user (even knowing the token) sees nothing; a token never used gives null.
    const stranger = await query<ImportProgress | null>(t, 'staticTables.importProgress', { token: TOKEN }, other);
    expect(stranger.body.result.data).toBeNull();
    const unknown = await query<ImportProgress | null>(
      t,
      'staticTables.importProgress',
      { token: 'never-used-token-000000' },
      cookie,
    );
    expect(unknown.body.result.data).toBeNull();
  }, 120_000);

  it('refuses a malformed token on the upload and on the progress call', async () => {
    const t = await makeApp();
    const cookie = await signIn(t, 'owner@example.com');
    const table = await createTable(t, cookie, { name: 'T', columns: [{ displayName: 'A' }], rows: [['x']] });
    const res = await upload(t, cookie, `/api/static-tables/${table.id}/upload?progress=short`, Buffer.from('a\n1\n'));
    expect(res.status).toBe(400);
    const read = await query(t, 'staticTables.importProgress', { token: 'bad token!' }, cookie);
    expect(read.status).toBe(400);
  });
});
