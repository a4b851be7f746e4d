import fs from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, mailedLink, signIn, startServer, type RunningServer } from './harness';
import { api, seedWorkspace } from './workspace-fixture';

const OWNER = 'olive.owner@example.com';
const READER = 'rita.reader@example.com';
const ADMIN = 'adam.admin@example.com';
const OWNER_ONLY = 'Only owners can change or remove an owner';
const SHOTS = '/tmp/shots/roles';

/** Signs `email` in on a page of its own (an account of their own comes with it). */
async function signedIn(browser: Browser, server: RunningServer, email: string): Promise<Page> {
  const page = await (await browser.newContext({ viewport: { width: 1440, height: 900 } })).newPage();
  await signIn(page, server, email);
  await page.waitForURL(`${server.url}/`);
  return page;
}

/** Accepts the owner's mailed invitation, which makes the owner's account the current one. */
async function accept(page: Page, server: RunningServer, email: string): Promise<Page> {
  await page.goto(await mailedLink(server.dataDir, email, 'invite'));
  await page.waitForURL(`${server.url}/`);
  await page.getByRole('button', { name: 'Account switcher' }).filter({ hasText: "Olive Owner's account" }).waitFor();
  return page;
}

async function open(page: Page, server: RunningServer, path: string, heading: string): Promise<void> {
  await page.goto(server.url + path);
  await page.getByRole('heading', { name: heading }).waitFor();
  await page.waitForLoadState('networkidle');
}

describe('role-aware screens of the shell, lists and account settings', () => {
  let server: RunningServer;
  let browser: Browser;
  let owner: Page;
  let reader: Page;
  let admin: Page;

  beforeAll(async () => {
    // Open sign-up: the reader and the admin have accounts of their own before they join.
    fs.mkdirSync(SHOTS, { recursive: true });
    server = await startServer({ SIGNUP: 'open' });
    browser = await launchBrowser();
    owner = await signedIn(browser, server, OWNER);
    reader = await signedIn(browser, server, READER);
    admin = await signedIn(browser, server, ADMIN);
    await seedWorkspace(owner, server);
    await api(owner, server, 'post', '/api/accounts/invite', { email: READER, roles: ['read_only'] });
    await api(owner, server, 'post', '/api/accounts/invite', { email: ADMIN, roles: ['admin'] });
    await accept(reader, server, READER);
    await accept(admin, server, ADMIN);
    // Two invitations stay pending: one any manager may change, one to the owner role.
    await api(owner, server, 'post', '/api/accounts/invite', { email: 'pat.pending@example.com' });
    await api(owner, server, 'post', '/api/accounts/invite', { email: 'otto.owner@example.com', roles: ['owner'] });
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('shows a read_only member the home page, tables and models lists in view mode', async () => {
    await open(reader, server, '/', 'Welcome, Rita');
    await reader.getByText('View only').waitFor();

    await open(reader, server, '/tables', 'Tables');
    await reader.getByRole('link', { name: 'Orders' }).waitFor();
    await reader.getByText('View only').waitFor();
    expect(await reader.getByRole('button', { name: 'Add a table' }).count()).toBe(0);

    await open(reader, server, '/models', 'Models');
    await reader.getByRole('link', { name: 'Sales' }).waitFor();
    await reader.getByText('View only').waitFor();
    expect(await reader.getByRole('button', { name: 'Add model' }).count()).toBe(0);
    expect(await reader.getByRole('button', { name: 'Duplicate Sales' }).count()).toBe(0);
    await reader.screenshot({ path: `${SHOTS}/models-read-only.png` });

    // The owner, on the same pages, has the controls and no mark.
    await open(owner, server, '/models', 'Models');
    await owner.getByRole('button', { name: 'Duplicate Sales' }).waitFor();
    await owner.getByRole('button', { name: 'Add model' }).waitFor();
    expect(await owner.getByText('View only').count()).toBe(0);
    await open(owner, server, '/tables', 'Tables');
    await owner.getByRole('button', { name: 'Add a table' }).waitFor();
  });

  it('shows a read_only member the account settings without any control that changes them', async () => {
    await open(reader, server, '/settings/account', 'Account settings');
    await reader.getByTestId(`member-${OWNER}`).waitFor();
    await reader.getByTestId('invite-pat.pending@example.com').waitFor();
    await reader.getByText('View only').waitFor();
    expect(await reader.getByRole('button', { name: 'Invite new user' }).count()).toBe(0);
    expect(await reader.locator('input[aria-label^="Role of"]').count()).toBe(0);
    expect(await reader.getByRole('button', { name: /^Remove / }).count()).toBe(0);
    expect(await reader.getByRole('button', { name: 'Resend' }).count()).toBe(0);
    expect(await reader.getByRole('button', { name: 'Cancel' }).count()).toBe(0);
    expect(await reader.getByLabel('Account name').getAttribute('readonly')).not.toBeNull();
    await reader.screenshot({ path: `${SHOTS}/account-read-only.png`, fullPage: true });
  });

  it('shows an account admin the owner-only actions withheld, with the reason', async () => {
    await open(admin, server, '/settings/account', 'Account settings');
    await admin.getByTestId(`member-${OWNER}`).waitFor();
    expect(await admin.getByText('View only').count()).toBe(0);
    // The owner's row: role as text with a lock that says why, no role menu, no remove button.
    const ownerRow = admin.getByTestId(`member-${OWNER}`);
    await ownerRow.getByLabel(`Owner: ${OWNER_ONLY}`).waitFor();
    expect(await ownerRow.locator('input[aria-label^="Role of"]').count()).toBe(0);
    expect(await ownerRow.getByRole('button', { name: /^Remove / }).count()).toBe(0);
    await admin.getByText(/Only owners can change or remove an owner, or make someone an owner\./).waitFor();
    // A reader's row stays his to manage.
    await admin.locator(`input[aria-label="Role of ${READER}"]`).waitFor();
    await admin.getByRole('button', { name: `Remove ${READER}` }).waitFor();

    // The invitation to the owner role: Resend and Cancel disabled, saying why; the other usable.
    const ownerInvite = admin.getByTestId('invite-otto.owner@example.com');
    expect(await ownerInvite.getByRole('button', { name: 'Resend' }).isDisabled()).toBe(true);
    expect(await ownerInvite.getByRole('button', { name: 'Cancel' }).isDisabled()).toBe(true);
    await ownerInvite.getByLabel('Only owners can change an invitation to the owner role').waitFor();
    const otherInvite = admin.getByTestId('invite-pat.pending@example.com');
    expect(await otherInvite.getByRole('button', { name: 'Resend' }).isDisabled()).toBe(false);

    await admin.getByRole('button', { name: 'Invite new user' }).click();
    const dialog = admin.getByRole('dialog', { name: 'Invite new user' });
    await dialog.getByText('Only owners can invite an owner.').waitFor();
    await admin.screenshot({ path: `${SHOTS}/account-admin-invite.png` });
    await dialog.getByRole('button', { name: 'Cancel' }).click();
  });
});
