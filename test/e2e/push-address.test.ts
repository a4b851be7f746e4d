import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, mailedLink, signIn, startServer, type RunningServer } from './harness';

const OWNER = 'olga.park@example.com';
const READER = 'rick.vale@example.com';

describe('a push address in the browser', () => {
  let server: RunningServer;
  let browser: Browser;
  let owner: Page;
  let reader: Page;
  let integrationId = '';

  beforeAll(async () => {
    server = await startServer({ SIGNUP: 'open' });
    browser = await launchBrowser();
    owner = await (await browser.newContext()).newPage();
    reader = await (await browser.newContext()).newPage();
    await signIn(owner, server, OWNER);
    await signIn(reader, server, READER);
    const definitions = (await (await owner.request.get(`${server.url}/api/integration_definitions`)).json()) as {
      id: string;
      name: string;
    }[];
    const webhook = definitions.find((d) => d.name === 'Webhook')!;
    const created = await owner.request.post(`${server.url}/api/integrations`, {
      data: { integrationDefinitionId: webhook.id, name: 'Hooks', schemaName: 'hooks' },
    });
    expect(created.status()).toBe(201);
    integrationId = ((await created.json()) as { id: string }).id;
    const invited = await owner.request.post(`${server.url}/api/accounts/invite`, {
      data: { email: READER, roles: ['read_only'] },
    });
    expect(invited.ok()).toBe(true);
    await reader.goto(await mailedLink(server.dataDir, READER, 'invite'));
    await reader.getByText('Invitation success.').waitFor();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('a writer changes the webhook address after a confirmation; the old one stops working', async () => {
    await owner.goto(`${server.url}/integrations/${integrationId}`);
    const address = owner.getByTestId('push-address');
    await expect.poll(() => address.textContent()).toMatch(/\/api\/integrations\/webhook\/\S+$/);
    const before = (await address.textContent())!;
    await owner.getByRole('button', { name: 'Copy address' }).waitFor();

    await owner.getByRole('button', { name: 'Integration menu' }).click();
    await owner.getByRole('menuitem', { name: 'Change address' }).click();
    await owner.getByText('The current address stops working at once').waitFor();
    await owner.getByRole('button', { name: 'Ok' }).click();
    await expect.poll(() => address.textContent()).not.toBe(before);
    const after = (await address.textContent())!;
    expect(after).toMatch(/\/api\/integrations\/webhook\/\S+$/);

    const post = (url: string) => owner.request.post(url, { data: { event: 'ping' } });
    expect((await post(before)).status()).toBe(404);
    expect((await post(after)).status()).toBe(200);
  });

  it('a read_only member sees neither the address nor a copy button nor the change action', async () => {
    await reader.goto(`${server.url}/integrations/${integrationId}`);
    await reader.getByText('Only owners and admins of this account can see this address.').waitFor();
    expect(await reader.getByTestId('push-address').count()).toBe(0);
    expect(await reader.getByRole('button', { name: 'Copy address' }).count()).toBe(0);
    expect(await reader.content()).not.toContain('/api/integrations/webhook/');
    // View mode: no integration menu at all (no Change address, no Delete), a 'View only' mark instead.
    await reader.getByText('View only').waitFor();
    expect(await reader.getByRole('button', { name: 'Integration menu' }).count()).toBe(0);
  });
});
