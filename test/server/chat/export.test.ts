/**
 * GET /api/chat/query/{queryId}/export: a reply's result as CSV (the default) or XLSX, the stored
 * query run again with every row; only for the user who asked, in that account.
 */
import ExcelJS from 'exceljs';
import { describe, expect, it } from 'vitest';
import { chatExportUrl, type ChatMessage } from '../../../src/shared/chat';
import { resolveAccountContext } from '../../../src/server/modules/accounts/access';
import { findUserById } from '../../../src/server/modules/users/repo';
import { call, makeApp, makeTeam, signIn, type TestApp } from '../helpers';
import { tableFromCsv } from '../static-tables/helpers';
import { parseCsv } from '../tables/export-compare';

const ORDERS_CSV = 'order_id,customer,country,amount\n1,Ann,France,10\n2,Bob,Spain,20\n3,Cid,France,30\n';

async function ask(t: TestApp, userId: string, question: string): Promise<ChatMessage> {
  const user = await findUserById(t.deps.db, userId);
  if (!user) throw new Error('no user');
  const ctx = await resolveAccountContext(t.deps, user);
  const id = await t.services.chat.startConversation(ctx);
  return (await t.services.chat.send(ctx, id, question)).reply;
}

describe('chat export', () => {
  it("downloads a reply's every row as CSV or XLSX, to the user who asked only", async () => {
    const t = await makeApp({ SIGNUP: 'open' });
    const team = await makeTeam(t);
    await tableFromCsv(t, team.owner.cookie, ORDERS_CSV, 'orders');
    const reply = await ask(t, team.owner.userId, 'how many orders by country');
    const result = reply.data?.data;
    if (!result) throw new Error(`no result: ${reply.text}`);
    expect(result.rowCount).toBeGreaterThan(1);
    const expected = [result.headers, ...result.rows].map((row) => row.map((v) => String(v)));

    const csv = await call(t.server, 'GET', `/api/chat/query/${result.queryId}/export`, { cookie: team.owner.cookie });
    expect(csv.status).toBe(200);
    expect(csv.headers['content-type']).toMatch(/^text\/csv/);
    expect(csv.headers['content-disposition']).toMatch(/attachment; filename="query-[\d-]+\.csv"/);
    const lines = parseCsv(csv.raw.body);
    expect(lines.length).toBe(result.rowCount + 1);
    expect(lines.map((row) => row.map((cell) => cell.text))).toEqual(expected);

    const xlsx = await call(t.server, 'GET', chatExportUrl(result.queryId, 'xlsx'), { cookie: team.owner.cookie });
    expect(xlsx.status).toBe(200);
    expect(xlsx.headers['content-type']).toBe('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(xlsx.raw.rawPayload as unknown as ArrayBuffer);
    const sheet = book.worksheets[0];
    const read: string[][] = [];
    sheet?.eachRow((row) => read.push((row.values as unknown[]).slice(1).map((v) => String(v))));
    expect(read).toEqual(expected);

    // Nobody else: another member of the account, another account, a signed-out caller.
    const admin = await call(t.server, 'GET', `/api/chat/query/${result.queryId}/export`, {
      cookie: team.admin.cookie,
    });
    expect(admin.status).toBe(404);
    const outsider = await signIn(t, 'outsider@example.com');
    const other = await call(t.server, 'GET', `/api/chat/query/${result.queryId}/export`, { cookie: outsider });
    expect(other.status).toBe(404);
    expect(other.raw.body).not.toContain('France');
    const anonymous = await call(t.server, 'GET', `/api/chat/query/${result.queryId}/export`);
    expect(anonymous.status).toBe(401);
    const badFormat = await call(t.server, 'GET', `/api/chat/query/${result.queryId}/export?format=pdf`, {
      cookie: team.owner.cookie,
    });
    expect(badFormat.status).toBe(400);
    expect((badFormat.body as { message: string }).message).toContain('Choose csv or xlsx.');
  });
});
