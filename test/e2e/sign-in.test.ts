import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, mailedLink, signIn, startServer, type RunningServer } from './harness';

describe('sign-in in the browser', () => {
  let server: RunningServer;
  let browser: Browser;

  beforeAll(async () => {
    server = await startServer();
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('sends a signed-out visitor to /login with the returnUrl, then lands there after the mailed link', async () => {
    const page = await browser.newPage();
    await page.goto(`${server.url}/settings/user?from=mail`);
    await page.waitForURL(/\/login\?returnUrl=/);
    expect(decodeURIComponent(new URL(page.url()).searchParams.get('returnUrl') ?? '')).toBe(
      '/settings/user?from=mail',
    );

    const continueButton = page.getByRole('button', { name: 'Continue' });
    await page.getByLabel('E-mail').fill('not-an-address');
    expect(await continueButton.isDisabled()).toBe(true);
    await page.getByLabel('E-mail').fill('ann.lee@example.com');
    await continueButton.click();
    await page.getByText('Check your email.').waitFor();

    const link = await mailedLink(server.dataDir, 'ann.lee@example.com', 'confirm');
    await page.goto(link);
    await page.getByText('Login success.').waitFor();
    await page.waitForURL(`${server.url}/settings/user?from=mail`);
    await page.getByRole('heading', { name: 'User settings' }).waitFor();
    expect(await page.getByLabel('Email').inputValue()).toBe('ann.lee@example.com');

    // The link is single use: opening it again fails.
    await page.goto(link);
    await page.getByText('Login failed.').waitFor();
    await page.getByText('Please try again.').waitFor();
    await page.close();
  });

  it('redirects /login to the home page when already signed in, and shows the four steps', async () => {
    const page = await browser.newPage();
    await signIn(page, server, 'ann.lee@example.com');
    await page.goto(`${server.url}/login`);
    await page.waitForURL(`${server.url}/`);
    await page.getByRole('heading', { name: /Welcome/ }).waitFor();
    for (const step of ['1. Integrations', '2. Tables', '3. Models', '4. Automations']) {
      await page.getByRole('link', { name: step }).waitFor();
    }
    await page.close();
  });

  it('ignores a returnUrl pointing at another site', async () => {
    const page = await browser.newPage();
    await page.goto(`${server.url}/login?returnUrl=${encodeURIComponent('https://evil.example/steal')}`);
    await page.getByLabel('E-mail').fill('ann.lee@example.com');
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.getByText('Check your email.').waitFor();
    await page.goto(await mailedLink(server.dataDir, 'ann.lee@example.com', 'confirm'));
    await page.waitForURL(`${server.url}/`);
    await page.close();
  });

  it('sends signed-out visitors from /admin to /login, lets the admin in, and shows the not-found page', async () => {
    const page = await browser.newPage();
    await page.goto(`${server.url}/admin`);
    await page.waitForURL(/\/login/);
    await signIn(page, server, 'ann.lee@example.com');
    await page.goto(`${server.url}/admin`);
    await page.getByRole('heading', { name: 'Search users and accounts' }).waitFor();
    await page.getByRole('cell', { name: 'ann.lee@example.com' }).waitFor();
    await page.goto(`${server.url}/no/such/page`);
    await page.getByRole('heading', { name: 'Page not found' }).waitFor();
    await page.close();
  });

  it('asks a signed-out visitor to sign in before sending a bug report, and the server refuses one anyway', async () => {
    const page = await browser.newPage();
    await page.goto(`${server.url}/login`);
    await page.getByRole('button', { name: 'Report a bug' }).click();
    await page.getByText('Sign in to send a bug report.').waitFor();
    expect(await page.getByLabel('Bug description').count()).toBe(0);
    // A report sent from a signed-out page by hand is refused, as the widget says.
    const status = await page.evaluate(async () => {
      const form = new FormData();
      form.set('Message', 'anonymous');
      return (await fetch('/api/error-reports', { method: 'POST', body: form })).status;
    });
    expect(status).toBe(401);
    await page.getByRole('link', { name: 'Sign in' }).click();
    await page.waitForURL(/\/login/);
    await page.close();
  });

  it('reads the outbox page from this machine while not in production', async () => {
    const page = await browser.newPage();
    await page.goto(`${server.url}/login`);
    await page.getByLabel('E-mail').fill('ann.lee@example.com');
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.getByText('Check your email.').waitFor();
    // The harness reaches the server at 127.0.0.1: a direct loopback request, so the page answers.
    await page.goto(`${server.url}/dev/outbox`);
    await page.getByRole('heading', { name: 'Outbox' }).waitFor();
    await page.getByText('Your sign-in link').first().waitFor();
    await page.close();
  });
});
