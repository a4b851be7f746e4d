import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, signIn, startServer, type RunningServer } from './harness';

/**
 * The admin area in Chromium, as the first user (a global admin): every admin page in one shell with
 * its own nav item highlighted, a definition written with a broken then a valid schema, a user
 * opened from search and signed out everywhere, an account opened from search.
 */
describe('the admin area', () => {
  let server: RunningServer;
  let browser: Browser;
  let page: Page;
  /** Bob, a plain user signed in on two browsers of his own. */
  let bobLaptop: BrowserContext;
  let bobPhone: BrowserContext;
  let me: { id: string; currentAccountId: string };

  beforeAll(async () => {
    server = await startServer({ SIGNUP: 'open' });
    browser = await launchBrowser();
    page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
    await signIn(page, server, 'ann.lee@example.com');
    await page.waitForURL(`${server.url}/`);
    me = (await (await page.request.get(`${server.url}/api/me`)).json()) as typeof me;
    // Data in Ann's warehouse, so the account folder has a size.
    const table = await page.request.post(`${server.url}/api/static-tables`, {
      data: {
        name: 'Regions',
        columns: [{ displayName: 'Region' }, { displayName: 'Amount' }],
        rows: [
          ['North', '1200'],
          ['South', '950'],
        ],
      },
    });
    expect(table.status()).toBe(201);
    for (const which of ['laptop', 'phone'] as const) {
      const context = await browser.newContext();
      const bobPage = await context.newPage();
      await signIn(bobPage, server, 'bob@example.com');
      await bobPage.waitForURL(`${server.url}/`);
      if (which === 'laptop') bobLaptop = context;
      else bobPhone = context;
    }
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  /** The page is drawn once, in the admin shell, with exactly `label` highlighted in its nav. */
  async function expectAdminPage(path: string, heading: string, label: string) {
    await page.goto(server.url + path);
    await page.getByRole('heading', { name: heading, level: 2 }).waitFor({ timeout: 15_000 });
    expect(await page.getByText('Page not found').count(), path).toBe(0);
    expect(await page.locator('header').count(), `${path}: one header`).toBe(1);
    expect(await page.locator('nav').count(), `${path}: one sidebar`).toBe(1);
    expect(await page.locator('header').getByText('Admin', { exact: true }).count()).toBe(1);
    const current = page.locator('nav a[aria-current="page"]');
    expect(await current.count(), `${path}: one highlighted item`).toBe(1);
    expect(await current.innerText()).toBe(label);
  }

  it('draws each admin page inside the admin shell alone, with its nav item highlighted', async () => {
    await expectAdminPage('/admin', 'Search users and accounts', 'Search users/account');
    await expectAdminPage('/admin/integration/definitions', 'Integration definitions', 'Integration definitions');
    await expectAdminPage(
      '/admin/integration/definitions/create',
      'Create integration definition',
      'Integration definitions',
    );
    await expectAdminPage('/admin/index', 'Search index', 'Search index');
    await page.getByRole('columnheader', { name: 'Index size' }).waitFor();
    await expectAdminPage(`/admin/user/${me.id}`, 'Ann Lee', 'Search users/account');
    await expectAdminPage(`/admin/account/${me.currentAccountId}`, "Ann Lee's account", 'Search users/account');

    // An unknown admin address: the 404 in the admin shell, once.
    await page.goto(`${server.url}/admin/nothing/here`);
    await page.getByText('Page not found').waitFor();
    expect(await page.locator('header').count()).toBe(1);
    expect(await page.getByText('Search users/account').count()).toBe(1);
    // The same holds for the workspace: an unknown address below one of its pages shows one shell.
    await page.goto(`${server.url}/tables/x/y`);
    await page.getByText('Page not found').waitFor();
    expect(await page.locator('header').count()).toBe(1);
    expect(await page.locator('nav').count()).toBe(1);
  });

  it('creates a definition: an invalid schema shows its problems, a valid one previews the form it makes', async () => {
    await page.goto(`${server.url}/admin/integration/definitions/create`);
    await page.getByLabel('Name').fill('Warehouse API');
    const editor = page.getByRole('textbox', { name: 'Specification' });
    const save = page.getByRole('button', { name: 'Save definition' });

    // Not JSON: the place of the error, and no saving.
    await editor.fill('{\n  "settings": {\n    "properties": {}\n    "required": []\n  }\n}');
    const problems = page.getByTestId('specification-problems');
    await problems.getByText("Invalid JSON at line 4, column 5: Expected ',' or '}' after a property value").waitFor();
    expect(await save.isDisabled()).toBe(true);
    await page.getByText('The preview appears once the specification is JSON with settings.properties.').waitFor();

    // JSON, but not a JSON Schema: ajv's meta-schema error from the server, placed in the text.
    await editor.fill(
      JSON.stringify({ settings: { type: 'object', properties: { host: { type: 'strin', title: 'Host' } } } }, null, 2),
    );
    await problems.getByText(/settings\.properties\.host\.type: must be equal to one of the allowed values/).waitFor();
    await problems.getByText('6:17').waitFor();
    expect(await save.isDisabled()).toBe(true);
    // Its place can be visited: the caret moves there.
    await problems.getByText('6:17').click();
    await expect
      .poll(() =>
        editor.evaluate(
          (el) =>
            (el as HTMLTextAreaElement).value.slice(0, (el as HTMLTextAreaElement).selectionStart).split('\n').length,
        ),
      )
      .toBe(6);

    // Valid: the form it makes is drawn by the integration form's own fields.
    await editor.fill(
      JSON.stringify(
        {
          settings: {
            type: 'object',
            properties: {
              host: { type: 'string', title: 'Warehouse host', description: 'Name or address of the server' },
              password: { type: 'string', title: 'Password', airbyte_secret: true },
              port: { type: 'integer', title: 'Port', default: 5432 },
            },
            required: ['host', 'password'],
          },
        },
        null,
        2,
      ),
    );
    await page.getByText('The specification is valid.').waitFor();
    // Tab indents inside the editor; Escape, then Tab, moves on (the keyboard is never trapped).
    await editor.focus();
    await editor.press('Control+End');
    await page.keyboard.press('Tab');
    expect(await editor.inputValue()).toMatch(/}\n? {2}$/);
    await page.keyboard.press('Backspace');
    await page.keyboard.press('Backspace');
    await page.keyboard.press('Escape');
    await page.keyboard.press('Tab');
    expect(await editor.evaluate((el) => el === document.activeElement)).toBe(false);
    const preview = page.getByRole('region', { name: 'Form preview' });
    await preview.getByLabel('Warehouse host').waitFor();
    await preview.getByText('Name or address of the server').waitFor();
    expect(await preview.locator('input[type="password"]').count()).toBe(1);
    // The preview can be tried: a required field left blank says so.
    await preview.getByLabel('Warehouse host').focus();
    await preview.locator('input[type="password"]').focus();
    await preview.getByText('This field is required').first().waitFor();

    await expect.poll(() => save.isDisabled()).toBe(false);
    await save.click();
    await page.waitForURL(`${server.url}/admin/integration/definitions`);
    const row = page.getByRole('row').filter({ hasText: 'Warehouse API' });
    await row.getByText('In use by 0 integrations').waitFor();
    await row.getByText('Custom · public').waitFor();
    // Every account can now add it.
    const listed = (await (await page.request.get(`${server.url}/api/integration_definitions`)).json()) as {
      name: string;
    }[];
    expect(listed.map((d) => d.name)).toContain('Warehouse API');
  });

  it('opens a user from search with the keyboard and signs them out everywhere', async () => {
    const bobSignedIn = async (context: BrowserContext) => (await context.request.get(`${server.url}/api/me`)).status();
    expect(await bobSignedIn(bobLaptop)).toBe(200);
    expect(await bobSignedIn(bobPhone)).toBe(200);

    await page.goto(`${server.url}/admin`);
    await page.getByPlaceholder('Search by e-mail or name').fill('bob@');
    const row = page.getByRole('row', { name: 'Open user bob@example.com' });
    await row.waitFor();
    await expect.poll(() => page.getByRole('row').count()).toBe(2);
    await row.focus();
    await page.keyboard.press('Enter');
    await page.waitForURL(/\/admin\/user\//);
    await page.getByRole('heading', { name: /bob/i, level: 2 }).waitFor();

    const sessions = page.getByRole('table', { name: 'Sessions' });
    await expect.poll(() => sessions.getByRole('row').count()).toBe(3); // header and two sessions
    await page.getByRole('button', { name: 'Sign out everywhere' }).click();
    const dialog = page.getByRole('dialog', { name: 'Confirm' });
    await dialog.getByText('Sign bob@example.com out of all 2 sessions?', { exact: false }).waitFor();
    await dialog.getByRole('button', { name: 'Ok' }).click();
    await page.getByText('Signed out of 2 sessions.').waitFor();
    await page.getByText('No active sessions.').waitFor();
    expect(await page.getByRole('button', { name: 'Sign out everywhere' }).isDisabled()).toBe(true);

    expect(await bobSignedIn(bobLaptop)).toBe(401);
    expect(await bobSignedIn(bobPhone)).toBe(401);
    // Bob's open page finds out at its next navigation: to the login page.
    const bobPage = bobLaptop.pages()[0]!;
    await bobPage.goto(`${server.url}/settings/user`);
    await bobPage.waitForURL(/\/login/);
    // Ann is still signed in.
    expect((await page.request.get(`${server.url}/api/me`)).status()).toBe(200);
  });

  it('opens an account from search by a click and shows its members and warehouse size', async () => {
    await page.goto(`${server.url}/admin?kind=accounts`);
    await page.getByPlaceholder('Search by account name or id').fill('Ann Lee');
    await page.getByRole('row', { name: "Open account Ann Lee's account" }).getByText('1', { exact: true }).click();
    await page.waitForURL(`${server.url}/admin/account/${me.currentAccountId}`);
    await page.getByRole('heading', { name: "Ann Lee's account", level: 2 }).waitFor();
    const members = page.getByRole('row').filter({ hasText: 'ann.lee@example.com' });
    await members.getByText('Owner').waitFor();
    const size = page.getByLabel('Warehouse size');
    await expect.poll(async () => (await size.innerText()).trim()).toMatch(/^\d+(\.\d)? (KB|MB)$/);
    expect(await page.getByLabel('Last activity').innerText()).toMatch(/^Today, /);
    await page.getByText('No integrations added yet.').waitFor();

    // Its member opens the user page.
    await members.getByRole('link', { name: 'Ann Lee' }).click();
    await page.waitForURL(`${server.url}/admin/user/${me.id}`);
  });

  it('works at 390 px: the sidebar sits behind the burger', async () => {
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(`${server.url}/admin/integration/definitions`);
    await page.getByRole('heading', { name: 'Integration definitions', level: 2 }).waitFor();
    const onScreen = async () => {
      const box = await page.getByRole('link', { name: 'Search index' }).boundingBox();
      return !!box && box.x >= 0 && box.x + box.width <= 390;
    };
    expect(await onScreen()).toBe(false);
    const width = await page.evaluate(() => document.documentElement.scrollWidth);
    expect(width).toBeLessThanOrEqual(390);
    await page.getByRole('button', { name: 'Toggle navigation' }).click();
    await page.getByRole('link', { name: 'Search index' }).click();
    await page.waitForURL(`${server.url}/admin/index`);
    await page.getByRole('columnheader', { name: 'Index size' }).waitFor();
    await expect.poll(onScreen).toBe(false);
    await page.setViewportSize({ width: 1440, height: 900 });
  });
});
