import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { signedInSession, type RunningServer } from './harness';
import { phoneShot } from './automations-fixture';
import { api } from './workspace-fixture';

/** The names in the list's Name column, top to bottom. */
const listedNames = (page: Page) => page.locator('tbody tr td:first-child a').allTextContents();

/** Whether the focused element is (or is inside) the element of `selector`'s first match. */
const focusedName = (page: Page) =>
  page.evaluate(() => {
    const el = document.activeElement as HTMLElement | null;
    return (el?.getAttribute('aria-label') ?? el?.textContent ?? '').trim();
  });

/** Presses Tab until the focused element's name is `name` (at most `limit` times). */
async function tabTo(page: Page, name: string, limit = 40): Promise<void> {
  for (let i = 0; i < limit; i++) {
    await page.keyboard.press('Tab');
    if ((await focusedName(page)) === name) return;
  }
  throw new Error(`Tab never reached '${name}' (last: '${await focusedName(page)}')`);
}

describe('automations in the browser', () => {
  let server: RunningServer;
  let page: Page;
  const session = signedInSession('auto.mate@example.com', '/automations');

  beforeAll(() => {
    ({ server, page } = session);
  });

  it('starts empty, creates an automation from the dialog and opens it', async () => {
    await page.getByText('No automations created yet.').waitFor();
    await page.screenshot({ path: '/tmp/shots/automations-empty.png' });
    await page.getByRole('button', { name: 'Add automation' }).first().click();
    const dialog = page.getByRole('dialog', { name: 'Create new automation' });
    await dialog.waitFor();
    const create = dialog.getByRole('button', { name: 'Create' });
    expect(await create.isDisabled()).toBe(true);
    await dialog.getByLabel('Name').fill('   ');
    expect(await create.isDisabled()).toBe(true);
    await dialog.getByLabel('Name').fill('Nightly export');
    await dialog.getByLabel('Description (optional)').fill('Sends the orders every night');
    expect(await create.isDisabled()).toBe(false);
    await create.click();

    await page.waitForURL(/\/automations\/[^/?]+$/);
    await page.getByRole('heading', { name: 'Nightly export' }).waitFor();
    await page.getByText('Sends the orders every night').waitFor();
    // No steps yet: the definition has an error, shown, and 'Run now' is disabled while it does.
    await page.getByTestId('automation-error').waitFor();
    expect(await page.getByRole('button', { name: 'Run now' }).isDisabled()).toBe(true);
    await page.getByRole('tab', { name: 'Configure', selected: true }).waitFor();
  });

  it('keeps the tab in the URL and says when the automation has not run', async () => {
    await page.getByRole('tab', { name: 'Activity log' }).click();
    await page.waitForURL(/[?&]tab=ActivityLog/);
    await page.getByText('This automation has not run yet.').waitFor();
    await page.reload();
    await page.getByRole('tab', { name: 'Activity log', selected: true }).waitFor();
    await page.getByText('This automation has not run yet.').waitFor();
    await page.getByRole('tab', { name: 'Configure' }).click();
    await page.waitForURL((url) => url.searchParams.get('tab') === 'Configure');
  });

  it("says when a run cannot be loaded: 'Error: Failed to load run info'", async () => {
    const automationUrl = page.url().split('?')[0]!;
    await page.goto(`${automationUrl}/run/01a00000-0000-7000-8000-000000000000`);
    await page.getByText('Error: Failed to load run info').waitFor();
    await page.goto(automationUrl);
  });

  it('edits name and description in Settings, Save enabled only on a change', async () => {
    await page.getByRole('button', { name: 'Automation menu' }).click();
    await page.getByRole('menuitem', { name: 'Settings' }).click();
    const dialog = page.getByRole('dialog', { name: 'Settings' });
    await dialog.waitFor();
    const save = dialog.getByRole('button', { name: 'Save' });
    expect(await save.isDisabled()).toBe(true);
    await dialog.getByLabel('Name').fill('Nightly export');
    expect(await save.isDisabled()).toBe(true);
    await dialog.getByLabel('Name').fill('');
    expect(await save.isDisabled()).toBe(true);
    await dialog.getByLabel('Name').fill('Nightly orders export');
    expect(await save.isDisabled()).toBe(false);
    await save.click();
    await dialog.waitFor({ state: 'hidden' });
    await page.getByRole('heading', { name: 'Nightly orders export' }).waitFor();

    await page.getByRole('button', { name: 'Automation menu' }).click();
    await page.getByRole('menuitem', { name: 'Settings' }).click();
    await dialog.getByLabel('Description').fill('Every night at six');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await dialog.waitFor({ state: 'hidden' });
    await page.getByText('Every night at six').waitFor();
  });

  it('lists automations sorted by name ignoring case, filtered and paged, with No runs yet', async () => {
    const names = ['alpha report', 'Alpha budget', ...Array.from({ length: 53 }, (_, i) => `Flow ${i + 10}`)];
    for (const name of names)
      await api(page, server, 'post', '/api/automations/definitions', { name, description: '' });
    await page.goto(`${server.url}/automations`);
    await page.getByText('56 automation(s)').waitFor();
    const first = await listedNames(page);
    expect(first).toHaveLength(50);
    expect(first.slice(0, 3)).toEqual(['Alpha budget', 'alpha report', 'Flow 10']);
    const row = page.locator('tbody tr', { hasText: 'Alpha budget' });
    expect(await row.textContent()).toContain('No runs yet');

    await page.getByRole('combobox', { name: 'Rows per page' }).click();
    await page.getByRole('option', { name: '100' }).click();
    await page.waitForURL(/[?&]pageSize=100/);
    await expect.poll(async () => (await listedNames(page)).length).toBe(56);

    await page.getByLabel('Filter automations').fill('ALPHA');
    await page.waitForURL(/[?&]q=ALPHA/);
    await expect.poll(() => listedNames(page)).toEqual(['Alpha budget', 'alpha report']);
    expect(await page.getByLabel('Filter automations').getAttribute('placeholder')).toBe('Filter automations...');
    await page.screenshot({ path: '/tmp/shots/automations-list.png' });
    await phoneShot(page, '/tmp/shots/automations-list-390.png');
  });

  it('deletes an automation after its prompt', async () => {
    await page.getByLabel('Filter automations').fill('alpha report');
    await page.getByRole('link', { name: 'alpha report' }).click();
    await page.getByRole('heading', { name: 'alpha report' }).waitFor();
    await page.getByRole('button', { name: 'Automation menu' }).click();
    await page.getByRole('menuitem', { name: 'Delete automation' }).click();
    const confirm = page.getByRole('dialog', { name: 'Confirm' });
    await confirm.getByText('Are you sure you want to delete this automation?').waitFor();
    await confirm.getByRole('button', { name: 'Cancel' }).click();
    await confirm.waitFor({ state: 'hidden' });
    await page.getByRole('button', { name: 'Automation menu' }).click();
    await page.getByRole('menuitem', { name: 'Delete automation' }).click();
    await confirm.getByRole('button', { name: 'Ok' }).click();
    await page.waitForURL((url) => url.pathname === '/automations');
    await page.getByLabel('Filter automations').fill('alpha');
    await expect.poll(() => listedNames(page)).toEqual(['Alpha budget']);
  });

  it('is reachable from the sidebar and the home page', async () => {
    await page.goto(`${server.url}/`);
    await page.getByRole('link', { name: '4. Automations' }).click();
    await page.waitForURL((url) => url.pathname === '/automations');
    await page.getByRole('heading', { name: 'Automations' }).waitFor();
    await page.goto(`${server.url}/tables`);
    await page.getByRole('navigation').getByRole('link', { name: 'Automations' }).click();
    await page.waitForURL((url) => url.pathname === '/automations');
  });

  it('creates an automation and builds its steps with the keyboard alone', async () => {
    await page.goto(`${server.url}/automations`);
    await page.getByRole('heading', { name: 'Automations' }).waitFor();
    await tabTo(page, 'Add automation');
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog', { name: 'Create new automation' });
    await dialog.waitFor();
    // The dialog opens on its Name field.
    await expect.poll(() => dialog.getByLabel('Name').evaluate((el) => el === document.activeElement)).toBe(true);
    await page.keyboard.type('Keyboard flow');
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: 'Keyboard flow' }).waitFor();

    // Two steps from the kind picker, each chosen with Tab and Enter.
    for (let n = 0; n < 2; n++) {
      await page.locator('body').focus();
      await tabTo(page, 'Add step', 80);
      await page.keyboard.press('Enter');
      const picker = page.getByRole('dialog', { name: 'Add step' });
      await picker.waitFor();
      const kind = await picker.getByTestId('step-kind').first().getAttribute('aria-label');
      await tabTo(page, kind!);
      await page.keyboard.press('Enter');
      await picker.waitFor({ state: 'hidden' });
      await expect.poll(() => page.getByTestId('automation-step').count()).toBe(n + 1);
    }
    const stepNames = () =>
      page.getByTestId('automation-step').evaluateAll((els) => els.map((el) => el.getAttribute('aria-label')));
    const [, second] = await stepNames();

    // Renamed in place: typed, then Enter saves; kept after a reload.
    const name = page.getByTestId('automation-step').first().getByLabel('Step name');
    await name.focus();
    await page.keyboard.press('ControlOrMeta+a');
    await page.keyboard.type('First of all');
    await page.keyboard.press('Enter');
    await expect.poll(stepNames).toEqual(['Step 1: First of all', second]);
    await page.reload();
    await expect.poll(stepNames).toEqual(['Step 1: First of all', second]);

    // The second step moves up with its button, reached by the keyboard.
    await page.getByTestId('automation-step').nth(1).getByRole('button', { name: 'Move step up' }).focus();
    await page.keyboard.press('Enter');
    await expect.poll(stepNames).toEqual([second!.replace('Step 2', 'Step 1'), 'Step 2: First of all']);

    // Removed after a confirm.
    await page.getByTestId('automation-step').nth(1).getByRole('button', { name: 'Remove step' }).focus();
    await page.keyboard.press('Enter');
    await page.getByRole('dialog', { name: 'Confirm' }).getByRole('button', { name: 'Ok' }).waitFor();
    await page.keyboard.press('Enter');
    await expect.poll(() => page.getByTestId('automation-step').count()).toBe(1);
    await page.screenshot({ path: '/tmp/shots/automation-configure.png', fullPage: true });
    await phoneShot(page, '/tmp/shots/automation-configure-390.png');
  });
});
