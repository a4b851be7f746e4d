import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, mailedLink, signIn, startServer, type RunningServer } from './harness';

const ANN = 'ann.lee@example.com';
const BOB = 'bob.stone@example.com';

async function openAccountSettings(page: Page, server: RunningServer): Promise<void> {
  await page.goto(`${server.url}/settings/account`);
  await page.getByRole('heading', { name: 'Account settings' }).waitFor();
}

describe('a team in the browser', () => {
  let server: RunningServer;
  let browser: Browser;
  let ann: Page;
  let bob: Page;

  beforeAll(async () => {
    // Open sign-up gives Bob an account of his own, so he can switch between two.
    server = await startServer({ SIGNUP: 'open' });
    browser = await launchBrowser();
    ann = await (await browser.newContext()).newPage();
    bob = await (await browser.newContext()).newPage();
    await signIn(ann, server, ANN);
    await signIn(bob, server, BOB);
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('invites a colleague who accepts and can switch accounts', async () => {
    await openAccountSettings(ann, server);
    await ann.getByText('No pending invites').waitFor();
    await ann.getByRole('button', { name: 'Invite new user' }).click();
    const dialog = ann.getByRole('dialog', { name: 'Invite new user' });
    const send = dialog.getByRole('button', { name: 'Send invite' });
    await dialog.getByLabel('Email').fill('bob.stone@');
    await dialog.getByLabel('Name').click();
    await dialog.getByText('Provide an email adress').waitFor();
    expect(await send.isDisabled()).toBe(true);
    await dialog.getByLabel('Email').fill(BOB);
    await dialog.getByLabel('Name').fill('Bob Stone');
    await send.click();
    await ann.getByTestId(`invite-${BOB}`).waitFor();

    await bob.goto(await mailedLink(server.dataDir, BOB, 'invite'));
    await bob.getByText('Invitation success.').waitFor();
    await bob.waitForURL(`${server.url}/`);

    // Accepting lands Bob in Ann's account; his own is under 'Other accounts'.
    const switcher = bob.getByRole('button', { name: 'Account switcher' });
    await expect.poll(() => switcher.textContent(), { timeout: 10_000 }).toContain("Ann Lee's account");
    await switcher.click();
    await bob.getByText('Other accounts').waitFor();
    await bob.getByRole('menuitem', { name: "Bob Stone's account" }).click();
    await expect.poll(() => switcher.textContent(), { timeout: 10_000 }).toContain("Bob Stone's account");
    await switcher.click();
    await bob.getByRole('menuitem', { name: "Ann Lee's account" }).click();
    await expect.poll(() => switcher.textContent(), { timeout: 10_000 }).toContain("Ann Lee's account");

    await openAccountSettings(ann, server);
    await ann.getByTestId(`member-${BOB}`).waitFor();
    await ann.getByText('No pending invites').waitFor();
  });

  it('changes a member role through the dropdown', async () => {
    await openAccountSettings(ann, server);
    await ann.locator(`input[aria-label="Role of ${BOB}"]`).click();
    await ann.getByRole('option', { name: 'Admin' }).click();
    await expect
      .poll(
        async () => {
          const me = await bob.request.get(`${server.url}/api/me`);
          const body = (await me.json()) as { accounts: Array<{ name: string; roles: string[] }> };
          return body.accounts.find((a) => a.name === "Ann Lee's account")?.roles;
        },
        { timeout: 10_000 },
      )
      .toEqual(['admin']);
    // Bob, now an admin there, sees the invite button.
    await openAccountSettings(bob, server);
    await bob.getByRole('button', { name: 'Invite new user' }).waitFor();
    // An account admin is still no global admin: the admin area sends him away (via /login to /).
    expect(await bob.getByRole('link', { name: 'Search users/account' }).count()).toBe(0);
    await bob.goto(`${server.url}/admin`);
    await bob.waitForURL(`${server.url}/`);
  });

  it('offers an admin only what an admin may do, and shows the server refusing a stale page', async () => {
    // Bob is an admin in Ann's account (previous test): Ann, the owner, shows as text, without a remove button.
    await openAccountSettings(bob, server);
    await bob.getByTestId(`member-${ANN}`).waitFor();
    expect(await bob.locator(`input[aria-label="Role of ${ANN}"]`).count()).toBe(0);
    expect(await bob.getByRole('button', { name: `Remove ${ANN}` }).count()).toBe(0);
    await bob.getByTestId(`member-${ANN}`).getByText('Owner').waitFor();
    // His own role menu and the invite dialog offer Admin and Read only, never Owner.
    await bob.locator(`input[aria-label="Role of ${BOB}"]`).click();
    await bob.getByRole('option', { name: 'Read only' }).waitFor();
    expect(await bob.getByRole('option', { name: 'Owner' }).count()).toBe(0);
    await bob.keyboard.press('Escape');
    await bob.getByRole('button', { name: 'Invite new user' }).click();
    const dialog = bob.getByRole('dialog', { name: 'Invite new user' });
    await dialog.getByLabel('Role').click();
    await bob.getByRole('option', { name: 'Admin' }).waitFor();
    expect(await bob.getByRole('option', { name: 'Owner' }).count()).toBe(0);
    await bob.keyboard.press('Escape');
    await dialog.getByRole('button', { name: 'Cancel' }).click();

    // Ann makes Bob read only while his page still shows him as admin: the server refuses his
    // change and the page says why.
    const demote = await ann.request.post(`${server.url}/api/accounts/role`, {
      data: { userName: BOB, roles: ['read_only'] },
    });
    expect(demote.status()).toBe(204);
    await bob.locator(`input[aria-label="Role of ${BOB}"]`).click();
    await bob.getByRole('option', { name: 'Admin' }).waitFor();
    await bob.getByRole('option', { name: 'Read only' }).click();
    await bob.getByText('Your role in this account is read only.').waitFor();
  });

  it('renames the account on blur with a tick, and logs out', async () => {
    await openAccountSettings(ann, server);
    const name = ann.getByLabel('Account name');
    await name.fill('Acme Analytics');
    await ann.getByRole('heading', { name: 'Members' }).click();
    await ann.getByTestId('saved-tick').waitFor();
    await ann.reload();
    await expect.poll(() => ann.getByLabel('Account name').inputValue(), { timeout: 10_000 }).toBe('Acme Analytics');
    await expect
      .poll(() => ann.getByRole('button', { name: 'Account switcher' }).textContent(), { timeout: 10_000 })
      .toContain('Acme Analytics');

    await ann.getByRole('button', { name: 'User menu' }).click();
    await ann.getByRole('menuitem', { name: 'Logout' }).click();
    await ann.waitForURL(/\/login/);
    await ann.goto(`${server.url}/settings/account`);
    await ann.waitForURL(/\/login\?returnUrl=/);
  });
});
