/**
 * Save as report in Chromium (issue 14): a pivot saved as a PDF report from its page follows its
 * progress to 'Report ready'; on /reports it is shared for 1 day, the public link opened signed out
 * downloads the file, and once revoked the link says 'No file found…'. The PDF's first page is
 * rendered with pdftoppm to look at. A table's grid saves its filtered rows as a report too, and a
 * read_only member is offered no 'Save as report'.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FILE_MESSAGES, type SharedLink } from '../../src/shared/files';
import { launchBrowser, mailedLink, signIn, startServer, type RunningServer } from './harness';
import { api, tableFromCsv } from './workspace-fixture';

const OWNER = 'report.owner@example.com';
const READER = 'report.reader@example.com';
const SHOTS = '/tmp/shots';

const SALES_CSV = [
  'region,amount,units',
  'North,120.5,3',
  'South,80,2',
  'East,45.25,1',
  'West,200,5',
  'North,30,1',
  'South,10,1',
].join('\n');

interface ModelBody {
  id: string;
  versionId: string;
  columns: { columnKey: string; displayName: string }[];
}

describe('save as report', () => {
  let server: RunningServer;
  let browser: Browser;
  let page: Page;
  let model: ModelBody;
  let tableId = '';
  let reportName = '';
  let reportId = '';

  beforeAll(async () => {
    server = await startServer({ SIGNUP: 'open' });
    browser = await launchBrowser();
    page = await (
      await browser.newContext({ viewport: { width: 1440, height: 900 }, acceptDownloads: true })
    ).newPage();
    await signIn(page, server, OWNER);
    fs.mkdirSync(SHOTS, { recursive: true });
    const table = await tableFromCsv(page, server, 'Sales lines', SALES_CSV);
    tableId = table.id;
    model = await api<ModelBody>(page, server, 'post', '/api/models', { name: 'Sales' });
    for (const name of ['region', 'amount']) {
      model = await api<ModelBody>(page, server, 'post', `/api/models/${model.id}/columns`, {
        displayName: name[0]!.toUpperCase() + name.slice(1),
        sourceColumn: {
          sourceId: table.id,
          sourceType: 'StaticTable',
          columnKey: table.columns.find((c) => c.displayName === name)!.columnKey,
        },
      });
    }
    const key = (name: string) => model.columns.find((c) => c.displayName === name)!.columnKey;
    model = await api<ModelBody>(page, server, 'put', `/api/models/${model.id}/pivots`, {
      pivots: [
        {
          key: 'byregion',
          name: 'By region',
          rows: [{ column: key('Region') }],
          values: [{ column: key('Amount'), function: 'Sum' }],
          chart: { type: 'bar', shown: true },
        },
      ],
    });
  });

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('saves a pivot as a PDF report from its page and says when it is ready', async () => {
    await page.goto(`${server.url}/models/${model.id}/pivot/byregion`);
    await page.getByRole('figure').waitFor();
    await page.getByRole('button', { name: 'Export pivot' }).click();
    await page.getByRole('menuitem', { name: 'Save as report…' }).click();
    const dialog = page.getByRole('dialog', { name: 'Save as report' });
    await dialog.waitFor();
    expect(await dialog.getByLabel('Name').inputValue()).toBe('Sales - By region');
    await dialog.getByText('PDF', { exact: true }).click();
    await dialog.getByText(/A PDF holds the first 5,000 rows/).waitFor();
    await page.screenshot({ path: `${SHOTS}/report-dialog-1440.png` });
    await dialog.getByRole('button', { name: 'Save report' }).click();
    await dialog.waitFor({ state: 'hidden' });
    const notice = page.getByRole('alert').filter({ hasText: 'Report ready' });
    await notice.waitFor({ timeout: 60_000 });
    await notice.getByText('"Sales - By region.pdf" is ready to download.').waitFor();
    await page.screenshot({ path: `${SHOTS}/report-ready-1440.png` });
    reportName = 'Sales - By region.pdf';
    const list = await api<{ data: { id: string; name: string; status: string; originEntityType: string }[] }>(
      page,
      server,
      'get',
      '/api/files?type=Report',
    );
    expect(list.data).toEqual([
      expect.objectContaining({ name: reportName, status: 'Ready', originEntityType: 'Model' }),
    ]);
    reportId = list.data[0]!.id;
  });

  it('shares the PDF report for 1 day on /reports: downloaded signed out, then revoked', async () => {
    // The notice's link leads to the Reports page, where the report is listed.
    await page.getByRole('alert').getByRole('link', { name: 'Open Reports' }).click();
    await page.waitForURL(`${server.url}/reports`);
    const row = page.getByRole('row').filter({ hasText: reportName });
    await row.waitFor();
    await page.getByRole('button', { name: `Actions for ${reportName}` }).click();
    await page.getByRole('menuitem', { name: 'Create public URL' }).click();
    const dialog = page.getByRole('dialog', { name: 'Create public URL' });
    await dialog.getByRole('radio', { name: '1 day' }).check();
    await dialog.getByRole('button', { name: 'Create' }).click();
    await dialog.getByRole('button', { name: /^Copy public URL \(Expires / }).waitFor();
    await dialog.getByRole('button', { name: 'Done' }).click();
    const link = await api<SharedLink>(page, server, 'get', `/api/files/${reportId}/shared`);
    const hoursLeft = (Date.parse(link.expiresAt!) - Date.now()) / 3_600_000;
    expect(hoursLeft).toBeGreaterThan(23.5);
    expect(hoursLeft).toBeLessThanOrEqual(24);

    // Signed out: a fresh browser context with no session.
    const stranger = await (await browser.newContext({ acceptDownloads: true })).newPage();
    try {
      const downloading = stranger.waitForEvent('download', { timeout: 30_000 });
      await stranger.goto(link.downloadUrl);
      const download = await downloading;
      expect(download.suggestedFilename()).toBe(reportName);
      const saved = path.join(SHOTS, 'saved-report.pdf');
      await download.saveAs(saved);
      await stranger.getByText(FILE_MESSAGES.downloaded).waitFor();
      const pdf = fs.readFileSync(saved);
      expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
      // The first page as a picture (looked at by hand), and its words.
      execFileSync('pdftoppm', [
        '-png',
        '-r',
        '80',
        '-f',
        '1',
        '-l',
        '1',
        '-singlefile',
        saved,
        `${SHOTS}/saved-report`,
      ]);
      expect(fs.statSync(`${SHOTS}/saved-report.png`).size).toBeGreaterThan(5_000);
      const text = execFileSync('pdftotext', ['-layout', saved, '-'], { encoding: 'utf8' });
      expect(text).toContain('Sales - By region');
      expect(text).toMatch(/West\s+200\.00/);
      expect(text).toMatch(/North\s+150\.50/);

      await page.getByRole('button', { name: `Actions for ${reportName}` }).click();
      await page.getByRole('menuitem', { name: 'Revoke public URL' }).click();
      await expect.poll(() => row.textContent()).toContain('Not shared');
      await stranger.goto(link.downloadUrl);
      await stranger.getByText(FILE_MESSAGES.notFound).waitFor();
      await stranger.screenshot({ path: `${SHOTS}/report-link-revoked.png` });
    } finally {
      await stranger.context().close();
    }
  });

  it('offers Save as report in the chart view too, and the dialog fits a phone', async () => {
    await page.setViewportSize({ width: 390, height: 800 });
    await page.goto(`${server.url}/models/${model.id}/pivot/byregion`);
    await page.getByRole('button', { name: 'Export chart' }).click();
    await page.getByRole('menuitem', { name: 'Save as report…' }).click();
    const dialog = page.getByRole('dialog', { name: 'Save as report' });
    await dialog.getByRole('button', { name: 'Save report' }).waitFor();
    const box = (await dialog.boundingBox())!;
    expect(box.x).toBeGreaterThanOrEqual(0);
    expect(box.x + box.width).toBeLessThanOrEqual(390);
    await page.screenshot({ path: `${SHOTS}/report-dialog-390.png` });
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'hidden' });
    await page.setViewportSize({ width: 1440, height: 900 });
  });

  it("saves a table's filtered rows from the grid's Download menu", async () => {
    await page.goto(`${server.url}/tables/${tableId}`);
    await page.getByRole('grid').waitFor();
    await page.getByRole('button', { name: 'Download' }).click();
    await page.getByRole('menuitem', { name: 'Save as report…' }).click();
    const dialog = page.getByRole('dialog', { name: 'Save as report' });
    expect(await dialog.getByLabel('Name').inputValue()).toBe('Sales lines');
    await dialog.getByText('CSV', { exact: true }).click();
    await dialog.getByRole('button', { name: 'Save report' }).click();
    await page
      .getByRole('alert')
      .filter({ hasText: '"Sales lines.csv" is ready to download.' })
      .waitFor({ timeout: 60_000 });
  });

  it('offers a read_only member no Save as report', async () => {
    const reader = await (await browser.newContext({ viewport: { width: 1440, height: 900 } })).newPage();
    await signIn(reader, server, READER);
    await api(page, server, 'post', '/api/accounts/invite', { email: READER, roles: ['read_only'] });
    await reader.goto(await mailedLink(server.dataDir, READER, 'invite'));
    await reader.waitForURL(`${server.url}/`);
    await reader.goto(`${server.url}/models/${model.id}/pivot/byregion`);
    await reader.getByRole('button', { name: 'Export pivot' }).click();
    await reader.getByRole('menuitem', { name: 'XLSX' }).waitFor();
    expect(await reader.getByRole('menuitem', { name: 'Save as report…' }).count()).toBe(0);
    await reader.context().close();
  });
});
