/**
 * A chat answer's export holds the answer's values exactly, for values at the edges of their types:
 * the CSV an empty text as a quoted empty field and a null as an unquoted one (a group of '' and a
 * group of nulls stay two), the XLSX '' as an empty text and not a blank, and a date or date-time as
 * an Excel date only when Excel holds it exactly (years from 1900, at most milliseconds), else as the
 * answer's text: 2024-01-31T10:00:00.123456789Z was cut to .123, 0001-01-01 was a date Excel cannot show.
 */
import ExcelJS from 'exceljs';
import { describe, expect, it } from 'vitest';
import type { ChatMessage } from '../../../src/shared/chat';
import { resolveAccountContext } from '../../../src/server/modules/accounts/access';
import { findUserById } from '../../../src/server/modules/users/repo';
import { call, type TestApp } from '../helpers';
import { EDGE_COLUMNS, edgeTable } from '../tables/edge-values';
import { appWithTeam } from '../static-tables/helpers';
import { gridRows, parseCsv } from '../tables/export-compare';

async function ask(t: TestApp, userId: string, question: string): Promise<ChatMessage> {
  const user = await findUserById(t.deps.db, userId);
  if (!user) throw new Error('no user');
  const ctx = await resolveAccountContext(t.deps, user);
  const id = await t.services.chat.startConversation(ctx);
  return (await t.services.chat.send(ctx, id, question)).reply;
}

/** The answer's rows exported as CSV and as XLSX (cells as read back, header first). */
async function exports(t: TestApp, cookie: string, queryId: string) {
  const csv = await call(t.server, 'GET', `/api/chat/query/${queryId}/export`, { cookie });
  expect(csv.status).toBe(200);
  const xlsx = await call(t.server, 'GET', `/api/chat/query/${queryId}/export?format=xlsx`, { cookie });
  expect(xlsx.status).toBe(200);
  const book = new ExcelJS.Workbook();
  await book.xlsx.load(xlsx.raw.rawPayload as unknown as ArrayBuffer);
  const sheet = book.worksheets[0]!;
  const cells: ExcelJS.Cell[][] = [];
  sheet.eachRow({ includeEmpty: true }, (row) =>
    cells.push(Array.from({ length: sheet.columnCount }, (_, i) => row.getCell(i + 1))),
  );
  return { csv: parseCsv(csv.raw.body), xlsx: cells };
}

/** A CSV field as the answer's value reads: null unquoted and empty, '' quoted, the rest as their text. */
function expectCsvCell(cell: { text: string; quoted: boolean }, value: unknown, where: string) {
  if (value === null) expect(cell, where).toEqual({ text: '', quoted: false });
  else if (value === '') expect(cell, where).toEqual({ text: '', quoted: true });
  else expect(cell.text, where).toBe(typeof value === 'object' ? JSON.stringify(value) : String(value));
}

/** An XLSX cell holds the answer's value: a date exactly that instant, from 1900; the rest as themselves. */
function expectXlsxCell(cell: ExcelJS.Cell, value: unknown, where: string) {
  const held = cell.value;
  if (held instanceof Date) {
    expect(typeof value, where).toBe('string');
    const text = value as string;
    const iso = held.toISOString();
    expect(held.getUTCFullYear(), where).toBeGreaterThanOrEqual(1900);
    expect(text.length === 10 ? iso.slice(0, 10) : iso, where).toBe(
      text.length === 10 ? text : text.replace(/(\.\d{3})?Z$/, (m) => (m.length > 1 ? m : '.000Z')),
    );
    return;
  }
  const read =
    held && typeof held === 'object' && 'richText' in held ? held.richText.map((r) => r.text).join('') : held;
  if (value === null) expect(read, where).toBeNull();
  else if (typeof value === 'object') expect(read, where).toBe(JSON.stringify(value));
  else expect(read, where).toBe(value === 0 ? 0 : value);
}

describe('chat export of edge values', () => {
  it("a reply's rows and groups export as the answer has them, '' apart from null", async () => {
    const { t, team } = await appWithTeam();
    const cookie = team.owner.cookie;
    const table = await edgeTable(t, cookie, EDGE_COLUMNS);
    const grid = await gridRows(t, cookie, 'StaticTable', table.id);

    const reply = await ask(t, team.owner.userId, 'show edges');
    const result = reply.data?.data;
    if (!result) throw new Error(`no result: ${reply.text}`);
    // The answer is the grid's rows, in its order, with its values (as JSON carries them: -0 is 0).
    expect(JSON.parse(JSON.stringify(result.rows))).toEqual(
      grid.map((row) => table.columns.map((c) => row[c.columnKey])),
    );
    const rows = { headers: result.headers, rows: result.rows };

    const groups = await ask(t, team.owner.userId, 'sum of big by txt in edges');
    const grouped = groups.data?.data;
    if (!grouped) throw new Error(`no result: ${groups.text}`);
    expect(grouped.rows.map((row) => row[0])).toEqual(expect.arrayContaining(['', null]));

    for (const [answer, queryId] of [
      [rows, result.queryId],
      [{ headers: grouped.headers, rows: grouped.rows }, grouped.queryId],
    ] as const) {
      const { csv, xlsx } = await exports(t, cookie, queryId);
      expect(csv[0]!.map((c) => c.text)).toEqual(answer.headers);
      expect(xlsx[0]!.map((c) => c.value)).toEqual(answer.headers);
      expect(csv.length - 1).toBe(answer.rows.length);
      expect(xlsx.length - 1).toBe(answer.rows.length);
      answer.rows.forEach((row, r) =>
        row.forEach((value, i) => {
          const where = `row ${r + 1}, ${answer.headers[i]}: ${JSON.stringify(value)}`;
          expectCsvCell(csv[r + 1]![i]!, value, where);
          expectXlsxCell(xlsx[r + 1]![i]!, value, where);
        }),
      );
    }
  });
});

describe('chat replies of edge values', () => {
  it('a single value is said with every digit, an exact number as its text', async () => {
    const { t, team } = await appWithTeam();
    await edgeTable(t, team.owner.cookie, [
      {
        name: 'units',
        sqlType: 'BIGINT',
        type: 'Number',
        values: ['9223372036854775807', '-9223372036854775807', '9007199254740993', '3804'],
      },
      {
        name: 'amount',
        sqlType: 'DECIMAL(38,10)',
        type: 'Number',
        values: ['1234567890123456789.0123456789', '0.1', '12345678.1234567890', null],
      },
      { name: 'weight', sqlType: 'DOUBLE', type: 'Number', values: ['0.1', '0.2', '1e-300', '123456789.12345679'] },
      { name: 'label', sqlType: 'VARCHAR', type: 'Text', values: ['north', 'north', 'south', 'east'] },
    ]);
    const said = async (question: string) => (await ask(t, team.owner.userId, question)).text;
    // BIGINT sums past 2^53 and DECIMAL(38,10) sums are exact text; read as doubles they changed.
    expect(await said('sum of units in edges')).toBe('Sum of units: 9007199254744797.');
    expect(await said('sum of amount in edges')).toBe('Sum of amount: 1234567890135802467.2358024679.');
    // Doubles keep their digits (0.30000000000000004 was 0.3, 1e-300 was 0), grouped as the grid groups them.
    expect(await said('sum of weight in edges where label is north')).toBe('Sum of weight: 0.30000000000000004.');
    expect(await said('sum of weight in edges where label is south')).toBe('Sum of weight: 1e-300.');
    expect(await said('sum of weight in edges where label is east')).toBe('Sum of weight: 123,456,789.12345679.');
  });
});
