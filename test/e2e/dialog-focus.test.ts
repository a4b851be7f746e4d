import type { Locator, Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { signedInSession, type RunningServer } from './harness';
import { api, seedWorkspace, type Workspace } from './workspace-fixture';

/** What has focus: its accessible name, and whether it is the dialog's header close button. */
const focused = (page: Page) =>
  page.evaluate(() => {
    const el = document.activeElement as HTMLElement | null;
    return {
      closeButton: Boolean(el?.closest('.mantine-Modal-close, .mantine-Drawer-close')),
      inDialog: Boolean(el?.closest('[role="dialog"]')),
      name: (el?.getAttribute('aria-label') ?? el?.textContent ?? el?.tagName ?? '').trim().slice(0, 60),
    };
  });

/**
 * Opens a dialog with `open`, then checks that focus lands inside it, on `expected` (its first
 * field, or the named control) and not on the header's close button; Escape then closes it.
 */
async function checkFocus(page: Page, title: string, open: () => Promise<void>, expected: (d: Locator) => Locator) {
  await open();
  const dialog = page.getByRole('dialog', { name: title });
  await dialog.waitFor();
  const target = expected(dialog);
  await expect
    .poll(() => target.evaluate((el) => el === document.activeElement || el.contains(document.activeElement)), {
      message: `${title}: focus on its first field (now ${JSON.stringify(await focused(page))})`,
      timeout: 10_000,
    })
    .toBe(true);
  const now = await focused(page);
  expect(now.closeButton, title).toBe(false);
  expect(now.inDialog, title).toBe(true);
  await page.keyboard.press('Escape');
  await dialog.waitFor({ state: 'hidden' });
}

describe('dialogs and drawers open on their first field', () => {
  let server: RunningServer;
  let page: Page;
  let workspace: Workspace;
  const session = signedInSession('fo.cus@example.com', '/');

  beforeAll(async () => {
    ({ server, page } = session);
    workspace = await seedWorkspace(page, server);
    await api(page, server, 'post', `/api/models/${workspace.modelId}/columns`, {
      displayName: 'With tax',
      function: 'ROUND([Amount] * 1.2, 2)',
    });
  });

  it('focuses the first field of every model dialog and drawer', async () => {
    await page.goto(`${server.url}/models/${workspace.modelId}`);
    await page.getByRole('button', { name: 'Columns and relationships' }).waitFor();

    await checkFocus(
      page,
      'Version history',
      () => page.getByRole('button', { name: 'Versions' }).click(),
      (d) => d.getByRole('checkbox').first(),
    );
    await checkFocus(
      page,
      'Raw SQL',
      async () => {
        await page.getByRole('button', { name: 'Model menu' }).click();
        await page.getByRole('menuitem', { name: 'Show SQL' }).click();
      },
      (d) => d.getByLabel('Model SQL'),
    );
    await checkFocus(
      page,
      'Columns and relationships',
      () => page.getByRole('button', { name: 'Columns and relationships' }).click(),
      (d) => d.getByLabel('Name of Amount'),
    );
    // The panel's own dialogs (the panel stays open under them).
    await page.getByRole('button', { name: 'Columns and relationships' }).click();
    const panel = page.getByRole('dialog', { name: 'Columns and relationships' });
    await checkFocus(
      page,
      'Format: Amount',
      () => panel.getByRole('button', { name: 'Format Amount' }).click(),
      (d) => d.getByRole('radio', { name: 'Number' }),
    );
    // Escape closed the dialog only: the panel it came from stays open.
    expect(await panel.isVisible()).toBe(true);
    await checkFocus(
      page,
      'Edit function column: With tax',
      () => panel.getByRole('button', { name: 'Edit formula of With tax' }).click(),
      (d) => d.getByLabel('Formula'),
    );
    await page.keyboard.press('Escape');
    await panel.waitFor({ state: 'hidden' });

    await page.goto(`${server.url}/models/${workspace.modelId}/pivot/${workspace.pivotKey}`);
    await checkFocus(
      page,
      'Edit pivot',
      () => page.getByRole('button', { name: 'Edit pivot' }).first().click(),
      (d) => d.locator('input, textarea, [role="combobox"]').first(),
    );
  });

  it('focuses the first field of every integration dialog', async () => {
    await page.goto(`${server.url}/integrations/${workspace.integrationId}`);
    await page.getByText('Discovering available datasets').waitFor({ state: 'hidden', timeout: 30_000 });
    const menuItem = (name: string) => async () => {
      await page.getByRole('button', { name: 'Integration menu' }).click();
      await page.getByRole('menuitem', { name, exact: true }).click();
    };
    await checkFocus(page, 'Dataset settings', menuItem('Dataset settings'), (d) =>
      d.getByRole('checkbox', { name: 'Select all datasets' }),
    );
    // Choose every dataset, so Refresh data has some to offer.
    await menuItem('Dataset settings')();
    const settings = page.getByRole('dialog', { name: 'Dataset settings' });
    await settings.getByRole('checkbox', { name: 'Select all datasets' }).check();
    await settings.getByRole('button', { name: 'Save' }).click();
    await settings.waitFor({ state: 'hidden' });

    await checkFocus(page, 'Sync schedule', menuItem('Sync schedule'), (d) => d.getByRole('radio', { name: 'Manual' }));
    await checkFocus(page, 'Refresh data', menuItem('Refresh all data'), (d) => d.getByRole('checkbox').first());
    await checkFocus(page, 'Integration settings', menuItem('Settings'), (d) => d.getByRole('textbox').first());
  });

  it('focuses the first field of the table and account dialogs', async () => {
    await page.goto(`${server.url}/tables/${workspace.tableId}`);
    await checkFocus(
      page,
      'Column settings',
      async () => {
        await page.getByRole('button', { name: 'Column menu region' }).click();
        await page.getByRole('menuitem', { name: 'Column settings' }).click();
      },
      (d) => d.getByRole('textbox').first(),
    );
    await page.goto(`${server.url}/settings/account`);
    await checkFocus(
      page,
      'Invite new user',
      () => page.getByRole('button', { name: 'Invite new user' }).click(),
      (d) => d.getByRole('textbox').first(),
    );
  });
});
