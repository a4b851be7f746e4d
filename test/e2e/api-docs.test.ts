import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, startServer, type RunningServer } from './harness';

/**
 * The API reference page in a real browser, against the real server with its Content Security
 * Policy: it renders every path of /api/openapi.json from the site's own script, with no request to
 * another host and no policy violation.
 */
describe('API reference (/api/docs)', () => {
  let server: RunningServer;
  let browser: Browser;
  let page: Page;
  const violations: string[] = [];
  const foreign: string[] = [];

  beforeAll(async () => {
    server = await startServer();
    browser = await launchBrowser();
    page = await browser.newPage();
    page.on('console', (message) => {
      if (/Content Security Policy|Refused to/i.test(message.text())) violations.push(message.text());
    });
    page.on('request', (request) => {
      if (!request.url().startsWith(server.url)) foreign.push(request.url());
    });
  });

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('shows every documented path, its parameters, body and answers, without sign-in', async () => {
    await page.goto(`${server.url}/api/docs`);
    await page.getByRole('heading', { name: 'Workspace API 1' }).waitFor();
    const document = (await (await page.request.get(`${server.url}/api/openapi.json`)).json()) as {
      paths: Record<string, Record<string, unknown>>;
    };
    const operations = Object.values(document.paths).reduce((n, item) => n + Object.keys(item).length, 0);
    expect(await page.locator('details.op').count()).toBe(operations);

    // One path opened: its parameters, body fields and answers are shown.
    const scroll = page.locator('details.op', { hasText: '/api/tables/{type}/{id}/data/infinite-scroll' });
    await scroll.locator('summary').click();
    await expect.poll(() => scroll.getByText('withCount', { exact: true }).count()).toBeGreaterThan(0);
    await expect.poll(() => scroll.getByText('filterGroups', { exact: true }).count()).toBeGreaterThan(0);
    await expect.poll(() => scroll.getByText('totalPages', { exact: true }).count()).toBeGreaterThan(0);

    // The filter narrows the list.
    await page.getByRole('searchbox', { name: 'Filter paths' }).fill('static-tables');
    const shown = await page.locator('details.op:visible').count();
    expect(shown).toBeGreaterThan(3);
    expect(shown).toBeLessThan(operations);

    expect(violations).toEqual([]);
    expect(foreign).toEqual([]);
  });
});
