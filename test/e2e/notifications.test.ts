import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApi, type ApiPeer, type Reply } from '../server/integrations/peers/http-api';
import { launchBrowser, signIn, startServer, type RunningServer } from './harness';

const OWNER = 'ada.byrne@example.com';
const READER = 'omar.lind@example.com';
const SHOTS = '/tmp/shots';

interface JobsPage {
  data: { id: string; status: string }[];
}

describe('the notification bell in the browser', () => {
  let server: RunningServer;
  let browser: Browser;
  let owner: Page;
  let reader: Page;
  let id = '';
  let peer: ApiPeer;
  // The API answers while the integration is created (its check), then refuses every sync.
  let refuse = false;

  const api = async <T>(page: Page, method: 'GET' | 'POST' | 'PUT', path: string, data: unknown = {}): Promise<T> => {
    const response = await page.request.fetch(`${server.url}${path}`, {
      method,
      ...(method === 'GET' ? {} : { data }),
    });
    expect(response.ok(), `${method} ${path}: ${await response.text()}`).toBe(true);
    const text = await response.text();
    return (text ? JSON.parse(text) : null) as T;
  };
  /** Starts a sync (which fails: the API refuses it) and waits until it has ended; answers its run id. */
  const failingSync = async (): Promise<string> => {
    const run = await api<{ id: string }>(owner, 'POST', `/api/integrations/${id}/trigger`);
    await expect
      .poll(
        async () =>
          (await api<JobsPage>(owner, 'GET', `/api/integrations/${id}/jobs`)).data.find((j) => j.id === run.id)?.status,
        { timeout: 60_000, interval: 250 },
      )
      .toBe('Failed');
    return run.id;
  };
  const bell = (page: Page) => page.getByRole('button', { name: /^Notifications/ });
  const panel = (page: Page) => page.getByRole('dialog', { name: 'Notifications' });
  /** Screenshots wait for the panel's fade-in to end. */
  const settled = (page: Page) =>
    expect.poll(() => panel(page).evaluate((el) => getComputedStyle(el).opacity)).toBe('1');

  beforeAll(async () => {
    peer = await startApi({
      '/v1/orders': (): Reply => (refuse ? { status: 404, body: { error: 'gone' } } : { body: [{ id: 1 }] }),
    });
    server = await startServer({ SIGNUP: 'open', CONNECTOR_PRIVATE_NETWORKS: 'true' });
    browser = await launchBrowser();
    owner = await (await browser.newContext({ viewport: { width: 1440, height: 900 } })).newPage();
    reader = await (await browser.newContext({ viewport: { width: 1440, height: 900 } })).newPage();
    await signIn(owner, server, OWNER);
    await signIn(reader, server, READER);

    const definitions = await api<{ id: string; name: string }[]>(owner, 'GET', '/api/integration_definitions');
    const created = await api<{ id: string }>(owner, 'POST', '/api/integrations', {
      integrationDefinitionId: definitions.find((d) => d.name === 'REST API')?.id,
      name: 'Orders feed',
      schemaName: 'orders_feed',
      configuration: {
        base_url: `${peer.baseUrl}/v1`,
        streams: [{ name: 'orders', path: '/orders' }],
        max_tries: 1,
        backoff_base_ms: 0,
      },
    });
    id = created.id;
    // Discovery runs in the background; the datasets can be chosen once it has finished.
    for (let waited = 0; ; waited += 200) {
      const { discoveryStatus } = await api<{ discoveryStatus: string }>(owner, 'GET', `/api/integrations/${id}`);
      if (discoveryStatus !== 'Processing') break;
      if (waited > 60_000) throw new Error('Discovery did not finish');
      await new Promise((r) => setTimeout(r, 200));
    }
    await api(owner, 'PUT', `/api/integrations/${id}/datasets`, { datasets: { orders: { isSelected: true } } });
    refuse = true;
  }, 180_000);
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    await peer?.close();
  });

  it('a failing sync makes the bell count rise without a reload', async () => {
    await owner.goto(`${server.url}/`);
    await bell(owner).waitFor();
    expect(await bell(owner).getAttribute('aria-label')).toBe('Notifications');
    // The push (ReceiveNotification), not the 60 s poll: the count must rise well before a poll.
    const started = Date.now();
    await failingSync();
    await expect
      .poll(() => bell(owner).getAttribute('aria-label'), { timeout: 30_000 })
      .toBe('Notifications, 1 unread');
    expect(Date.now() - started).toBeLessThan(55_000);
    expect(await owner.getByTestId('notification-count').textContent()).toContain('1');
    await owner.screenshot({ path: `${SHOTS}/notifications-count-1440.png` });
  }, 120_000);

  it('lists it; opening it goes to its run and marks it read', async () => {
    const runs = await api<JobsPage>(owner, 'GET', `/api/integrations/${id}/jobs`);
    const runId = runs.data[0]!.id;
    await bell(owner).click();
    const list = panel(owner);
    const item = list.getByRole('button', { name: 'Unread: Sync failed: Orders feed' });
    await item.waitFor();
    expect(await item.textContent()).toContain('orders:');
    await settled(owner);
    await owner.screenshot({ path: `${SHOTS}/notifications-open-1440.png` });
    await item.click();
    await owner.waitForURL(`${server.url}/integrations/${id}/runs/${runId}`);
    await expect.poll(() => bell(owner).getAttribute('aria-label')).toBe('Notifications');
    await bell(owner).click();
    await list.getByRole('button', { name: 'Sync failed: Orders feed', exact: true }).waitFor();
    expect(await list.getByRole('button', { name: 'Mark all as read' }).isDisabled()).toBe(true);
    await owner.keyboard.press('Escape');
    await list.waitFor({ state: 'hidden' });
  }, 60_000);

  it('pages by 5, is keyboard reachable, and marks all as read for the account', async () => {
    for (let i = 0; i < 6; i++) await failingSync();
    await expect
      .poll(() => bell(owner).getAttribute('aria-label'), { timeout: 30_000 })
      .toBe('Notifications, 6 unread');
    // A second tab of the same user, whose bell must follow the first one's 'Mark all as read'.
    const otherTab = await owner.context().newPage();
    await otherTab.goto(`${server.url}/`);
    await expect
      .poll(() => bell(otherTab).getAttribute('aria-label'), { timeout: 30_000 })
      .toBe('Notifications, 6 unread');
    await owner.bringToFront();
    // By keyboard: focus the bell, open it with Enter, Tab into the panel.
    await bell(owner).focus();
    await owner.keyboard.press('Enter');
    const list = panel(owner);
    await list.waitFor();
    await expect.poll(() => list.locator('[data-notification-id]').count()).toBe(5);
    await owner.keyboard.press('Tab');
    expect(await owner.evaluate(() => document.activeElement?.closest('[role="dialog"]') !== null)).toBe(true);
    await list.getByRole('button', { name: 'next page' }).click();
    await expect.poll(() => list.locator('[data-notification-id]').count()).toBe(2);
    await list.getByRole('button', { name: 'Mark all as read' }).click();
    const marked = Date.now();
    await expect.poll(() => bell(owner).getAttribute('aria-label')).toBe('Notifications');
    // Pushed (NotificationsRead), not the 60 s poll.
    await expect.poll(() => bell(otherTab).getAttribute('aria-label'), { timeout: 30_000 }).toBe('Notifications');
    expect(Date.now() - marked).toBeLessThan(55_000);
    await otherTab.close();
    await expect.poll(() => list.locator('[data-unread]').count()).toBe(0);
    await owner.keyboard.press('Escape');
    await list.waitFor({ state: 'hidden' });
    await expect
      .poll(() => owner.evaluate(() => document.activeElement?.getAttribute('aria-label')))
      .toBe('Notifications');
  }, 240_000);

  it("shows 'No notifications' to a member with none, and an error it can retry", async () => {
    await reader.goto(`${server.url}/`);
    await bell(reader).click();
    await panel(reader).getByText('No notifications').waitFor();
    await reader.keyboard.press('Escape');

    const listCalls = (url: URL) => url.pathname.startsWith('/trpc/') && url.pathname.includes('notifications.list');
    await reader.route(listCalls, (route) =>
      route.fulfill({ status: 500, contentType: 'application/json', body: '{"message":"down"}' }),
    );
    await bell(reader).click();
    await panel(reader).getByText('Could not load notifications').waitFor({ timeout: 30_000 });
    await settled(reader);
    await reader.screenshot({ path: `${SHOTS}/notifications-error-1440.png` });
    await reader.unroute(listCalls);
    await panel(reader).getByRole('button', { name: 'Try again' }).click();
    await panel(reader).getByText('No notifications').waitFor();
    await reader.keyboard.press('Escape');
  }, 60_000);

  it('works at 390 px', async () => {
    await failingSync();
    await owner.setViewportSize({ width: 390, height: 844 });
    await owner.goto(`${server.url}/`);
    await expect
      .poll(() => bell(owner).getAttribute('aria-label'), { timeout: 30_000 })
      .toBe('Notifications, 1 unread');
    await bell(owner).click();
    const list = panel(owner);
    await list.locator('[data-notification-id]').first().waitFor();
    const box = await list.boundingBox();
    expect(box).not.toBeNull();
    expect(box!.x).toBeGreaterThanOrEqual(0);
    expect(box!.x + box!.width).toBeLessThanOrEqual(390);
    expect(await owner.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await settled(owner);
    await owner.screenshot({ path: `${SHOTS}/notifications-open-390.png` });
    await owner.keyboard.press('Escape');
    await owner.setViewportSize({ width: 1440, height: 900 });
  }, 120_000);

  it('keeps the kinds chosen in Settings → User, and no bell on admin pages', async () => {
    await owner.goto(`${server.url}/settings/user`);
    const toggle = owner.getByRole('switch', { name: /^Sync failed/ });
    await toggle.waitFor();
    expect(await toggle.isChecked()).toBe(true);
    await toggle.click({ force: true });
    await expect
      .poll(
        async () =>
          (await api<{ kinds: Record<string, boolean> }>(owner, 'GET', '/api/notifications/preferences')).kinds
            .SyncFailed,
      )
      .toBe(false);
    await owner.reload();
    await toggle.waitFor();
    // The switch can render before the saved preferences have loaded into it.
    await expect.poll(() => toggle.isChecked()).toBe(false);
    await owner.screenshot({ path: `${SHOTS}/notifications-settings-1440.png`, fullPage: true });
    // Turned off: a failing sync no longer reaches this user.
    await failingSync();
    expect((await api<{ totalCount: number }>(owner, 'GET', '/api/notifications/count')).totalCount).toBe(1);

    await owner.goto(`${server.url}/admin`);
    await owner.getByRole('heading').first().waitFor();
    expect(await bell(owner).count()).toBe(0);
  }, 120_000);
});
