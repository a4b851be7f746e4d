import fs from 'node:fs';
import net from 'node:net';
import nodemailer from 'nodemailer';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { LIMITS } from '../../../src/shared/limits';
import { makeApp, makeTeam } from '../helpers';
import { appWithTeam } from '../static-tables/helpers';
import {
  api,
  createIntegration,
  datasetRows,
  definitionNamed,
  logsOf,
  ok,
  type Integration,
  type Job,
} from './helpers';

describe('incoming e-mail intake', () => {
  it('loads data attachments into datasets named after the file, logs and ignores other files', async () => {
    const { t, team } = await appWithTeam();
    const cookie = team.owner.cookie;
    const definition = await definitionNamed(t, cookie, 'Incoming e-mail');
    expect(definition.canComplete).toBe(true);
    const inbox = ok(
      await createIntegration(t, cookie, {
        integrationDefinitionId: definition.id,
        name: 'Reports inbox',
        schemaName: 'reports',
      }),
      201,
    );
    expect(inbox.emailAddress).toMatch(/^reports\.[0-9a-f]{16}@localhost$/);

    const file = (name: string, content: string) => {
      const target = path.join(t.dataDir, name);
      fs.writeFileSync(target, content);
      return target;
    };
    const receive = (fileName: string, content: string, address = inbox.emailAddress!) =>
      t.services.integrations.receiveAttachment({
        address,
        fileName,
        contentType: 'text/plain',
        path: file(fileName, content),
      });

    expect(await receive('sales.csv', 'region,amount\nNorth,10\nSouth,12.5\n')).toEqual({
      stored: true,
      dataset: 'sales',
      rows: 2,
    });
    expect(await receive('stock.json', '[{"sku":"A","qty":3},{"sku":"B","qty":0}]')).toMatchObject({
      stored: true,
      rows: 2,
    });
    expect(await receive('notes.docx', 'binary')).toEqual({ stored: false, reason: 'Unsupported file type.' });
    expect(await receive('sales.csv', 'x', 'nobody@localhost')).toMatchObject({ stored: false });
    // A newer file replaces the dataset's rows; a broken one leaves them.
    expect(await receive('sales.csv', 'region,amount\nEast,7\n')).toMatchObject({ stored: true, rows: 1 });
    expect(await receive('stock.json', '[{"sku": ')).toMatchObject({ stored: false });

    const detail = ok(await api<Integration>(t, cookie, 'GET', `/api/integrations/${inbox.id}`));
    expect(detail.datasets.map((d) => d.name)).toEqual(['sales', 'stock']);
    const sales = await datasetRows(t, cookie, detail.datasets[0]!.id);
    expect(sales.map((r) => [r.region, r.amount])).toEqual([['East', 7]]);
    const stock = await datasetRows(t, cookie, detail.datasets[1]!.id);
    expect(stock.map((r) => r.sku)).toEqual(['A', 'B']);

    const jobs = ok(
      await api<{ data: Job[] }>(t, cookie, 'GET', `/api/integrations/${inbox.id}/jobs?PageSize=20`),
    ).data;
    const lines = (await Promise.all(jobs.map((j) => logsOf(t, cookie, inbox.id, j.id)))).flat().map((l) => l.line);
    expect(lines).toContain(
      '[WARN] Ignored notes.docx (text/plain): only CSV, JSON, XML, Parquet and Avro files are loaded.',
    );
    expect(lines).toContain('[INFO] sales.csv: 2 row(s) loaded into sales.');
    expect(lines.some((l) => l.startsWith('[ERROR] stock.json: could not be loaded'))).toBe(true);
  });
});

describe('incoming e-mail and the column limit', () => {
  it('refuses attachments wider than the limit (CSV, JSON, header-only), naming it; the dataset keeps its rows', async () => {
    const { t, team } = await appWithTeam();
    const cookie = team.owner.cookie;
    const definition = await definitionNamed(t, cookie, 'Incoming e-mail');
    const inbox = ok(
      await createIntegration(t, cookie, {
        integrationDefinitionId: definition.id,
        name: 'Inbox',
        schemaName: 'inbox',
      }),
      201,
    );
    const receive = (fileName: string, content: string) => {
      const target = path.join(t.dataDir, fileName);
      fs.writeFileSync(target, content);
      return t.services.integrations.receiveAttachment({
        address: inbox.emailAddress!,
        fileName,
        contentType: 'text/plain',
        path: target,
      });
    };
    expect(await receive('sales.csv', 'region,amount\nNorth,10\n')).toMatchObject({ stored: true, rows: 1 });
    const names = (count: number) => Array.from({ length: count }, (_, i) => `c${i}`);
    const limit = `a dataset can have at most ${LIMITS.maxColumns}.`;
    const wideCsv = `${names(6_000).join(',')}\n${names(6_000).join(',')}\n`;
    expect(await receive('sales.csv', wideCsv)).toEqual({
      stored: false,
      reason: `The file has 6000 columns; ${limit}`,
    });
    const justOver = names(LIMITS.maxColumns + 1).join(',');
    expect(await receive('sales.csv', `${justOver}\n`)).toEqual({
      stored: false,
      reason: `The file has 501 columns; ${limit}`,
    });
    const wideJson = JSON.stringify([Object.fromEntries(names(600).map((n, i) => [n, i]))]);
    expect(await receive('sales.json', wideJson)).toEqual({
      stored: false,
      reason: `The file has 600 columns; ${limit}`,
    });

    const detail = ok(await api<Integration>(t, cookie, 'GET', `/api/integrations/${inbox.id}`));
    expect(detail.datasets.map((d) => d.name)).toEqual(['sales']);
    const rows = await datasetRows(t, cookie, detail.datasets[0]!.id);
    expect(rows.map((r) => [r.region, r.amount])).toEqual([['North', 10]]);
  });
});

async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

describe('incoming e-mail over SMTP', () => {
  it('mail delivered to the listener lands in the integration; unknown addresses are refused', async () => {
    const port = await freePort();
    const t = await makeApp({
      SMTP_LISTEN_PORT: String(port),
      INCOMING_EMAIL_DOMAIN: 'in.example.com',
      HOST: '127.0.0.1',
    });
    const team = await makeTeam(t);
    const cookie = team.owner.cookie;
    const definition = await definitionNamed(t, cookie, 'Incoming e-mail');
    const inbox = ok(
      await createIntegration(t, cookie, {
        integrationDefinitionId: definition.id,
        name: 'Inbox',
        schemaName: 'inbox',
      }),
      201,
    );
    expect(inbox.emailAddress).toMatch(/^inbox\.[0-9a-f]{16}@in\.example\.com$/);
    const transport = nodemailer.createTransport({ host: '127.0.0.1', port, secure: false, ignoreTLS: true });
    await transport.sendMail({
      from: 'reports@example.org',
      to: inbox.emailAddress!,
      subject: 'Daily numbers',
      text: 'See attached.',
      attachments: [
        { filename: 'orders.csv', content: 'id,total\n1,9.5\n2,20\n', contentType: 'text/csv' },
        { filename: 'readme.docx', content: 'not data', contentType: 'application/octet-stream' },
        // A name longer than a file name may be on disk still lands.
        { filename: `${'quarterly-'.repeat(30)}.csv`, content: 'id\n7\n', contentType: 'text/csv' },
      ],
    });
    await expect(transport.sendMail({ from: 'a@example.org', to: 'nobody@in.example.com', text: 'x' })).rejects.toThrow(
      /550/,
    );
    transport.close();

    const detail = ok(await api<Integration>(t, cookie, 'GET', `/api/integrations/${inbox.id}`));
    expect(detail.datasets.map((d) => d.name)).toEqual(['orders', 'quarterly-'.repeat(30).slice(0, -1)]);
    const rows = await datasetRows(t, cookie, detail.datasets[0]!.id);
    expect(rows.map((r) => [r.id, r.total])).toEqual([
      [1, 9.5],
      [2, 20],
    ]);
    const jobs = ok(await api<{ data: Job[] }>(t, cookie, 'GET', `/api/integrations/${inbox.id}/jobs`)).data;
    const lines = (await Promise.all(jobs.map((j) => logsOf(t, cookie, inbox.id, j.id)))).flat().map((l) => l.line);
    expect(lines.some((l) => l.startsWith('[WARN] Ignored attachment readme.docx'))).toBe(true);
  });
});
