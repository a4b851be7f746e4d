import type { IncomingMessage } from 'node:http';
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApi, type ApiPeer, type Reply } from '../server/integrations/peers/http-api';
import { signedInSession, type RunningServer } from './harness';

const TOKEN = 'tok-1';
const MASK = '********';

interface SavedIntegration {
  id: string;
  name: string;
  schemaName: string;
  configuration: { base_url?: string; authentication?: { type?: string; token?: string } };
}

/** The peer's orders, for a request carrying the token the integration was created with. */
const orders = (_query: URLSearchParams, req: IncomingMessage): Reply =>
  req.headers.authorization === `Bearer ${TOKEN}`
    ? { body: [{ id: 1, total: 12.5 }] }
    : { status: 401, body: { error: 'bad token' } };

describe('integration settings dialog', () => {
  let server: RunningServer;
  let peer: ApiPeer;
  let page: Page;
  const session = signedInSession('rosa.diaz@example.com', '/integrations');
  let id = '';

  const get = async (path: string) => (await page.request.get(`${server.url}${path}`)).json() as Promise<unknown>;
  const openSettings = async (): Promise<Locator> => {
    await page.getByRole('button', { name: 'Integration menu' }).click();
    await page.getByRole('menuitem', { name: 'Settings', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: 'Integration settings' });
    await dialog.getByRole('textbox', { name: /^Name/ }).waitFor();
    return dialog;
  };

  beforeAll(async () => {
    ({ server, page } = session);
    peer = await startApi({ '/v1/orders': orders, '/v2/orders': orders });

    // A REST API integration against the local peer, with a bearer token (a secret).
    const definitions = (await get('/api/integration_definitions')) as { id: string; name: string }[];
    const rest = definitions.find((d) => d.name === 'REST API');
    const created = await page.request.post(`${server.url}/api/integrations`, {
      data: {
        integrationDefinitionId: rest?.id,
        name: 'Orders feed',
        schemaName: 'orders_feed',
        configuration: {
          base_url: `${peer.baseUrl}/v1`,
          authentication: { type: 'bearer', token: TOKEN },
          streams: [{ name: 'orders', path: '/orders' }],
        },
      },
    });
    expect(created.status()).toBe(201);
    id = ((await created.json()) as SavedIntegration).id;
  });
  afterAll(async () => {
    await peer?.close();
  });

  it('opens prefilled, with the secret masked and the schema name read-only', async () => {
    await page.goto(`${server.url}/integrations/${id}`);
    await page.getByRole('heading', { name: 'Orders feed' }).waitFor();
    const dialog = await openSettings();
    expect(await dialog.getByRole('textbox', { name: /^Name/ }).inputValue()).toBe('Orders feed');
    expect(await dialog.getByRole('textbox', { name: /^Base URL/ }).inputValue()).toBe(`${peer.baseUrl}/v1`);
    expect(JSON.parse(await dialog.getByRole('textbox', { name: /^Streams/ }).inputValue())).toEqual([
      { name: 'orders', path: '/orders' },
    ]);
    await dialog.getByText('orders_feed', { exact: true }).waitFor();
    await dialog.getByText('Fixed after creation').waitFor();
    expect(await dialog.getByRole('textbox', { name: /^Schema name/ }).count()).toBe(0);
    expect(await dialog.getByRole('button', { name: 'Save' }).isDisabled()).toBe(true);

    await dialog.getByRole('button', { name: 'Advanced settings' }).click();
    const token = dialog.getByLabel(/^Token/);
    expect(await token.inputValue()).toBe(MASK);
    await dialog.getByText('Leave unchanged to keep the saved value.').waitFor();
    expect(await dialog.getByRole('textbox', { name: /^Tries per request/ }).inputValue()).toBe('5');
    await page.mouse.move(0, 0); // no hover styles in the picture
    await page.waitForTimeout(300); // let the modal's and the collapse's transitions finish
    await page.screenshot({ path: '/tmp/settings-dialog.png' });
  });

  it('checks fields with the messages of the create form', async () => {
    const dialog = page.getByRole('dialog', { name: 'Integration settings' });
    const baseUrl = dialog.getByRole('textbox', { name: /^Base URL/ });
    await baseUrl.fill('ftp://example.com');
    await baseUrl.blur();
    await dialog.getByText('Invalid format').waitFor();
    await baseUrl.fill('');
    await dialog.getByText('This field is required').waitFor();
    const tries = dialog.getByRole('textbox', { name: /^Tries per request/ });
    await tries.fill('five');
    await tries.blur();
    await dialog.getByText('Value must be a number').waitFor();
    // Nothing reaches the server while the form has problems.
    await dialog.getByRole('button', { name: 'Save' }).click();
    expect(await dialog.isVisible()).toBe(true);
    expect(((await get(`/api/integrations/${id}`)) as SavedIntegration).configuration.base_url).toBe(
      `${peer.baseUrl}/v1`,
    );
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'hidden' });
  });

  it('shows a failed connection check in the dialog and keeps what was typed', async () => {
    const dialog = await openSettings();
    await dialog.getByRole('textbox', { name: /^Name/ }).fill('Orders feed v2');
    await dialog.getByRole('textbox', { name: /^Base URL/ }).fill(`${peer.baseUrl}/gone`);
    await dialog.getByRole('button', { name: 'Save' }).click();
    const alert = dialog.getByRole('alert').filter({ hasText: 'Settings not saved' });
    await alert.waitFor();
    expect(await alert.textContent()).toMatch(/Not found \(HTTP 404 Not Found\)/);
    expect(await dialog.getByRole('textbox', { name: /^Name/ }).inputValue()).toBe('Orders feed v2');
    expect(await dialog.getByRole('textbox', { name: /^Base URL/ }).inputValue()).toBe(`${peer.baseUrl}/gone`);
    const saved = (await get(`/api/integrations/${id}`)) as SavedIntegration;
    expect(saved.name).toBe('Orders feed');
    expect(saved.configuration.base_url).toBe(`${peer.baseUrl}/v1`);
  });

  it('saves the new name and base URL, keeping the secret that still works', async () => {
    const dialog = page.getByRole('dialog', { name: 'Integration settings' });
    await dialog.getByRole('textbox', { name: /^Base URL/ }).fill(`${peer.baseUrl}/v2`);
    const save = dialog.getByRole('button', { name: 'Save' });
    await save.click();
    await dialog.waitFor({ state: 'hidden' });
    await page.getByRole('heading', { name: 'Orders feed v2' }).waitFor();

    const saved = (await get(`/api/integrations/${id}`)) as SavedIntegration;
    expect(saved.name).toBe('Orders feed v2');
    expect(saved.schemaName).toBe('orders_feed');
    expect(saved.configuration.base_url).toBe(`${peer.baseUrl}/v2`);
    expect(saved.configuration.authentication).toEqual({ type: 'bearer', token: MASK });
    // The save checked the connection with the stored token, which the peer accepted.
    const checks = peer.seen('/v2/orders');
    expect(checks.length).toBeGreaterThan(0);
    expect(checks.every((r) => r.headers.authorization === `Bearer ${TOKEN}`)).toBe(true);

    const again = await openSettings();
    expect(await again.getByRole('textbox', { name: /^Base URL/ }).inputValue()).toBe(`${peer.baseUrl}/v2`);
    expect(await again.getByRole('button', { name: 'Save' }).isDisabled()).toBe(true);
    await again.getByRole('button', { name: 'Cancel' }).click();
    await again.waitFor({ state: 'hidden' });
  });

  it('shows a Webhook integration just its name and schema name', async () => {
    const definitions = (await get('/api/integration_definitions')) as { id: string; name: string }[];
    const webhook = definitions.find((d) => d.name === 'Webhook');
    const created = await page.request.post(`${server.url}/api/integrations`, {
      data: { integrationDefinitionId: webhook?.id, name: 'Hooks', schemaName: 'hooks', configuration: {} },
    });
    expect(created.status()).toBe(201);
    const hooks = (await created.json()) as SavedIntegration;
    await page.goto(`${server.url}/integrations/${hooks.id}`);
    await page.getByRole('heading', { name: 'Hooks' }).waitFor();
    const dialog = await openSettings();
    expect(await dialog.getByRole('textbox').count()).toBe(1);
    expect(await dialog.getByRole('button', { name: 'Advanced settings' }).count()).toBe(0);
    await dialog.getByText('hooks', { exact: true }).waitFor();
    await dialog.getByRole('textbox', { name: /^Name/ }).fill('Hooks renamed');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await dialog.waitFor({ state: 'hidden' });
    await page.getByRole('heading', { name: 'Hooks renamed' }).waitFor();
    expect(((await get(`/api/integrations/${hooks.id}`)) as SavedIntegration).name).toBe('Hooks renamed');
  });
});
