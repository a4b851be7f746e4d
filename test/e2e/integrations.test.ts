import fs from 'node:fs';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { signedInSession, type RunningServer } from './harness';

const SHOTS = '/tmp/shots';

async function shot(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: `${SHOTS}/${name}.png`, fullPage: true });
}

/** Checks (or unchecks) a checkbox found by its accessible name, when it is not already so. */
async function setChecked(page: Page, name: string, on: boolean): Promise<void> {
  const box = page.getByRole('checkbox', { name, exact: true });
  // On a loaded machine the click's re-render can land after the click returns, and a click landing
  // while the list re-renders can be lost: look again, and click again only while the state is wrong.
  for (let attempt = 1; ; attempt += 1) {
    if ((await box.isChecked()) !== on) await box.click();
    try {
      await expect.poll(() => box.isChecked(), { timeout: 3_000 }).toBe(on);
      return;
    } catch (error) {
      if (attempt === 4) throw error;
    }
  }
}

describe('integrations in the browser', () => {
  let server: RunningServer;
  let page: Page;
  const session = signedInSession('ivy.ng@example.com', '/integrations');

  beforeAll(async () => {
    ({ server, page } = session);
    fs.mkdirSync(SHOTS, { recursive: true });
  });

  it('adds the Sample data integration through the drawer and the create form', async () => {
    await page.getByText('No integrations added yet.').waitFor();
    await shot(page, 'integrations-empty');
    await page.getByRole('button', { name: 'Add new integration' }).click();
    const drawer = page.getByRole('dialog', { name: 'Add integration' });
    await drawer.getByRole('button', { name: 'REST API' }).waitFor();
    await drawer.getByLabel('Filter integrations').fill('sample');
    expect(await drawer.getByRole('button', { name: 'REST API' }).count()).toBe(0);
    await shot(page, 'integrations-drawer');
    await drawer.getByRole('button', { name: 'Sample data' }).click();

    await page.waitForURL(/\/integrations\/create\/[^/]+$/);
    const create = page.getByRole('button', { name: 'Create' });
    expect(await create.isDisabled()).toBe(true);
    await page.getByRole('textbox', { name: /^Name/ }).fill('My Shop 2024');
    expect(await page.getByRole('textbox', { name: /^Schema name/ }).inputValue()).toBe('my_shop_2024');
    await shot(page, 'integrations-create');
    await create.click();

    await page.waitForURL(/\/integrations\/[0-9a-f-]{36}$/);
    await page.getByRole('heading', { name: 'My Shop 2024' }).waitFor();
    await page.getByText('Data syncing').waitFor();
    await page.getByText('Next data sync').waitFor();
  });

  it('picks datasets and properties in Dataset settings', async () => {
    // Discovery may still be running: the settings list its datasets once it has loaded.
    await page.getByText('Discovering available datasets').waitFor({ state: 'hidden', timeout: 30_000 });
    await page.getByRole('button', { name: 'Integration menu' }).click();
    await page.getByRole('menuitem', { name: 'Dataset settings' }).click();
    const dialog = page.getByRole('dialog', { name: 'Dataset settings' });
    const save = dialog.getByRole('button', { name: 'Save' });
    await dialog.getByText('customers', { exact: true }).waitFor();
    expect(await save.isDisabled()).toBe(true);

    await setChecked(page, 'Sync customers', true);
    await setChecked(page, 'Sync products', true);
    await setChecked(page, 'Sync orders', false);
    await dialog.getByText('customers', { exact: true }).click();
    const key = dialog.getByRole('checkbox', { name: 'customer_id (primary key)' });
    expect(await key.isChecked()).toBe(true);
    expect(await key.isDisabled()).toBe(true);
    await setChecked(page, 'email', false);
    await expect.poll(() => save.isDisabled()).toBe(false);
    await shot(page, 'integrations-dataset-settings');
    await save.click();
    await dialog.waitFor({ state: 'hidden' });

    const id = new URL(page.url()).pathname.split('/').at(-1)!;
    const response = await page.request.get(`${server.url}/api/integrations/${id}/datasets`);
    const saved = (await response.json()) as {
      datasets: { name: string; isSelected: boolean; selectedProperties: string[] }[];
    };
    const chosen = Object.fromEntries(saved.datasets.map((d) => [d.name, d]));
    expect(chosen.customers?.isSelected).toBe(true);
    expect(chosen.products?.isSelected).toBe(true);
    expect(chosen.orders?.isSelected).toBe(false);
    expect(chosen.customers?.selectedProperties).not.toContain('email');
    expect(chosen.customers?.selectedProperties).toContain('customer_id');
  });

  it('syncs now and watches the activity log reach Completed', async () => {
    await page.getByRole('button', { name: 'Sync data now' }).click();
    await page.getByRole('tab', { name: 'Activity log' }).click();
    expect(page.url()).toContain('tab=ActivityLog');
    await page.getByText('Latest run').waitFor();
    const badge = page.locator('.mantine-Badge-root', { hasText: 'Completed' }).first();
    await badge.waitFor({ timeout: 60_000 });
    await page.getByText(/\[INFO\] Sync completed/).waitFor();
    // Once the run has ended the button stops spinning (its status polls every 5 s).
    await expect
      .poll(() => page.getByRole('button', { name: 'Sync data now' }).isEnabled(), { timeout: 15_000 })
      .toBe(true);
    // The strip of recent runs shows the finished run.
    await expect
      .poll(() => page.locator('[aria-label="Recent runs"] [data-status="Completed"]').count(), { timeout: 15_000 })
      .toBe(1);
    await shot(page, 'integrations-activity-log');
  });

  it('shows the synced rows in the Data tab and filters them', async () => {
    await page.getByRole('tab', { name: 'Data' }).click();
    await page.getByRole('columnheader', { name: 'customer_id' }).waitFor({ timeout: 30_000 });
    expect(await page.getByRole('columnheader', { name: 'email' }).count()).toBe(0);
    // Datasets load 100 rows at a time: the first chunk of the 200 customers.
    await page.getByText('Displaying 100 of 200 row(s)').waitFor();

    await page.getByRole('button', { name: 'Filter' }).click();
    await page.locator('input[aria-label="Column"]').click();
    await page.getByRole('option', { name: 'customer_id' }).click();
    await page.locator('input[aria-label="Operator"]').click();
    await page.getByRole('option', { name: 'is greater than' }).click();
    await page.locator('input[aria-label="Value"]').fill('190');
    await page.getByRole('button', { name: 'Apply' }).click();
    await page.getByText('Displaying 10 row(s)').waitFor();
    expect(page.url()).toContain('filter=');
    await shot(page, 'integrations-data');

    await page.locator('input[aria-label="Dataset"]').click();
    await page.getByRole('option', { name: 'products' }).click();
    await page.getByRole('columnheader', { name: 'unit_price' }).waitFor();
    expect(page.url()).toContain('dataset=products');
  });

  it("shows the records processed on the home page's 'Integration data' chart", async () => {
    await page.goto(`${server.url}/`);
    const chart = page.getByLabel('Integration data');
    await chart.waitFor();
    const summary = await chart.getByRole('img').getAttribute('aria-label');
    const records = Number(/^(\d+) records/.exec(summary ?? '')?.[1]);
    expect(records).toBeGreaterThan(0);
    await page.screenshot({ path: '/tmp/shots/home-chart.png' });
  });

  it('lists the integration with its source, latest activity and syncing state', async () => {
    await page.goto(`${server.url}/integrations`);
    const row = page.getByRole('row', { name: /My Shop 2024/ });
    await row.waitFor();
    expect(await row.textContent()).toContain('Sample data');
    expect(await row.textContent()).toContain('Completed');
    await row.getByRole('img', { name: /Active|Inactive/ }).waitFor();
    await shot(page, 'integrations-list');
  });
  it('checks the REST API form fields as they are filled, and goes back to the selection', async () => {
    await page.getByRole('button', { name: 'Add integration' }).click();
    await page.getByRole('dialog', { name: 'Add integration' }).getByRole('button', { name: 'REST API' }).click();
    await page.waitForURL(/\/integrations\/create\/[^/]+$/);
    await page.getByRole('textbox', { name: /^Name/ }).fill('Orders API');
    const create = page.getByRole('button', { name: 'Create' });
    const baseUrl = page.getByRole('textbox', { name: /^Base URL/ });
    await baseUrl.fill('ftp://example.com');
    await baseUrl.blur();
    await page.getByText('Invalid format').waitFor();
    await baseUrl.fill('');
    await page.getByText('This field is required').first().waitFor();
    await baseUrl.fill('https://example.com');
    expect(await page.getByText('Invalid format').count()).toBe(0);

    // Streams is required JSON; the advanced settings hold the optional fields, collapsed at first.
    await page.getByRole('textbox', { name: /^Streams/ }).fill('[{"name": "orders", "path": "/orders"}]');
    const tries = page.getByRole('textbox', { name: /^Tries per request/ });
    expect(await tries.isVisible()).toBe(false);
    await page.getByRole('button', { name: 'Advanced settings' }).click();
    expect(await tries.inputValue()).toBe('5');
    await tries.fill('five');
    await tries.blur();
    await page.getByText('Value must be a number').waitFor();
    expect(await create.isDisabled()).toBe(true);
    await tries.fill('3');
    expect(await create.isDisabled()).toBe(false);

    await page.locator('input[aria-label="Authentication"]').click();
    await page.getByRole('option', { name: 'API key' }).click();
    expect(await page.getByRole('textbox', { name: /^Header or parameter name/ }).inputValue()).toBe('X-API-Key');
    await page
      .getByLabel(/^API key/)
      .last()
      .waitFor();
    await shot(page, 'integrations-create-rest');

    await page.getByRole('button', { name: 'Back to selection' }).click();
    await page.getByRole('dialog', { name: 'Add integration' }).getByRole('button', { name: 'Sample data' }).waitFor();
  });
  it('schedules syncs, turns syncing off, and renames the integration', async () => {
    await page.goto(`${server.url}/integrations`);
    await page.getByRole('link', { name: 'My Shop 2024' }).click();
    await page.getByText('Not scheduled').waitFor();
    await page.getByRole('button', { name: 'Integration menu' }).click();
    await page.getByRole('menuitem', { name: 'Sync schedule' }).click();
    const dialog = page.getByRole('dialog', { name: 'Sync schedule' });
    await dialog.getByText('Scheduled', { exact: true }).click();
    await dialog.getByRole('textbox', { name: /^Cron expression/ }).fill('0 6 *');
    await dialog.getByText('Invalid cron expression').waitFor();
    await dialog.getByRole('textbox', { name: /^Cron expression/ }).fill('');
    await dialog.getByRole('textbox', { name: /^Time/ }).fill('06:30');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await dialog.waitFor({ state: 'hidden' });
    const toggle = page.getByRole('switch', { name: 'Data syncing' });
    await expect.poll(() => toggle.isChecked()).toBe(true);
    expect(await page.getByTestId('next-sync').textContent()).not.toBe('Not scheduled');

    await toggle.click({ force: true });
    await expect.poll(() => toggle.isChecked()).toBe(false);
    await page.getByText('Not scheduled').waitFor();

    await page.getByRole('button', { name: 'Integration menu' }).click();
    await page.getByRole('menuitem', { name: 'Settings', exact: true }).click();
    const settings = page.getByRole('dialog', { name: 'Integration settings' });
    await settings.getByRole('textbox').fill('Shop');
    await settings.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('heading', { name: 'Shop', exact: true }).waitFor();
  });

  it('shows a Webhook integration its address, then deletes it', async () => {
    await page.goto(`${server.url}/integrations?add=true`);
    await page.getByRole('dialog', { name: 'Add integration' }).getByRole('button', { name: 'Webhook' }).click();
    await page.getByRole('textbox', { name: /^Name/ }).fill('Hooks');
    await page.getByRole('button', { name: 'Create' }).click();
    await page.waitForURL(/\/integrations\/[0-9a-f-]{36}$/);
    await expect
      .poll(() => page.getByTestId('push-address').textContent())
      .toMatch(/\/api\/integrations\/webhook\/\S+$/);
    expect(await page.getByText('Data syncing').count()).toBe(0);
    await shot(page, 'integrations-webhook');

    await page.getByRole('button', { name: 'Integration menu' }).click();
    await page.getByRole('menuitem', { name: 'Delete integration' }).click();
    await page.getByRole('button', { name: 'Ok' }).click();
    await page.waitForURL(`${server.url}/integrations`);
    await page.getByRole('link', { name: 'Shop', exact: true }).waitFor();
    expect(await page.getByRole('link', { name: 'Hooks' }).count()).toBe(0);
  });
  it('refreshes all data of the chosen datasets after a confirm', async () => {
    await page.getByRole('link', { name: 'Shop', exact: true }).click();
    await page.getByRole('button', { name: 'Integration menu' }).click();
    await page.getByRole('menuitem', { name: 'Refresh all data' }).click();
    const dialog = page.getByRole('dialog', { name: 'Refresh data' });
    const refresh = dialog.getByRole('button', { name: 'Refresh' });
    await dialog.getByRole('checkbox', { name: 'customers' }).uncheck();
    await dialog.getByRole('checkbox', { name: 'products' }).uncheck();
    expect(await refresh.isDisabled()).toBe(true);
    await dialog.getByRole('checkbox', { name: 'products' }).check();
    await refresh.click();
    await page.getByRole('button', { name: 'Ok' }).click();
    await page.getByText('Data refresh started.').waitFor();
    const id = new URL(page.url()).pathname.split('/').at(-1)!;
    await expect
      .poll(
        async () => {
          const jobs = (await (await page.request.get(`${server.url}/api/integrations/${id}/jobs`)).json()) as {
            data: { kind: string; status: string; attempts: { progress: { datasets: { name: string }[] } }[] }[];
          };
          const latest = jobs.data[0];
          const names = latest?.attempts.at(-1)?.progress.datasets.map((d) => d.name) ?? [];
          return `${latest?.kind} ${latest?.status} ${names.join(',')}`;
        },
        { timeout: 60_000 },
      )
      .toBe('FullRefresh Completed products');
  });
  it('shows an Incoming e-mail integration its address (or that it is missing) and the file types', async () => {
    await page.goto(`${server.url}/integrations?add=true`);
    await page
      .getByRole('dialog', { name: 'Add integration' })
      .getByRole('button', { name: 'Incoming e-mail' })
      .click();
    await page.getByRole('textbox', { name: /^Name/ }).fill('Mailbox');
    await page.getByRole('button', { name: 'Create' }).click();
    await page.waitForURL(/\/integrations\/[0-9a-f-]{36}$/);
    await page.getByText('E-mail address').waitFor();
    expect(await page.getByTestId('push-address').textContent()).toMatch(/^(-- Email missing --|\S+@\S+)$/);
    await page.getByText('Allowed file types: CSV, JSON, XML, Parquet and Avro').waitFor();
    await page.getByRole('button', { name: 'Integration menu' }).click();
    expect(await page.getByRole('menuitem', { name: 'Dataset settings' }).count()).toBe(0);
    await page.keyboard.press('Escape');
    await shot(page, 'integrations-email');
  });
  it('lists a custom definition apart and explains the fields it cannot show', async () => {
    const specification = {
      settings: {
        type: 'object',
        required: ['code', 'mode'],
        properties: {
          code: {
            type: 'string',
            title: 'Code',
            pattern: '/^[A-Z]{3}$/i',
            pattern_descriptor: 'Three capital letters',
          },
          mode: { type: 'string', title: 'Mode', enum: ['fast', 'safe'] },
          // A valid JSON Schema type (definitions are checked against the draft-07 meta-schema) the form has no field for.
          shape: { type: 'null', title: 'Shape' },
          choice: { type: 'object', title: 'Choice', oneOf: [{ title: 'A', properties: { a: { type: 'string' } } }] },
        },
      },
    };
    const created = await page.request.post(`${server.url}/api/integration_definitions`, {
      data: { name: 'Acme feed', type: 'Api', specification: JSON.stringify(specification) },
    });
    expect(created.status()).toBe(201);

    await page.goto(`${server.url}/integrations?add=true`);
    const drawer = page.getByRole('dialog', { name: 'Add integration' });
    await drawer.getByText('Custom integrations').waitFor();
    const names = await drawer
      .locator('button[aria-label]')
      .evaluateAll((buttons) => buttons.map((b) => b.getAttribute('aria-label')));
    expect(names.at(-1)).toBe('Acme feed');
    expect(names.slice(0, -1)).toEqual([...names.slice(0, -1)].sort((a, b) => a!.localeCompare(b!)));
    await drawer.getByRole('button', { name: 'Acme feed' }).click();

    await page.getByRole('textbox', { name: /^Code/ }).fill('ab');
    await page.getByRole('textbox', { name: /^Code/ }).blur();
    await page.getByText('Three capital letters').waitFor();
    await page.getByRole('button', { name: 'Advanced settings' }).click();
    await page.getByText('Property type null not supported.').waitFor();
    await page.getByText('OneOf configuration missing discriminator field with const values.').waitFor();
    expect(await page.getByRole('button', { name: 'Create' }).isDisabled()).toBe(true);
    await shot(page, 'integrations-create-custom');
  });
});
