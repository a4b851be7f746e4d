import fs from 'node:fs';
import type { Locator, Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { signedInSession, type RunningServer } from './harness';
import { mainPages, seedWorkspace, type Workspace } from './workspace-fixture';

const SHOTS = '/tmp/shots/layout';
const WIDE = { width: 1440, height: 900 };
const PHONE = { width: 390, height: 844 };

/** How far the page scrolls sideways beyond the window (0 when nothing runs off it). */
const sidewaysOverflow = (page: Page) =>
  page.evaluate(() => document.scrollingElement!.scrollWidth - window.innerWidth);

/** Waits until the page has drawn its data: the frame is there and no request is in flight. */
async function settle(page: Page): Promise<void> {
  await page.locator('[data-page-frame]').waitFor();
  await page.waitForLoadState('networkidle');
  await page.locator('.mantine-Skeleton-root').first().waitFor({ state: 'detached', timeout: 15_000 });
}

function intersects(a: { x: number; y: number; width: number; height: number }, b: typeof a): boolean {
  return a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
}

async function box(locator: Locator) {
  const found = await locator.boundingBox();
  if (!found) throw new Error(`No box for ${locator.toString()}`);
  return found;
}

/** The visible text or label of the focused element. */
const focusedName = (page: Page) =>
  page.evaluate(() => {
    const el = document.activeElement as HTMLElement | null;
    return (el?.getAttribute('aria-label') ?? el?.textContent ?? '').trim();
  });

describe('the layout at 1440 and 390 px, and the keyboard', () => {
  let server: RunningServer;
  let page: Page;
  let workspace: Workspace;
  const session = signedInSession('lay.out@example.com', '/');

  beforeAll(async () => {
    ({ server, page } = session);
    fs.mkdirSync(SHOTS, { recursive: true });
    workspace = await seedWorkspace(page, server);
  });

  it('shows every main page at 390 px without sideways scrolling (screenshots at both widths)', async () => {
    for (const [name, path] of Object.entries(mainPages(workspace))) {
      await page.setViewportSize(WIDE);
      await page.goto(server.url + path);
      await settle(page);
      await page.screenshot({ path: `${SHOTS}/${name}-1440.png` });
      await page.setViewportSize(PHONE);
      await settle(page);
      // The side panel slides off-screen when the page narrows: the picture waits until it is gone.
      await expect
        .poll(() =>
          page.evaluate(() => document.querySelector('.mantine-AppShell-navbar')?.getBoundingClientRect().right ?? 0),
        )
        .toBeLessThanOrEqual(0);
      await expect.poll(() => sidewaysOverflow(page), { message: `${name} at 390 px`, timeout: 10_000 }).toBe(0);
      await page.screenshot({ path: `${SHOTS}/${name}-390.png`, fullPage: true });
    }
    // The grid's Filter popup fits the phone too.
    await page.goto(`${server.url}/tables/${workspace.tableId}`);
    await settle(page);
    await page.getByRole('button', { name: /^Filter/ }).click();
    const popup = page
      .locator('.mantine-Popover-dropdown')
      .filter({ has: page.getByRole('button', { name: 'Apply' }) });
    const shown = await box(popup);
    expect(shown.x).toBeGreaterThanOrEqual(0);
    expect(shown.x + shown.width).toBeLessThanOrEqual(PHONE.width);
    await page.screenshot({ path: `${SHOTS}/filter-popup-390.png` });
    await page.keyboard.press('Escape');
  });

  it('collapses the header into the burger at 390 px, with the account switcher and user menu inside', async () => {
    await page.setViewportSize(PHONE);
    await page.goto(`${server.url}/tables`);
    await settle(page);
    expect(await page.getByRole('button', { name: 'User menu' }).isVisible()).toBe(false);
    // The closed panel is off-screen and out of the Tab order.
    const navbar = page.locator('nav.mantine-AppShell-navbar');
    expect(await navbar.getAttribute('inert')).not.toBeNull();
    const closed = await box(navbar);
    expect(closed.x + closed.width).toBeLessThanOrEqual(0);
    // The bug report stays in the header, reachable without opening anything.
    expect(await page.getByRole('button', { name: 'Report a bug' }).isVisible()).toBe(true);

    await page.getByRole('button', { name: 'Toggle navigation' }).click();
    await expect.poll(async () => (await box(navbar)).x).toBe(0);
    expect(await navbar.getAttribute('inert')).toBeNull();
    await page.getByText('lay.out@example.com').waitFor();
    for (const name of ['User settings', 'Account switcher', 'Schedule call', 'Message support']) {
      expect(await page.getByRole('button', { name }).isVisible(), name).toBe(true);
    }
    await page.screenshot({ path: `${SHOTS}/burger-390.png` });
    // Every item of the panel is inside the window.
    const opened = await box(navbar);
    expect(opened.x + opened.width).toBeLessThanOrEqual(PHONE.width);

    await page.getByRole('button', { name: 'Account switcher' }).click();
    await page.getByRole('button', { name: 'Manage account' }).waitFor();
    await page.getByRole('button', { name: 'User settings' }).click();
    await page.waitForURL(`${server.url}/settings/user`);
    // Choosing an item closes the panel.
    await expect.poll(() => navbar.getAttribute('inert')).not.toBeNull();
    await page.getByRole('heading', { name: 'User settings' }).waitFor();

    // The admin shell follows the same rule.
    await page.goto(`${server.url}/admin`);
    await settle(page);
    expect(await navbar.getAttribute('inert')).not.toBeNull();
    await page.getByRole('button', { name: 'Toggle navigation' }).click();
    await expect.poll(() => navbar.getAttribute('inert')).toBeNull();
    await page.getByRole('link', { name: 'Integration definitions' }).click();
    await page.waitForURL(`${server.url}/admin/integration/definitions`);
    await expect.poll(() => navbar.getAttribute('inert')).not.toBeNull();
  });

  it("keeps the bug button off the grid's pager buttons at both widths", async () => {
    for (const viewport of [WIDE, PHONE]) {
      await page.setViewportSize(viewport);
      await page.goto(`${server.url}/tables/${workspace.tableId}?view=pages`);
      await settle(page);
      const bug = await box(page.getByRole('button', { name: 'Report a bug' }));
      for (const name of ['Previous page', 'Next page', 'Last page', 'First page']) {
        const pager = page.getByRole('button', { name, exact: true });
        await pager.scrollIntoViewIfNeeded();
        const after = await box(page.getByRole('button', { name: 'Report a bug' }));
        expect(intersects(after, await box(pager)), `${name} at ${viewport.width} px`).toBe(false);
      }
      // Docked in the header, not floating over the page.
      expect(bug.y).toBeLessThan(60);
      await page.getByRole('button', { name: 'Report a bug' }).click();
      await page.getByLabel('Bug description').waitFor();
      await page.keyboard.press('Escape');
      await page.getByLabel('Bug description').waitFor({ state: 'hidden' });
    }
  });

  it("reaches 'Schedule call' and 'Message support' with Tab, and opens them with Enter", async () => {
    await page.setViewportSize(WIDE);
    await page.goto(`${server.url}/`);
    await settle(page);
    const reached: string[] = [];
    await page.locator('body').focus();
    for (let i = 0; i < 60 && !reached.includes('Message support'); i++) {
      await page.keyboard.press('Tab');
      reached.push(await focusedName(page));
    }
    expect(reached).toContain('Schedule call');
    expect(reached).toContain('Message support');
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog', { name: 'Message support' });
    await dialog.waitFor();
    await expect.poll(() => page.evaluate(() => document.activeElement?.tagName)).toBe('TEXTAREA');
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'hidden' });

    await page.getByRole('button', { name: 'Schedule call' }).focus();
    await page.keyboard.press('Enter');
    await page.getByRole('dialog', { name: 'Schedule call' }).waitFor();
    await page.keyboard.press('Escape');
  });

  it("offers 'Skip to content' as the first Tab stop, past the header and sidebar", async () => {
    await page.setViewportSize(WIDE);
    await page.goto(`${server.url}/tables`);
    await settle(page);
    await page.locator('body').focus();
    await page.keyboard.press('Tab');
    expect(await focusedName(page)).toBe('Skip to content');
    await page.keyboard.press('Enter');
    await page.keyboard.press('Tab');
    expect(await focusedName(page)).toBe('Add a table');
  });

  it('opens a drawer with its first field focused, not its close button', async () => {
    await page.setViewportSize(WIDE);
    await page.goto(`${server.url}/integrations`);
    await settle(page);
    await page.getByRole('button', { name: 'Add integration', exact: true }).click();
    const drawer = page.getByRole('dialog', { name: 'Add integration' });
    await drawer.waitFor();
    const field = drawer.getByRole('textbox', { name: 'Filter integrations' });
    await expect.poll(() => field.evaluate((el) => el === document.activeElement), { timeout: 10_000 }).toBe(true);
    // Its close button is still one Shift+Tab away, and Escape closes it.
    await page.keyboard.press('Escape');
    await drawer.waitFor({ state: 'hidden' });
  });

  it("closes only the filter popup's inner dropdown on Escape, keeping the filter being built", async () => {
    await page.setViewportSize(WIDE);
    await page.goto(`${server.url}/tables/${workspace.tableId}`);
    await settle(page);
    const filterButton = page.getByRole('button', { name: /^Filter/ });
    await filterButton.click();
    const popup = page
      .locator('.mantine-Popover-dropdown')
      .filter({ has: page.getByRole('button', { name: 'Apply' }) });
    await popup.waitFor();
    await popup.locator('input[aria-label="Column"]').click();
    await page.getByRole('option', { name: 'region', exact: true }).click();
    await popup.locator('input[aria-label="Value"]').fill('North');

    // Open the operator's dropdown, then Escape: the dropdown closes, the popup and the filter stay.
    await popup.locator('input[aria-label="Operator"]').click();
    const options = page.getByRole('listbox');
    await options.waitFor();
    await page.keyboard.press('Escape');
    await options.waitFor({ state: 'hidden' });
    // The popup's open state, read at once (its fade-out would still show it for a moment).
    expect(await filterButton.getAttribute('aria-expanded')).toBe('true');
    expect(await popup.isVisible()).toBe(true);
    expect(await popup.locator('input[aria-label="Column"]').inputValue()).toBe('region');
    expect(await popup.locator('input[aria-label="Value"]').inputValue()).toBe('North');

    // A second Escape closes the popup, and only the popup: the page stays.
    await page.keyboard.press('Escape');
    await popup.waitFor({ state: 'hidden' });
    expect(await filterButton.getAttribute('aria-expanded')).toBe('false');
    expect(page.url()).toContain(`/tables/${workspace.tableId}`);
  });
});
