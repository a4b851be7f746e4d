import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLIENT_DIST } from '../../src/server/http/client-assets';
import { launchBrowser, signIn, startServer, type RunningServer } from './harness';

describe('the shell and shared pieces in the browser', () => {
  let server: RunningServer;
  let browser: Browser;
  let page: Page;

  beforeAll(async () => {
    server = await startServer({ NODE_ENV: 'production' });
    browser = await launchBrowser();
    page = await browser.newPage();
    await signIn(page, server, 'ann.lee@example.com');
    await page.waitForURL(`${server.url}/`);
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('shows the sidebar sections, the account switcher and the user menu', async () => {
    for (const label of ['Home', 'Integrations', 'Tables', 'Models', 'Automations', 'Reports', 'Account', 'User']) {
      await page.getByRole('link', { name: label, exact: true }).first().waitFor();
    }
    await page.getByRole('link', { name: 'Search users/account' }).waitFor();
    await page.getByText('Schedule call').waitFor();
    await page.getByText('Message support').waitFor();
    await page.getByRole('link', { name: 'Privacy policy' }).waitFor();
    await page.getByRole('button', { name: 'User menu' }).click();
    await page.getByRole('menuitem', { name: 'User settings' }).click();
    await page.waitForURL(`${server.url}/settings/user`);
  });

  it('stores a bug report from the widget, whose button stays disabled while blank', async () => {
    await page.getByRole('button', { name: 'Report a bug' }).click();
    const submit = page.getByRole('button', { name: 'Submit Report' });
    expect(await submit.isDisabled()).toBe(true);
    await page.getByLabel('Bug description').fill('   ');
    expect(await submit.isDisabled()).toBe(true);
    await page.getByLabel('Bug description').fill('The members table flickers');
    await submit.click();
    await page.getByText('Thanks! Your report was sent to the team.').waitFor();
    const db = new Database(path.join(server.dataDir, 'app.db'), { readonly: true });
    const row = db.prepare("select message, page, user_id from error_reports where kind = 'bug'").get() as
      { message: string; page: string; user_id: string | null } | undefined;
    db.close();
    expect(row?.message).toBe('The members table flickers');
    expect(row?.page).toBe('/settings/user');
    expect(row?.user_id).toBeTruthy();
  });

  it('shows a failed action in the error snackbar and reports it with a screenshot', async () => {
    await page.goto(`${server.url}/settings/account`);
    await page.getByRole('button', { name: 'Invite new user' }).click();
    const dialog = page.getByRole('dialog', { name: 'Invite new user' });
    await dialog.getByLabel('Email').fill('ann.lee@example.com');
    await dialog.getByRole('button', { name: 'Send invite' }).click();
    const snackbar = page.locator('.mantine-Notification-root').filter({ hasText: 'already a member' });
    await snackbar.getByText('This user is already a member of the account.').waitFor();
    await snackbar.getByRole('button', { name: 'Show more' }).click();
    await snackbar.getByRole('button', { name: 'Show less' }).waitFor();
    await snackbar.getByRole('button', { name: 'Report issue' }).click();
    await snackbar.getByRole('button', { name: 'Reported' }).waitFor();

    const db = new Database(path.join(server.dataDir, 'app.db'), { readonly: true });
    const row = db
      .prepare("select message, screenshot_file, additional_context from error_reports where kind = 'error'")
      .get() as { message: string; screenshot_file: string | null; additional_context: string } | undefined;
    db.close();
    expect(row?.message).toBe('This user is already a member of the account.');
    expect(JSON.parse(row?.additional_context ?? '{}')).toMatchObject({ url: `${server.url}/settings/account` });
    expect(row?.screenshot_file).toBeTruthy();
    const png = fs.readFileSync(path.join(server.dataDir, 'files', row!.screenshot_file!));
    expect(png.subarray(1, 4).toString()).toBe('PNG');
    await page.keyboard.press('Escape');
  });

  it('reloads into a new deployment when the index page names another main script', async () => {
    const indexFile = path.join(CLIENT_DIST, 'index.html');
    const original = fs.readFileSync(indexFile, 'utf8');
    const script = /src="\/assets\/(index-[^"]+\.js)"/.exec(original)?.[1];
    expect(script).toBeTruthy();
    const renamed = `next-${script}`;
    fs.copyFileSync(path.join(CLIENT_DIST, 'assets', script!), path.join(CLIENT_DIST, 'assets', renamed));
    try {
      fs.writeFileSync(indexFile, original.replace(script!, renamed));
      await page.evaluate(() => ((window as unknown as { marker: boolean }).marker = true));
      await page.getByRole('link', { name: 'Account', exact: true }).first().click();
      await expect
        .poll(() => page.evaluate(() => document.querySelector('script[type="module"][src]')?.getAttribute('src')), {
          timeout: 10_000,
        })
        .toBe(`/assets/${renamed}`);
      expect(await page.evaluate(() => (window as unknown as { marker?: boolean }).marker)).toBeUndefined();
    } finally {
      fs.writeFileSync(indexFile, original);
      fs.rmSync(path.join(CLIENT_DIST, 'assets', renamed), { force: true });
    }
  });

  it('shows the OAuth callback text and has no dev outbox in production', async () => {
    await page.goto(`${server.url}/oauth/callback?code=abc&state=xyz`);
    await page.getByText('Oauth authorization completed. You can now close this page.').waitFor();
    const outbox = await page.request.get(`${server.url}/dev/outbox`);
    expect(outbox.status()).toBe(404);
  });
});
