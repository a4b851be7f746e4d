import fs from 'node:fs';
import path from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { phoneShot } from './automations-fixture';
import { signedInSession, type RunningServer } from './harness';
import { api } from './workspace-fixture';

interface Dataset {
  id: string;
  name: string;
}
interface WithColumns {
  id: string;
  columns: { columnKey: string; displayName: string }[];
}

/** The outbox's mails (DATA_DIR/outbox.jsonl without SMTP): attachments described by name and size. */
function outbox(
  dataDir: string,
): { to: string; subject: string; attachments?: { filename: string; size: number }[] }[] {
  const file = path.join(dataDir, 'outbox.jsonl');
  if (!fs.existsSync(file)) return [];
  return fs
    .readFileSync(file, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as { to: string; subject: string });
}

/** Polls `check` until it answers true (beforeAll has no expect.poll). */
async function until(check: () => Promise<boolean>, what: string, timeoutMs = 60_000): Promise<void> {
  const started = Date.now();
  while (!(await check())) {
    if (Date.now() - started > timeoutMs) throw new Error(`Timed out waiting until ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

/** A Sample data shop synced once, and a published model over its orders with a pivot by status. */
async function seedShop(page: Page, server: RunningServer): Promise<void> {
  const definitions = await api<{ id: string; name: string }[]>(page, server, 'get', '/api/integration_definitions');
  const shop = await api<{ id: string }>(page, server, 'post', '/api/integrations', {
    integrationDefinitionId: definitions.find((d) => d.name === 'Sample data')!.id,
    name: 'My Shop',
    schemaName: 'my_shop',
  });
  // Discovery runs in the background: choosing the orders waits until it has found them.
  await until(
    async () =>
      (
        await page.request.put(`${server.url}/api/integrations/${shop.id}/datasets`, {
          headers: { origin: server.url },
          data: { datasets: { orders: { isSelected: true, syncType: 'FullRefresh', dataIngestionType: 'Overwrite' } } },
        })
      ).ok(),
    'the orders are discovered',
  );
  await api(page, server, 'post', `/api/integrations/${shop.id}/trigger`);
  await until(async () => {
    const jobs = await api<{ data: { status: string }[] }>(
      page,
      server,
      'get',
      `/api/integrations/${shop.id}/jobs?Page=1&PageSize=5`,
    );
    return jobs.data[0]?.status === 'Completed';
  }, 'the first sync completes');
  const { datasets } = await api<{ datasets: Dataset[] }>(page, server, 'get', `/api/integrations/${shop.id}`);
  const orders = datasets.find((d) => d.name === 'orders')!;
  const model = await api<WithColumns>(page, server, 'post', '/api/models', { name: 'Sales' });
  for (const [key, as] of [
    ['status', 'Status'],
    ['amount', 'Amount'],
  ]) {
    await api(page, server, 'post', `/api/models/${model.id}/columns`, {
      displayName: as,
      sourceColumn: { sourceId: orders.id, sourceType: 'IntegrationDataset', columnKey: key },
    });
  }
  const withColumns = await api<WithColumns>(page, server, 'get', `/api/models/${model.id}`);
  const column = (name: string) => withColumns.columns.find((c) => c.displayName === name)!.columnKey;
  await api(page, server, 'put', `/api/models/${model.id}/pivots`, {
    pivots: [
      {
        key: 'bystatus',
        name: 'By status',
        rows: [{ column: column('Status') }],
        values: [{ column: column('Amount'), function: 'Sum' }],
      },
    ],
  });
  await api(page, server, 'post', `/api/models/${model.id}/publish`);
}

/**
 * The browser test: an automation "sync Sample data → check orders not empty → export a
 * pivot as XLSX → e-mail it" built on Configure, run with Run now while the live banner follows it,
 * its run page read, and the report it made opened from the Reports page.
 */
describe('an automation from sync to e-mail, in the browser', () => {
  let server: RunningServer;
  let page: Page;
  const session = signedInSession('journey@example.com', '/automations');

  beforeAll(async () => {
    ({ server, page } = session);
    await seedShop(page, server);
  }, 120_000);

  /** The newest step card, after adding a step of the kind labelled `kind`. */
  async function addStep(kind: string, count: number): Promise<Locator> {
    await page.getByRole('button', { name: 'Add step' }).click();
    await page.getByRole('dialog', { name: 'Add step' }).getByRole('button', { name: kind }).click();
    await expect.poll(() => page.getByTestId('automation-step').count()).toBe(count);
    return page.getByTestId('automation-step').nth(count - 1);
  }

  /** Chooses `option` in the step's select (or multiselect) labelled `label`. */
  async function choose(step: Locator, label: string, option: string): Promise<void> {
    await step.getByRole('combobox', { name: label }).click();
    await page.getByRole('option', { name: option, exact: true }).click();
    await page.keyboard.press('Escape');
  }

  /** Types into a text input of the step; saved when the field is left. */
  async function type(step: Locator, label: string, text: string): Promise<void> {
    const field = step.getByRole('textbox', { name: label });
    await field.fill(text);
    await field.blur();
  }

  it('builds the four steps on Configure, each free of errors', async () => {
    await page.getByRole('button', { name: 'Add automation' }).first().click();
    const dialog = page.getByRole('dialog', { name: 'Create new automation' });
    await dialog.getByLabel('Name').fill('Orders report');
    await dialog.getByRole('button', { name: 'Create' }).click();
    await page.getByRole('heading', { name: 'Orders report' }).waitFor();

    const sync = await addStep('Sync integration', 1);
    await choose(sync, 'Integration', 'My Shop');
    await choose(sync, 'Datasets', 'orders');

    const check = await addStep('Check data', 2);
    await choose(check, 'Table', 'My Shop › orders');
    // The default check: at least one row.
    await expect.poll(() => check.getByRole('textbox', { name: 'At least (rows)' }).inputValue()).toBe('1');

    const exportStep = await addStep('Export report', 3);
    await choose(exportStep, 'Table, model or pivot', 'Sales › By status');
    await choose(exportStep, 'Format', 'XLSX');
    await type(exportStep, 'Report name', 'Orders by status');

    const email = await addStep('Send e-mail', 4);
    await type(email, 'Addresses', 'boss@example.com');
    await type(email, 'Subject', 'Orders report for {{run.startedAt}}');
    // The file: the export step's output, from the placeholder picker of the File input.
    const fileField = email.getByRole('textbox', { name: 'File' });
    const picker = fileField.locator('xpath=ancestor::div[contains(@class,"mantine-Stack-root")][1]');
    await picker.getByRole('button', { name: 'Insert placeholder' }).click();
    await page
      .getByRole('menuitem', { name: /File id/ })
      .first()
      .click();
    await expect.poll(() => fileField.inputValue()).toMatch(/^\{\{steps\.[^.]+\.fileId\}\}$/);

    // Every step complete: no error on any, and Run now is enabled.
    await expect.poll(() => page.getByTestId('step-error').count(), { timeout: 15_000 }).toBe(0);
    await expect.poll(() => page.getByRole('button', { name: 'Run now' }).isDisabled()).toBe(false);
    await page.screenshot({ path: '/tmp/shots/journey-configure.png', fullPage: true });
    await phoneShot(page, '/tmp/shots/journey-configure-390.png');
  });

  it('runs it: the live banner, then each step on the run page', async () => {
    await page.getByRole('button', { name: 'Run now' }).click();
    const banner = page.getByTestId('automation-banner');
    await banner.getByText('Automation has started').waitFor();
    await banner.getByText('Automation has completed').waitFor({ timeout: 120_000 });
    await page.screenshot({ path: '/tmp/shots/journey-completed.png' });

    await page.getByTestId('automation-status').or(banner).first().waitFor();
    await page.getByRole('tab', { name: 'Activity log' }).click();
    await page.getByTestId('activity-run').first().getByText('Run #1 - Completed').waitFor();
    await page.getByTestId('activity-run').first().getByRole('link', { name: 'View run' }).click();
    await page.getByRole('heading', { name: /^Automation Run - / }).waitFor();
    const steps = page.getByTestId('run-step');
    await expect.poll(() => steps.count()).toBe(4);
    for (let i = 0; i < 4; i++) await steps.nth(i).getByText('Completed', { exact: true }).first().waitFor();
    // The check's output counts the orders; the e-mail's inputs name the report's file.
    expect(await steps.nth(1).textContent()).toMatch(/"rowCount": [1-9]/);
    expect(await steps.nth(3).textContent()).toContain('boss@example.com');
    await page.screenshot({ path: '/tmp/shots/journey-run.png', fullPage: true });
    await phoneShot(page, '/tmp/shots/journey-run-390.png');

    // The e-mail left once, with the XLSX attached.
    await expect.poll(() => outbox(server.dataDir).filter((m) => m.to.includes('boss@example.com')).length).toBe(1);
    const mail = outbox(server.dataDir).find((m) => m.to.includes('boss@example.com'))!;
    expect(mail.subject).toMatch(/^Orders report for \d{4}-/);
    expect(mail.attachments?.[0]?.filename).toMatch(/\.xlsx$/);
    expect(mail.attachments?.[0]?.size).toBeGreaterThan(0);
  });

  it('opens the report on the Reports page, which leads back to the automation', async () => {
    await page.goto(`${server.url}/reports`);
    const row = page.locator('tbody tr', { hasText: 'Orders by status' });
    await row.waitFor();
    expect(await row.textContent()).toContain('Automation');
    await page.screenshot({ path: '/tmp/shots/journey-reports.png' });
    await row.getByRole('link', { name: 'Open automation' }).click();
    await page.getByRole('heading', { name: 'Orders report' }).waitFor();
  });
});
