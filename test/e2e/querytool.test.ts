/**
 * The Queries screen in Chromium: three questions asked (Enter and the Send button), their replies
 * with how they were read and result tables, a suggestion that sends itself, a result downloaded
 * (CSV and XLSX), 'Show SQL', the result opened in the grid, and the conversation reopened from the
 * list after a reload; the screen at 390 px.
 */
import fs from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, signIn, startServer, type RunningServer } from './harness';
import { tableFromCsv } from './workspace-fixture';

const OWNER = 'quinn.asker@example.com';
const SHOTS = '/tmp/shots';
const ORDERS_CSV = [
  'order_id,customer,country,amount,ordered_on',
  '1,Ann,France,10,2025-01-05',
  '2,Bob,Spain,20,2025-02-11',
  '3,Cid,France,30,2025-03-20',
].join('\n');
const CUSTOMERS_CSV = ['customer_id,name,country', '1,Ann,France', '2,Bob,Spain'].join('\n');

/** What is asked: a count, a grouping, and a question with two readings (answered with suggestions). */
const COUNT = 'how many orders';
const GROUPED = 'how many orders by country';
const AMBIGUOUS = 'how many by country';

describe('the Queries screen', () => {
  let server: RunningServer;
  let browser: Browser;
  let page: Page;

  const replies = () => page.locator('[data-chat-message="Bot"]');
  const questions = () => page.locator('[data-chat-message="User"]');
  const box = () => page.getByPlaceholder('Ask a question');
  const send = () => page.getByRole('button', { name: 'Send' });

  /**
   * While `holding`, the chatbot hub's ReceiveMessage (and whatever follows it) is kept from the page
   * until `release()`, so the waiting state can be looked at however fast the answer is.
   */
  let holding = false;
  const held: (string | Buffer)[] = [];
  let toPage: ((message: string | Buffer) => void) | null = null;
  const release = () => {
    holding = false;
    for (const message of held.splice(0)) toPage?.(message);
  };

  beforeAll(async () => {
    fs.mkdirSync(SHOTS, { recursive: true });
    server = await startServer();
    browser = await launchBrowser();
    page = await (
      await browser.newContext({ viewport: { width: 1440, height: 900 }, acceptDownloads: true })
    ).newPage();
    await page.routeWebSocket(/\/api\/hubs\/chatbot/, (ws) => {
      const upstream = ws.connectToServer();
      toPage = (message) => ws.send(message);
      upstream.onMessage((message) => {
        if (holding && (held.length > 0 || String(message).includes('"target":"ReceiveMessage"'))) held.push(message);
        else ws.send(message);
      });
    });
    await signIn(page, server, OWNER);
    await tableFromCsv(page, server, 'orders', ORDERS_CSV);
    await tableFromCsv(page, server, 'customers', CUSTOMERS_CSV);
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('asks three questions, uses a suggestion, downloads a result and reopens the conversation', async () => {
    // From the sidebar.
    await page.getByRole('link', { name: 'Queries' }).click();
    await page.waitForURL(/\/querytool/);
    await expect.poll(() => page.getByRole('heading', { name: 'Queries' }).isVisible()).toBe(true);
    await expect.poll(() => send().isDisabled()).toBe(true);

    // 1: typed and sent with Enter. While it is answered: the question shows, the status text with
    // '...', and Send stays disabled whatever is typed.
    holding = true;
    await box().fill(COUNT);
    await box().press('Enter');
    await expect.poll(() => questions().count()).toBe(1);
    await expect
      .poll(
        () =>
          page
            .getByRole('status')
            .filter({ hasText: /\.\.\.$/ })
            .textContent(),
        { timeout: 30_000 },
      )
      .toMatch(/^\S.*\.\.\.$/);
    await box().fill('another question');
    expect(await send().isDisabled()).toBe(true);
    expect(await replies().count()).toBe(0);
    await page.screenshot({ path: `${SHOTS}/querytool-waiting-1440.png` });
    release();
    await expect.poll(() => replies().count(), { timeout: 30_000 }).toBe(1);
    await expect.poll(() => send().isEnabled()).toBe(true);
    await box().fill('');
    const first = replies().nth(0);
    await expect.poll(() => first.getByText(/^Read as: /).textContent()).toMatch(/orders/i);
    await expect.poll(() => first.getByRole('table', { name: 'Result' }).locator('tbody tr').count()).toBe(1);
    // The address names the conversation, so a reload keeps it.
    expect(new URL(page.url()).searchParams.get('conversation')).toMatch(/\S/);

    // 2: sent with the button.
    await box().fill(GROUPED);
    await send().click();
    await expect.poll(() => replies().count(), { timeout: 30_000 }).toBe(2);
    const second = replies().nth(1);
    await expect.poll(() => second.getByRole('table', { name: 'Result' }).locator('tbody tr').count()).toBe(2);
    await expect.poll(() => second.getByText('2 rows', { exact: true }).isVisible()).toBe(true);

    // Show SQL, then hide it.
    await second.getByRole('button', { name: 'Show SQL' }).click();
    await expect.poll(() => second.getByLabel('SQL').textContent()).toMatch(/select/i);
    await second.getByRole('button', { name: 'Hide SQL' }).click();
    await expect.poll(() => second.getByLabel('SQL').count()).toBe(0);

    // Download: CSV and XLSX files of every row.
    await second.getByRole('button', { name: 'Download' }).click();
    const [csv] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('menuitem', { name: 'CSV' }).click(),
    ]);
    expect(csv.suggestedFilename()).toMatch(/\.csv$/);
    const lines = fs
      .readFileSync((await csv.path())!, 'utf8')
      .trim()
      .split(/\r?\n/);
    expect(lines.length).toBe(3);
    expect(lines.slice(1).join('\n')).toContain('France');
    await second.getByRole('button', { name: 'Download' }).click();
    const [xlsx] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('menuitem', { name: 'XLSX' }).click(),
    ]);
    expect(xlsx.suggestedFilename()).toMatch(/\.xlsx$/);
    expect(
      fs
        .readFileSync((await xlsx.path())!)
        .subarray(0, 2)
        .toString(),
    ).toBe('PK');

    // Open in grid: the result in the data grid, in a dialog that Escape closes.
    await second.getByRole('button', { name: 'Open in grid' }).click();
    const dialog = page.getByRole('dialog', { name: 'Result' });
    await expect.poll(() => dialog.getByText('Spain').first().isVisible()).toBe(true);
    // Settled (the dialog's fade-in ended) before the picture.
    await expect.poll(() => dialog.evaluate((el) => getComputedStyle(el).opacity)).toBe('1');
    await page.screenshot({ path: `${SHOTS}/querytool-grid-1440.png` });
    await page.keyboard.press('Escape');
    await expect.poll(() => dialog.count()).toBe(0);

    // 3: an ambiguous question asks back; a suggestion sends itself.
    await box().fill(AMBIGUOUS);
    await box().press('Enter');
    await expect.poll(() => replies().count(), { timeout: 30_000 }).toBe(3);
    const third = replies().nth(2);
    const toggle = third.getByRole('button', { name: /^Show \d+ suggestions?$/ });
    await toggle.click();
    await expect.poll(() => third.getByRole('button', { name: 'Hide suggestions' }).isVisible()).toBe(true);
    const suggestion = third.getByRole('list', { name: 'Suggestions' }).getByRole('button').first();
    const suggested = (await suggestion.textContent()) ?? '';
    expect(suggested).not.toBe('');
    await suggestion.click();
    await expect.poll(() => questions().count()).toBe(4);
    expect(await questions().nth(3).textContent()).toBe(suggested);
    await expect.poll(() => replies().count(), { timeout: 30_000 }).toBe(4);
    await page.screenshot({ path: `${SHOTS}/querytool-1440.png`, fullPage: true });

    // Reopened after a reload from the list; a new conversation starts empty.
    await page.reload();
    const listed = page
      .getByRole('navigation', { name: 'Conversations' })
      .getByRole('button', { name: new RegExp(COUNT) });
    await expect.poll(() => listed.isVisible(), { timeout: 30_000 }).toBe(true);
    await expect.poll(() => replies().count()).toBe(4);
    await page.getByRole('button', { name: 'New conversation' }).click();
    await expect.poll(() => replies().count()).toBe(0);
    await listed.click();
    await expect.poll(() => replies().count()).toBe(4);
    await expect.poll(() => questions().nth(0).textContent()).toBe(COUNT);
  }, 180_000);

  it('works at 390 px: the conversation picker above the chat, a question asked with the keyboard', async () => {
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(`${server.url}/querytool`);
    await expect.poll(() => page.getByRole('heading', { name: 'Queries' }).isVisible()).toBe(true);
    await expect.poll(() => page.getByRole('combobox', { name: 'Conversations' }).isVisible()).toBe(true);
    await box().focus();
    await page.keyboard.type(GROUPED);
    await page.keyboard.press('Enter');
    await expect.poll(() => replies().count(), { timeout: 30_000 }).toBe(1);
    // Nothing wider than the screen.
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    await page.screenshot({ path: `${SHOTS}/querytool-390.png`, fullPage: true });
  }, 120_000);
});
