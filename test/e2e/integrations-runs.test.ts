import type { IncomingMessage } from 'node:http';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { INTEGRATION_MESSAGES } from '../../src/shared/integrations';
import { startApi, type ApiPeer, type Reply } from '../server/integrations/peers/http-api';
import { launchBrowser, mailedLink, signIn, startServer, type RunningServer } from './harness';

const OWNER = 'nora.quinn@example.com';
const READER = 'theo.marsh@example.com';
const TOKEN = 'tok-runs';
const RUNS = 12;
/** The run (0-based) the peer refuses, so one run of the history failed. */
const FAILING_RUN = 3;

interface JobsPage {
  count: number;
  data: { id: string; status: string; recordsProcessed: number }[];
}

describe('integration runs in the browser', () => {
  let server: RunningServer;
  let browser: Browser;
  let peer: ApiPeer;
  let owner: Page;
  let reader: Page;
  let id = '';
  /** Run ids, oldest first; run i synced i + 1 orders (except the failing one). */
  const runIds: string[] = [];
  // What the peer answers: `orders` records, or a 404 while `refuse` is set (a failure that, unlike
  // refused credentials, leaves the integration syncing); 401 without the integration's token.
  let orders = 1;
  let refuse = false;

  const api = async <T>(page: Page, method: 'GET' | 'POST', path: string): Promise<T> => {
    // A JSON body, as a script sends one: state-changing calls without it are refused as cross-site.
    const response = await page.request.fetch(`${server.url}${path}`, {
      method,
      ...(method === 'POST' ? { data: {} } : {}),
    });
    expect(response.ok(), `${method} ${path}: ${await response.text()}`).toBe(true);
    return (await response.json()) as T;
  };
  const integrationUrl = () => `${server.url}/integrations/${id}`;

  beforeAll(async () => {
    peer = await startApi({
      '/v1/orders': (_query: URLSearchParams, req: IncomingMessage): Reply =>
        req.headers.authorization !== `Bearer ${TOKEN}`
          ? { status: 401, body: { error: 'bad token' } }
          : refuse
            ? { status: 404, body: { error: 'gone' } }
            : { body: Array.from({ length: orders }, (_, i) => ({ id: i + 1, total: 10 + i })) },
    });
    server = await startServer({ SIGNUP: 'open', CONNECTOR_PRIVATE_NETWORKS: 'true' });
    browser = await launchBrowser();
    owner = await (await browser.newContext({ viewport: { width: 1440, height: 900 } })).newPage();
    reader = await (await browser.newContext({ viewport: { width: 1440, height: 900 } })).newPage();
    await signIn(owner, server, OWNER);
    await signIn(reader, server, READER);

    const definitions = await api<{ id: string; name: string }[]>(owner, 'GET', '/api/integration_definitions');
    const created = await owner.request.post(`${server.url}/api/integrations`, {
      data: {
        integrationDefinitionId: definitions.find((d) => d.name === 'REST API')?.id,
        name: 'Orders feed',
        schemaName: 'orders_feed',
        configuration: {
          base_url: `${peer.baseUrl}/v1`,
          authentication: { type: 'bearer', token: TOKEN },
          streams: [{ name: 'orders', path: '/orders' }],
        },
      },
    });
    expect(created.status(), await created.text()).toBe(201);
    id = ((await created.json()) as { id: string }).id;

    const invited = await owner.request.post(`${server.url}/api/accounts/invite`, {
      data: { email: READER, roles: ['read_only'] },
    });
    expect(invited.ok()).toBe(true);
    await reader.goto(await mailedLink(server.dataDir, READER, 'invite'));
    await reader.getByText('Invitation success.').waitFor();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    await peer?.close();
  });

  it('keeps Sync data now disabled, saying why, until a dataset is chosen', async () => {
    await owner.goto(integrationUrl());
    await owner.getByRole('heading', { name: 'Orders feed' }).waitFor();
    await owner.getByText('Choose the datasets to sync').waitFor({ timeout: 30_000 });
    const sync = owner.getByRole('button', { name: 'Sync data now' });
    await expect.poll(() => sync.isDisabled()).toBe(true);
    // The reason is the button's accessible description and its tooltip.
    const describedBy = await sync.getAttribute('aria-describedby');
    expect(describedBy).toBeTruthy();
    expect(await owner.locator(`[id="${describedBy}"]`).textContent()).toBe(INTEGRATION_MESSAGES.noDatasetsChosen);
    await sync.hover();
    await owner.getByRole('tooltip', { name: INTEGRATION_MESSAGES.noDatasetsChosen }).waitFor();
    await owner.screenshot({ path: '/tmp/shots/runs-sync-disabled.png' });
    // Clicking it anyway starts nothing (forced: Playwright would wait for it to be enabled).
    await sync.click({ force: true });
    expect((await api<JobsPage>(owner, 'GET', `/api/integrations/${id}/jobs`)).count).toBe(0);

    await owner.getByRole('button', { name: 'Integration menu' }).click();
    await owner.getByRole('menuitem', { name: 'Dataset settings' }).click();
    const dialog = owner.getByRole('dialog', { name: 'Dataset settings' });
    await dialog.getByRole('checkbox', { name: 'Sync orders', exact: true }).click();
    await dialog.getByRole('button', { name: 'Save' }).click();
    await dialog.waitFor({ state: 'hidden' });
    await expect.poll(() => sync.isEnabled()).toBe(true);
    expect(await sync.getAttribute('aria-describedby')).toBeNull();
  });

  it('asks for a schedule when Data syncing is turned on without one; cancelling leaves it off', async () => {
    const toggle = owner.getByRole('switch', { name: 'Data syncing' });
    const dialog = owner.getByRole('dialog', { name: 'Sync schedule' });
    const status = async () => (await api<{ syncStatus: string }>(owner, 'GET', `/api/integrations/${id}`)).syncStatus;
    expect(await toggle.isChecked()).toBe(false);

    await toggle.click({ force: true });
    await dialog.getByText('Data syncing follows a schedule').waitFor();
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'hidden' });
    expect(await toggle.isChecked()).toBe(false);
    expect(await owner.getByTestId('next-sync').textContent()).toBe('Not scheduled');
    expect(await status()).toBe('Inactive');

    await toggle.click({ force: true });
    await dialog.getByRole('textbox', { name: /^Time/ }).fill('06:30');
    await owner.screenshot({ path: '/tmp/shots/runs-schedule-needed.png' });
    await dialog.getByRole('button', { name: 'Save and turn on' }).click();
    await dialog.waitFor({ state: 'hidden' });
    await expect.poll(() => toggle.isChecked()).toBe(true);
    const next = await owner.getByTestId('next-sync').textContent();
    expect(next).not.toBe('Not scheduled');
    expect(next).toMatch(/\d/);
    expect(await status()).toBe('Active');

    // With a schedule kept, off and on again flip directly.
    await toggle.click({ force: true });
    await expect.poll(() => toggle.isChecked()).toBe(false);
    await toggle.click({ force: true });
    await expect.poll(() => toggle.isChecked()).toBe(true);
    expect(await dialog.count()).toBe(0);
    expect(await owner.getByTestId('next-sync').textContent()).not.toBe('Not scheduled');
    await toggle.click({ force: true });
    await expect.poll(() => toggle.isChecked()).toBe(false);
  });

  it('lists every run in the Activity log, newest first, a page at a time', async () => {
    for (let i = 0; i < RUNS; i++) {
      orders = i + 1;
      refuse = i === FAILING_RUN;
      runIds.push((await api<{ id: string }>(owner, 'POST', `/api/integrations/${id}/trigger`)).id);
      await expect
        .poll(
          async () => (await api<{ isRunning: boolean }>(owner, 'GET', `/api/integrations/${id}/job_status`)).isRunning,
          {
            timeout: 30_000,
          },
        )
        .toBe(false);
    }
    refuse = false;

    await owner.goto(`${integrationUrl()}?tab=ActivityLog`);
    const history = owner.getByRole('table', { name: 'Run history' });
    await history.waitFor();
    await owner.getByTestId('run-count').getByText(`${RUNS} run(s)`).waitFor();
    const rows = history.locator('tbody tr');
    await expect.poll(() => rows.count()).toBe(10);
    const ids = async () => rows.evaluateAll((trs) => trs.map((tr) => tr.getAttribute('data-run-id')));
    expect(await ids()).toEqual([...runIds].reverse().slice(0, 10));
    expect(await rows.first().textContent()).toContain('Completed');
    expect(await rows.first().textContent()).toContain(String(RUNS));
    expect(await history.locator(`tr[data-run-id="${runIds[FAILING_RUN]}"]`).textContent()).toContain('Failed');
    await owner.screenshot({ path: '/tmp/shots/runs-activity-log.png', fullPage: true });

    await owner.getByRole('button', { name: 'Page 2' }).click();
    await expect.poll(ids).toEqual([runIds[1], runIds[0]]);
    expect(owner.url()).toContain('runsPage=2');
  });

  it('opens a run from the log with its own figures and logs', async () => {
    const history = owner.getByRole('table', { name: 'Run history' });
    await history.locator(`tr[data-run-id="${runIds[1]}"]`).getByRole('link').click();
    await owner.waitForURL(`${integrationUrl()}/runs/${runIds[1]}`);
    await owner.getByRole('heading', { name: /^Sync of / }).waitFor();
    const datasets = owner.getByRole('table', { name: 'Datasets of the run' });
    const orderRow = datasets.getByRole('row', { name: /^orders / });
    await orderRow.waitFor();
    expect(await orderRow.textContent()).toMatch(/Completed.*2/);
    const logs = owner.getByTestId('run-logs');
    await logs.getByText('[INFO] Sync started: 1 dataset(s).').waitFor();
    await logs.getByText('[INFO] Sync completed.').waitFor();
    await owner.screenshot({ path: '/tmp/shots/runs-run-page.png', fullPage: true });

    // Back to the log's page 2 by the browser's Back; then the failed run, from page 1.
    await owner.goBack();
    await owner.getByRole('table', { name: 'Run history' }).waitFor();
    expect(owner.url()).toContain('runsPage=2');
    await owner.getByRole('button', { name: 'Page 1' }).click();
    await history.locator(`tr[data-run-id="${runIds[FAILING_RUN]}"]`).click();
    await owner.waitForURL(`${integrationUrl()}/runs/${runIds[FAILING_RUN]}`);
    await datasets.getByText(/404/).first().waitFor();
    expect(await datasets.getByRole('row', { name: /^orders / }).textContent()).toContain('Failed');
    await logs.getByText(/\[ERROR\] orders: /).waitFor();
    expect(await logs.getByText('[INFO] Sync completed.').count()).toBe(0);
    await owner.screenshot({ path: '/tmp/shots/runs-failed-run.png', fullPage: true });
  });

  it('opens a run from its square in the strip, by mouse and by keyboard', async () => {
    await owner.getByRole('link', { name: 'Orders feed' }).click();
    await owner.waitForURL((url) => url.pathname === `/integrations/${id}`);
    const strip = owner.getByRole('group', { name: 'Recent runs' });
    const squares = strip.getByRole('link');
    await expect.poll(() => squares.count()).toBe(5);
    await squares.last().click();
    await owner.waitForURL(`${integrationUrl()}/runs/${runIds[RUNS - 1]}`);
    await owner.getByTestId('run-logs').getByText('[INFO] Sync completed.').waitFor();

    await owner.goBack();
    await expect.poll(() => squares.count()).toBe(5);
    // The oldest square of the five is run 8 (0-based 7): focus it with Tab and open it with Enter.
    await owner.getByRole('switch', { name: 'Data syncing' }).focus();
    await owner.keyboard.press('Tab');
    expect(await squares.first().evaluate((el) => el === document.activeElement)).toBe(true);
    await owner.keyboard.press('Enter');
    await owner.waitForURL(`${integrationUrl()}/runs/${runIds[RUNS - 5]}`);
    await owner.getByRole('heading', { name: /^Sync of / }).waitFor();
  });

  it('shows a read_only member the integration in view mode, with no write control', async () => {
    await reader.goto(integrationUrl());
    await reader.getByRole('heading', { name: 'Orders feed' }).waitFor();
    await reader.getByText('View only').waitFor();
    await reader.getByTestId('syncing-state').waitFor();
    for (const name of ['Sync data now', 'Integration menu', 'Dataset settings', 'Refresh datasets'])
      expect(await reader.getByRole('button', { name }).count(), name).toBe(0);
    expect(await reader.getByRole('switch').count()).toBe(0);
    await reader.screenshot({ path: '/tmp/shots/runs-reader.png' });
    // They still read the runs, and the server refuses their writes.
    await reader.getByRole('tab', { name: 'Activity log' }).click();
    await reader.getByRole('table', { name: 'Run history' }).waitFor();
    const trigger = await reader.request.post(`${server.url}/api/integrations/${id}/trigger`, { data: {} });
    expect(trigger.status()).toBe(403);
    const schedule = await reader.request.put(`${server.url}/api/integrations/${id}/schedule`, {
      data: { status: 'Active' },
    });
    expect(schedule.status()).toBe(403);
    // The list too: the mark, no add controls.
    await reader.goto(`${server.url}/integrations`);
    await reader.getByRole('link', { name: 'Orders feed' }).waitFor();
    await reader.getByText('View only').waitFor();
    expect(await reader.getByRole('button', { name: 'Add integration' }).count()).toBe(0);
  });

  it('fits a 390 px wide screen: the controls wrap, nothing runs off the page', async () => {
    await owner.setViewportSize({ width: 390, height: 844 });
    await owner.goto(integrationUrl());
    const sync = owner.getByRole('button', { name: 'Sync data now' });
    await sync.waitFor();
    const right = async (locator: ReturnType<Page['locator']>) => {
      const box = await locator.boundingBox();
      return box ? box.x + box.width : Infinity;
    };
    expect(await right(sync)).toBeLessThanOrEqual(390);
    expect(await right(owner.getByRole('group', { name: 'Recent runs' }))).toBeLessThanOrEqual(390);
    expect(await right(owner.getByTestId('next-sync'))).toBeLessThanOrEqual(390);
    await owner.screenshot({ path: '/tmp/shots/runs-390-integration.png', fullPage: true });
    await owner.getByRole('tab', { name: 'Activity log' }).click();
    await owner.getByRole('table', { name: 'Run history' }).waitFor();
    await owner.screenshot({ path: '/tmp/shots/runs-390-activity-log.png', fullPage: true });
    await owner.goto(`${integrationUrl()}/runs/${runIds[FAILING_RUN]}`);
    await owner.getByTestId('run-logs').waitFor();
    await owner.screenshot({ path: '/tmp/shots/runs-390-run-page.png', fullPage: true });
    await owner.setViewportSize({ width: 1440, height: 900 });
  });
});
