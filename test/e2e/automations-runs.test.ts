import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApi, type ApiPeer } from '../server/integrations/peers/http-api';
import { launchBrowser, signIn, startServer, type RunningServer } from './harness';
import { api } from './workspace-fixture';
import { phoneShot } from './automations-fixture';

const OWNER = 'runs.owner@example.com';

/**
 * Runs in the browser: an automation of HTTP request steps against a local API, configured on the
 * Configure tab, run with 'Run now'; the live banners, the Activity log, the run page, a failed
 * step rerun from where it failed, and a run cancelled while its request hangs.
 */
describe('automation runs in the browser', () => {
  let server: RunningServer;
  let browser: Browser;
  let page: Page;
  let peer: ApiPeer;
  /** Requests to /v1/slow wait for this to be called. */
  let release: () => void = () => undefined;
  let automationId = '';

  beforeAll(async () => {
    peer = await startApi({
      '/v1/hook': () => ({ status: 200, body: { ok: true } }),
      '/v1/broken': () => ({ status: 400, body: { error: 'bad request' } }),
      '/v1/slow': () =>
        new Promise((resolve) => {
          release = () => resolve({ status: 200, body: { ok: 'late' } });
        }),
    });
    server = await startServer({ CONNECTOR_PRIVATE_NETWORKS: 'true' });
    browser = await launchBrowser();
    page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
    await signIn(page, server, OWNER, '/automations');
    const definitions = await api<{ id: string; name: string }[]>(page, server, 'get', '/api/integration_definitions');
    await api(page, server, 'post', '/api/integrations', {
      integrationDefinitionId: definitions.find((d) => d.name === 'REST API')?.id,
      name: 'Hooks API',
      schemaName: 'hooks_api',
      configuration: {
        base_url: `${peer.baseUrl}/v1`,
        authentication: { type: 'none' },
        streams: [{ name: 'hook', path: '/hook' }],
      },
    });
    const created = await api<{ id: string }>(page, server, 'post', '/api/automations/definitions', {
      name: 'Ping hooks',
      description: '',
    });
    automationId = created.id;
  });
  afterAll(async () => {
    release();
    await browser?.close();
    await server?.stop();
    await peer?.close();
  });

  /** Sets a step's Path input in the Configure tab (saved when the field is left). */
  async function setPath(path: string): Promise<void> {
    const field = page.getByTestId('automation-step').first().getByLabel('Path');
    await field.fill(path);
    await field.blur();
    await expect
      .poll(() =>
        api<{ steps: { inputs: { path?: string } }[] }>(
          page,
          server,
          'get',
          `/api/automations/definitions/${automationId}`,
        ).then((d) => d.steps[0]?.inputs.path),
      )
      .toBe(path);
  }

  it('configures an HTTP request step: integration from its options, inputs, errors on the step', async () => {
    await page.goto(`${server.url}/automations/${automationId}`);
    await page.getByRole('button', { name: 'Add step' }).click();
    await page.getByRole('dialog', { name: 'Add step' }).getByRole('button', { name: 'HTTP request' }).click();
    const step = page.getByTestId('automation-step').first();
    await step.waitFor();
    // Without its integration the step says what is missing, and Run now waits.
    await step.getByTestId('step-error').waitFor();
    expect(await page.getByRole('button', { name: 'Run now' }).isDisabled()).toBe(true);

    await step.getByRole('combobox', { name: 'Integration' }).click();
    await page.getByRole('option', { name: 'Hooks API' }).click();
    await setPath('/hook');
    await expect.poll(() => step.getByTestId('step-error').count()).toBe(0);
    await expect.poll(() => page.getByRole('button', { name: 'Run now' }).isDisabled()).toBe(false);

    // The preview shows what it would send, without sending it.
    const before = peer.requests.length;
    await step.getByRole('button', { name: 'Preview step' }).click();
    await step.getByTestId('step-preview').waitFor();
    expect(await step.getByTestId('step-preview').textContent()).toContain('/hook');
    expect(peer.requests.length).toBe(before);
  });

  it('runs with Run now: the live banners, the Activity log by day, the run page', async () => {
    await setPath('/slow');
    await page.getByRole('button', { name: 'Run now' }).click();
    const banner = page.getByTestId('automation-banner');
    await banner.getByText('Automation has started').waitFor();
    await page.screenshot({ path: '/tmp/shots/automation-started.png' });
    await expect.poll(() => peer.seen('/v1/slow').length).toBe(1);
    release();
    await banner.getByText('Automation has completed').waitFor();

    await page.getByRole('tab', { name: 'Activity log' }).click();
    const run = page.getByTestId('activity-run').first();
    await run.getByText('Run #1 - Completed').waitFor();
    await run.getByRole('button', { name: 'Logs' }).click();
    await run.getByTestId('run-logs').waitFor();
    await page.screenshot({ path: '/tmp/shots/automation-activity.png', fullPage: true });
    await phoneShot(page, '/tmp/shots/automation-activity-390.png');

    await run.getByRole('link', { name: 'View run' }).click();
    await page.waitForURL(/\/automations\/[^/]+\/run\/[^/]+$/);
    const runId = page.url().split('/').at(-1)!;
    await page.getByRole('heading', { name: `Automation Run - ${runId}` }).waitFor();
    const stepRun = page.getByTestId('run-step').first();
    await stepRun.getByText('Completed').waitFor();
    expect(await stepRun.textContent()).toContain('Attempt 1');
    // Its resolved inputs and its output.
    expect(await stepRun.textContent()).toContain('/slow');
    expect(await stepRun.textContent()).toContain('"status": 200');
    await page.screenshot({ path: '/tmp/shots/automation-run.png', fullPage: true });
    await phoneShot(page, '/tmp/shots/automation-run-390.png');

    // The list shows the last run: its status and duration in seconds.
    await page.goto(`${server.url}/automations`);
    const row = page.locator('tbody tr', { hasText: 'Ping hooks' });
    await row.getByText('Completed').waitFor();
    expect(await row.locator('td').nth(2).textContent()).toMatch(/^\d+s$/);
  });

  it('shows a failed run live, and reruns it from the failed step once fixed', async () => {
    await page.goto(`${server.url}/automations/${automationId}`);
    await setPath('/broken');
    await page.getByRole('button', { name: 'Run now' }).click();
    await page.getByTestId('automation-banner').getByText('Automation has failed').waitFor();
    await page.getByTestId('automation-banner').getByRole('button', { name: 'Dismiss' }).click();
    await page.getByTestId('automation-status').getByRole('link', { name: 'View run' }).click();
    await page.waitForURL(/\/run\//);
    const failedRunId = page.url().split('/').at(-1)!;
    const stepRun = page.getByTestId('run-step').first();
    await stepRun.getByText('Failed').first().waitFor();
    expect(await stepRun.textContent()).toContain('400');

    await page.goto(`${server.url}/automations/${automationId}`);
    await setPath('/hook');
    await page.goto(`${server.url}/automations/${automationId}/run/${failedRunId}`);
    await page.getByRole('button', { name: 'Rerun automation' }).click();
    await page.getByRole('menuitem', { name: /From the failed step/ }).click();
    await page.waitForURL((url) => !url.pathname.endsWith(failedRunId));
    await page.getByText(`Rerun of ${failedRunId}`, { exact: false }).waitFor();
    await page.getByTestId('run-step').first().getByText('Completed').waitFor();
  });

  it('cancels a running run from its page', async () => {
    await page.goto(`${server.url}/automations/${automationId}`);
    await setPath('/slow');
    await page.getByRole('button', { name: 'Run now' }).click();
    await page.getByTestId('automation-banner').getByText('Automation has started').waitFor();
    await page.getByTestId('automation-status').or(page.getByTestId('automation-banner')).first().waitFor();
    await page.getByRole('tab', { name: 'Activity log' }).click();
    await page.getByTestId('activity-run').first().getByRole('link', { name: 'View run' }).click();
    await page.getByRole('button', { name: 'Cancel' }).click();
    await page.getByTestId('automation-banner').getByText('Automation has been cancelled').waitFor();
    await page.getByTestId('run-step').first().getByText('Cancelled').first().waitFor();
  });
});
