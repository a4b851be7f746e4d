import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Me } from '../../src/shared/auth';
import { FILE_MESSAGES, type SharedLink } from '../../src/shared/files';
import { formatFileSize } from '../../src/shared/file-size';
import type { Deps } from '../../src/server/context';
import { openDatabase, type Db } from '../../src/server/db/database';
import { localFileStore } from '../../src/server/files/file-store';
import { createFilesService } from '../../src/server/modules/files/service';
import { launchBrowser, signedInSession, type RunningServer } from './harness';
import { api } from './workspace-fixture';

/**
 * The running server's own files service, on its data folder: what Save as report does, done from
 * the test (the server process and this one share the SQLite file, which allows it).
 */
function serviceOn(server: RunningServer): { files: ReturnType<typeof createFilesService>; db: Db } {
  const db = openDatabase(path.join(server.dataDir, 'app.db'));
  // Only what reports need: the metadata store, the file store, the clock and the site's address.
  const deps = {
    db,
    files: localFileStore(path.join(server.dataDir, 'files')),
    clock: () => new Date(),
    config: { publicUrl: server.url },
  } as unknown as Deps;
  return { files: createFilesService(deps), db };
}

const rowOf = (page: Page, name: string) => page.getByRole('row').filter({ hasText: name });

describe('the Reports page and the download pages in the browser', () => {
  const session = signedInSession('reports@example.com', '/reports');
  let server: RunningServer;
  let page: Page;
  let db: Db;
  let files: ReturnType<typeof createFilesService>;
  let me: Me;
  let fileId: string;
  const contents = randomBytes(300 * 1024 + 7);

  beforeAll(async () => {
    ({ server, page } = session);
    me = await api<Me>(page, server, 'get', '/api/me');
    const service = serviceOn(server);
    db = service.db;
    files = service.files;
    const { id } = await service.files.createReport({
      accountId: me.currentAccountId!,
      userId: me.id,
      name: 'Quarterly sales.bin',
      contentType: 'application/octet-stream',
      originEntityType: 'Model',
      originEntityTypeId: 'm-1',
    });
    expect(await service.files.completeReport(id, Readable.from([contents]))).toBe(true);
    fileId = id;
  });
  afterAll(async () => {
    await db?.destroy();
  });

  it('lists the report with its size, origin and no public URL; the empty filter says so', async () => {
    await page.reload();
    const row = rowOf(page, 'Quarterly sales.bin');
    await row.waitFor();
    await expect.poll(() => row.textContent()).toContain(formatFileSize(contents.length));
    expect(await row.textContent()).toContain('Model');
    expect(await row.textContent()).toContain('Not shared');
    await page.screenshot({ path: '/tmp/reports-1440.png' });

    await page.getByLabel('Filter by name').fill('no such report');
    await page.waitForURL(/[?&]q=no/);
    await page.getByText(FILE_MESSAGES.noReports).waitFor();
    await page.getByLabel('Filter by name').fill('quarterly');
    await row.waitFor();
  });

  it('shares for 1 day, downloads signed out in a fresh browser, counts it, then revokes', async () => {
    await page.getByRole('button', { name: 'Actions for Quarterly sales.bin' }).click();
    await page.getByRole('menuitem', { name: 'Create public URL' }).click();
    const dialog = page.getByRole('dialog', { name: 'Create public URL' });
    for (const label of ['Never expires', '1 day', '7 days', '30 days', '1 year']) {
      await dialog.getByRole('radio', { name: label, exact: true }).waitFor();
    }
    await dialog.getByRole('radio', { name: '1 day' }).check();
    await dialog.getByRole('button', { name: 'Create' }).click();
    const copy = dialog.getByRole('button', { name: /^Copy public URL \(Expires / });
    await copy.waitFor();
    await page.screenshot({ path: '/tmp/reports-share-1440.png' });
    await dialog.getByRole('button', { name: 'Done' }).click();

    const link = await api<SharedLink>(page, server, 'get', `/api/files/${fileId}/shared`);
    const hoursLeft = (Date.parse(link.expiresAt!) - Date.now()) / 3_600_000;
    expect(hoursLeft).toBeGreaterThan(23.5);
    expect(hoursLeft).toBeLessThanOrEqual(24);

    const browser = await launchBrowser();
    try {
      const stranger = await (await browser.newContext({ acceptDownloads: true })).newPage();
      const downloading = stranger.waitForEvent('download', { timeout: 30_000 });
      await stranger.goto(link.downloadUrl);
      const download = await downloading;
      expect(download.suggestedFilename()).toBe('Quarterly sales.bin');
      const saved = path.join(server.dataDir, 'downloaded.bin');
      await download.saveAs(saved);
      expect(fs.readFileSync(saved).equals(contents)).toBe(true);
      await stranger.getByText(FILE_MESSAGES.downloaded).waitFor();
      await stranger.screenshot({ path: '/tmp/download-public-1440.png' });

      // The owner sees the use on the page.
      await page.reload();
      await expect.poll(() => rowOf(page, 'Quarterly sales.bin').textContent()).toContain('1 download');

      await page.getByRole('button', { name: 'Actions for Quarterly sales.bin' }).click();
      await page.getByRole('menuitem', { name: 'Revoke public URL' }).click();
      await expect.poll(() => rowOf(page, 'Quarterly sales.bin').textContent()).toContain('Not shared');

      await stranger.goto(link.downloadUrl);
      await stranger.getByText(FILE_MESSAGES.notFound).waitFor();
      await stranger.setViewportSize({ width: 390, height: 800 });
      await stranger.screenshot({ path: '/tmp/download-missing-390.png' });
    } finally {
      await browser.close();
    }
  });

  it('the private page downloads for a member; delete asks first and leaves the empty list', async () => {
    const downloading = page.waitForEvent('download', { timeout: 30_000 });
    await page.goto(`${server.url}/files/${fileId}`);
    const download = await downloading;
    const saved = path.join(server.dataDir, 'private.bin');
    await download.saveAs(saved);
    expect(fs.readFileSync(saved).equals(contents)).toBe(true);
    await page.getByText(FILE_MESSAGES.downloaded).waitFor();

    await page.goto(`${server.url}/reports`);
    await page.setViewportSize({ width: 390, height: 844 });
    await rowOf(page, 'Quarterly sales.bin').waitFor();
    await page.screenshot({ path: '/tmp/reports-390.png', fullPage: true });
    // Keyboard: the row menu opens from its button with Enter.
    await page.getByRole('button', { name: 'Actions for Quarterly sales.bin' }).focus();
    await page.keyboard.press('Enter');
    await page.getByRole('menuitem', { name: 'Delete' }).click();
    await page.getByText(FILE_MESSAGES.confirmDelete).waitFor();
    await page.getByRole('button', { name: 'Ok' }).click();
    await page.getByText(FILE_MESSAGES.noReports).waitFor();

    await page.goto(`${server.url}/files/${fileId}`);
    await page.getByText(FILE_MESSAGES.notFound).waitFor();
    await page.setViewportSize({ width: 1440, height: 900 });
  });

  it('a report being generated shows its progress as it moves, then its size, with no reload', async () => {
    await page.goto(`${server.url}/reports`);
    await page.getByText(FILE_MESSAGES.noReports).waitFor();
    const { id } = await files.createReport({
      accountId: me.currentAccountId!,
      userId: me.id,
      name: 'Growing.csv',
      contentType: 'text/csv',
      originEntityType: 'StaticTable',
      originEntityTypeId: 't-1',
    });
    await page.reload();
    const row = rowOf(page, 'Growing.csv');
    await expect.poll(() => row.textContent()).toContain('Generating… 0%');
    await files.setProgress(id, 40);
    await expect.poll(() => row.textContent(), { timeout: 15_000 }).toContain('Generating… 40%');
    await files.completeReport(id, Readable.from([Buffer.from('a,b\n')]));
    await expect.poll(() => row.textContent(), { timeout: 15_000 }).toContain('4 B');
  });
});
