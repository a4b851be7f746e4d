import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SEARCH_MESSAGES } from '../../src/shared/search';
import { startApi, type ApiPeer } from '../server/integrations/peers/http-api';
import { launchBrowser, signIn, startServer, type RunningServer } from './harness';
import { api } from './workspace-fixture';

const OWNER = 'iris.vega@example.com';

/** Waits until `read` gives `want` (beforeAll has no expect.poll). */
async function until<T>(read: () => Promise<T>, want: T, timeoutMs: number): Promise<void> {
  const started = Date.now();
  let last: T | undefined;
  while (Date.now() - started < timeoutMs) {
    last = await read();
    if (last === want) return;
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  throw new Error(`Still ${String(last)} after ${timeoutMs} ms, waiting for ${String(want)}`);
}
const ORDERS = [
  { id: 1, customer: 'Zoë Müller', city: 'Zürich', status: 'shipped' },
  { id: 2, customer: 'Ada Lovelace', city: 'London', status: 'pending' },
  { id: 3, customer: 'Ben Brown', city: 'Zürich', status: 'shipped' },
  { id: 4, customer: 'Chloé Dubois', city: 'Paris', status: 'returned' },
];

describe('global search in the header', () => {
  let server: RunningServer;
  let browser: Browser;
  let peer: ApiPeer;
  let page: Page;
  let integrationId = '';

  beforeAll(async () => {
    peer = await startApi({ '/v1/orders': () => ({ body: ORDERS }) });
    server = await startServer({ CONNECTOR_PRIVATE_NETWORKS: 'true' });
    browser = await launchBrowser();
    page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
    await signIn(page, server, OWNER);
    const definitions = await api<{ id: string; name: string }[]>(page, server, 'get', '/api/integration_definitions');
    const rest = definitions.find((d) => d.name === 'REST API')!;
    const integration = await api<{ id: string }>(page, server, 'post', '/api/integrations', {
      integrationDefinitionId: rest.id,
      name: 'Orders feed',
      schemaName: 'orders_feed',
      configuration: { base_url: `${peer.baseUrl}/v1`, streams: [{ name: 'orders', path: '/orders' }] },
    });
    integrationId = integration.id;
    await until(
      async () =>
        (await api<{ status: string }>(page, server, 'get', `/api/integrations/${integrationId}/datasets`)).status,
      'Loaded',
      60_000,
    );
    await api(page, server, 'put', `/api/integrations/${integrationId}/datasets`, {
      datasets: { orders: { isSelected: true } },
    });
    await api(page, server, 'post', `/api/integrations/${integrationId}/trigger`, {});
    // The sync commits, then its rows are indexed in the background.
    await until(
      async () => (await api<{ totalHits: number }>(page, server, 'get', '/api/search?query=zurich')).totalHits,
      2,
      90_000,
    );
  }, 180_000);

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    await peer?.close();
  });

  it('finds values as you type and follows a column link into the filtered grid', async () => {
    await page.goto(`${server.url}/`);
    const box = page.getByRole('textbox', { name: 'Search data' });
    await box.waitFor();
    // '/' focuses the box from anywhere on the page.
    await page.locator('body').click({ position: { x: 700, y: 500 } });
    await page.keyboard.press('/');
    await expect.poll(() => box.evaluate((el) => el === document.activeElement)).toBe(true);
    await page.keyboard.type('z');
    await page.getByText(SEARCH_MESSAGES.waiting).waitFor();
    await page.keyboard.type('qx');
    await page.getByText(SEARCH_MESSAGES.noResults('zqx')).waitFor({ timeout: 30_000 });

    await box.fill('ZUR');
    await page.getByText(SEARCH_MESSAGES.found(2)).waitFor({ timeout: 30_000 });
    const results = page.getByRole('region', { name: 'Search results' });
    await results.getByRole('group', { name: 'Orders feed' }).waitFor();
    await results.getByText('orders', { exact: true }).waitFor();
    // The hit is highlighted inside its shortened text.
    expect(await results.locator('mark').first().textContent()).toBe('Zür');
    await page.screenshot({ path: '/tmp/search-1440.png' });

    // Down arrow from the box reaches the column link; Enter follows it.
    const link = results.getByRole('link', { name: 'city (2)' });
    await box.press('ArrowDown');
    await expect.poll(() => link.evaluate((el) => el === document.activeElement)).toBe(true);
    await page.keyboard.press('Enter');
    await page.waitForURL((url) => url.pathname === `/integrations/${integrationId}`);
    const url = new URL(page.url());
    expect(url.searchParams.get('dataset')).toBe('orders');
    const filter = JSON.parse(JSON.parse(url.searchParams.get('filter') ?? '[]')[0] ?? '{}') as Record<string, unknown>;
    expect(filter).toMatchObject({ operator: 'Contains', value: 'Zür' });
    // The grid shows only the matching rows.
    await page.getByText('Ben Brown').waitFor({ timeout: 30_000 });
    await page.getByText('Zoë Müller').waitFor();
    expect(await page.getByText('Ada Lovelace').count()).toBe(0);
    expect(await page.getByText('Chloé Dubois').count()).toBe(0);
    await page.screenshot({ path: '/tmp/search-grid-1440.png' });
  });

  it('works on a 390 px phone, opened with Ctrl+K', async () => {
    await page.setViewportSize({ width: 390, height: 800 });
    await page.goto(`${server.url}/`);
    await page.getByRole('button', { name: 'Search data' }).waitFor();
    await page.keyboard.press('Control+k');
    const box = page.getByRole('textbox', { name: 'Search data' });
    await expect.poll(() => box.evaluate((el) => el === document.activeElement)).toBe(true);
    await page.keyboard.type('chloe');
    await page.getByText(SEARCH_MESSAGES.found(1)).waitFor({ timeout: 30_000 });
    const width = await page.evaluate(() => document.documentElement.scrollWidth);
    expect(width).toBeLessThanOrEqual(390);
    await page.screenshot({ path: '/tmp/search-390.png' });
  });

  it('lets a global admin see the index on /admin/index and keep a column out of search', async () => {
    await page.setViewportSize({ width: 1440, height: 900 });
    await page.goto(`${server.url}/admin/index`);
    const row = page.getByRole('row', { name: /Iris Vega's account/ });
    await row.getByText('Up to date').waitFor({ timeout: 30_000 });
    await page.screenshot({ path: '/tmp/search-admin-1440.png' });
    await row.getByRole('button', { name: 'Exclusions' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('Table', { exact: true }).click();
    await page.getByRole('option', { name: 'Orders feed / orders' }).click();
    await dialog.getByLabel('Column', { exact: true }).click();
    await page.getByRole('option', { name: 'city' }).click();
    await dialog.getByRole('button', { name: 'Exclude' }).click();
    await dialog.getByRole('row', { name: /orders\s+city/ }).waitFor();
    await page.screenshot({ path: '/tmp/search-exclusions-1440.png' });
    await page.keyboard.press('Escape');
    // The column's values are no longer found; the other columns' still are.
    await expect
      .poll(async () => (await api<{ totalHits: number }>(page, server, 'get', '/api/search?query=zurich')).totalHits)
      .toBe(0);
    expect((await api<{ totalHits: number }>(page, server, 'get', '/api/search?query=chloe')).totalHits).toBe(1);
  });
});
