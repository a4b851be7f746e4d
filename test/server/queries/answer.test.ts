/**
 * answerQuestion on a real app: the account's tables become the catalogue, the grammar's query
 * runs on the account's warehouse with its reading and Show SQL, another account's tables are not
 * seen, and the optional language model (a local fake OpenAI-compatible server) is asked only what
 * the grammar cannot read, its answer validated (never SQL).
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it, onTestFinished } from 'vitest';
import { answerQuestion, runStoredQuery, type QuestionEnv } from '../../../src/server/modules/queries/answer';
import { makeApp, makeTeam, type TestApp } from '../helpers';
import { appWithTwoTeams, createTable } from '../static-tables/helpers';

const TODAY = new Date('2026-03-04T10:00:00Z');

async function envFor(t: TestApp, accountId: string, userId: string): Promise<QuestionEnv> {
  const user = await t.deps.db.selectFrom('users').selectAll().where('id', '=', userId).executeTakeFirstOrThrow();
  return { deps: t.deps, services: t.services, ctx: { user, accountId, roles: ['Admin'] } };
}

async function withInvoices(t: TestApp) {
  const team = await makeTeam(t);
  await createTable(t, team.owner.cookie, {
    name: 'invoices',
    columns: [{ displayName: 'customer' }, { displayName: 'status' }],
    rows: [
      ['Acme', 'paid'],
      ['Acme', 'open'],
      ['Globex', 'paid'],
    ],
  });
  return { team, env: await envFor(t, team.accountId, team.owner.userId) };
}

/** A fake /chat/completions that answers `content` and records what it was sent. */
async function fakeModel(content: string) {
  const bodies: unknown[] = [];
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => {
      bodies.push({ url: req.url, auth: req.headers.authorization, body: JSON.parse(body) as unknown });
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify({ choices: [{ message: { role: 'assistant', content } }] }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  onTestFinished(() => new Promise<void>((resolve) => server.close(() => resolve())));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`, bodies };
}

describe('answerQuestion', () => {
  it('answers from the account tables with reading, rows, Show SQL and a re-runnable query', async () => {
    const t = await makeApp();
    const { env } = await withInvoices(t);
    const statuses: string[] = [];
    const answer = await answerQuestion(env, 'how many paid invoices', {
      today: TODAY,
      onStatus: (s) => statuses.push(s),
    });
    expect(statuses).toEqual(['Matching columns', 'Running query']);
    expect(answer.reading).toBe('Count of invoices, status is paid, from invoices');
    expect(Number(answer.result?.rows[0]?.[0])).toBe(2);
    expect(answer.result?.sql).toContain("'paid'");
    expect(answer.text).toBe('Count of invoices: 2.');

    const byCustomer = await answerQuestion(env, 'invoices by customer', { today: TODAY });
    expect(byCustomer.result?.headers).toEqual(['customer', 'Count of invoices']);
    expect(byCustomer.result?.rows.map((r) => [r[0], Number(r[1])])).toEqual([
      ['Acme', 2],
      ['Globex', 1],
    ]);
    const pages = [];
    for await (const page of runStoredQuery(env, byCustomer.result?.query, {})) pages.push(...page.rows);
    expect(pages.length).toBe(2);
  });

  it('does not see another account tables and says so plainly', async () => {
    const { t, a, b } = await appWithTwoTeams();
    await createTable(t, a.owner.cookie, { name: 'invoices', columns: [{ displayName: 'status' }], rows: [['paid']] });
    const mine = await answerQuestion(await envFor(t, a.accountId, a.owner.userId), 'how many paid invoices', {
      today: TODAY,
    });
    expect(mine.text).toBe('Count of invoices: 1.');
    const env = await envFor(t, b.accountId, b.owner.userId);
    const answer = await answerQuestion(env, 'how many paid invoices', { today: TODAY });
    expect(answer.result).toBeNull();
    expect(answer.text).toMatch(/I could not find/);
  });

  it('asks the configured model only what the grammar cannot read, and validates its answer', async () => {
    const model = await fakeModel(
      JSON.stringify({
        table: 'invoices',
        measures: [{ function: 'CountUnique', column: 'customer' }],
        groupBy: [],
        filters: [],
      }),
    );
    const t = await makeApp({ LLM_BASE_URL: model.url, LLM_API_KEY: 'k-test', LLM_MODEL: 'fake' });
    const { env } = await withInvoices(t);
    await answerQuestion(env, 'how many paid invoices', { today: TODAY });
    expect(model.bodies).toHaveLength(0);
    const answer = await answerQuestion(env, 'quantas empresas diferentes nos pagaram', { today: TODAY });
    expect(model.bodies).toHaveLength(1);
    expect(model.bodies[0]).toMatchObject({ url: '/v1/chat/completions', auth: 'Bearer k-test' });
    expect(JSON.stringify(model.bodies[0])).toContain('json_object');
    expect(answer.reading).toBe('Count unique of customer, from invoices (read by the language model)');
    expect(Number(answer.result?.rows[0]?.[0])).toBe(2);
  });

  it('refuses a model answer that is not a valid query', async () => {
    const model = await fakeModel('SELECT * FROM invoices');
    const t = await makeApp({ LLM_BASE_URL: model.url, LLM_MODEL: 'fake' });
    const { env } = await withInvoices(t);
    const answer = await answerQuestion(env, 'quantas empresas diferentes nos pagaram', { today: TODAY });
    expect(answer.result).toBeNull();
    expect(answer.text).toMatch(/not a valid query, so I did not use it/);
  });
});
