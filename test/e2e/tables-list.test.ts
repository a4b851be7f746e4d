import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { signedInSession, type RunningServer } from './harness';

/** The names in the list's Name column, top to bottom. */
const listedNames = (page: Page) => page.locator('tbody tr td:first-child a').allTextContents();

describe('the tables list in the browser', () => {
  let server: RunningServer;
  let page: Page;
  const session = signedInSession('lists@example.com', '/tables', { width: 1360, height: 900 });

  beforeAll(async () => {
    ({ server, page } = session);
    const names = ['alpha report', 'Alpha budget', ...Array.from({ length: 53 }, (_, i) => `Table ${i + 10}`)];
    for (const name of names) {
      const res = await page.request.post(`${server.url}/api/static-tables`, {
        data: { name, columns: [{ displayName: 'A' }] },
      });
      expect(res.status()).toBe(201);
    }
    await page.reload();
  });

  it('sorts names ignoring case and pages them by 50, 100 or 200 rows, kept in the URL', async () => {
    await page.getByText('55 table(s)').waitFor();
    const first = await listedNames(page);
    expect(first).toHaveLength(50);
    expect(first.slice(0, 3)).toEqual(['Alpha budget', 'alpha report', 'Table 10']);
    expect(first.at(-1)).toBe('Table 57');

    await page.getByRole('button', { name: '2', exact: true }).click();
    await page.waitForURL(/[?&]page=2/);
    await expect.poll(() => listedNames(page)).toEqual(['Table 58', 'Table 59', 'Table 60', 'Table 61', 'Table 62']);

    await page.getByRole('combobox', { name: 'Rows per page' }).click();
    await page.getByRole('option', { name: '100' }).click();
    await page.waitForURL(/[?&]pageSize=100/);
    await expect.poll(async () => (await listedNames(page)).length).toBe(55);
  });

  it('filters by name ignoring case, from the first page, and says when nothing matches', async () => {
    await page.getByLabel('Filter by name').fill('ALPHA');
    await page.waitForURL(/[?&]q=ALPHA/);
    await expect.poll(() => listedNames(page)).toEqual(['Alpha budget', 'alpha report']);
    expect(page.url()).not.toMatch(/[?&]page=/);
    await page.getByText('2 table(s)').waitFor();

    await page.getByLabel('Filter by name').fill('no such table');
    await page.getByText('No tables found.').waitFor();
    expect(await listedNames(page)).toEqual([]);

    // The filter survives a reload, read back from the URL.
    await page.getByLabel('Filter by name').fill('budget');
    await page.waitForURL(/[?&]q=budget/);
    await page.reload();
    await expect.poll(() => listedNames(page)).toEqual(['Alpha budget']);
    await expect.poll(() => page.getByLabel('Filter by name').inputValue()).toBe('budget');
  });
});
