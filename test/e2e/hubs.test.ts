/**
 * The browser's live connection: a signed-in page opens the notifications hub with the official
 * client (negotiate, WebSocket, JSON handshake); when the server restarts it reconnects by itself
 * and refetches what the page shows (TanStack Query invalidation), so nothing missed stays stale.
 */
import type { Browser, Page, WebSocket } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, signIn, startServer, type RunningServer } from './harness';

const HANDSHAKE_OK = '{}\u001e';

/** Resolves with the next hub WebSocket the page opens, once the server accepted its handshake. */
function nextHubSocket(page: Page): Promise<WebSocket> {
  return new Promise((resolve) => {
    const onSocket = (ws: WebSocket) => {
      if (!ws.url().includes('/api/hubs/notifications?id=')) return;
      page.off('websocket', onSocket);
      const onFrame = (frame: { payload: string | Buffer }) => {
        if (frame.payload.toString() !== HANDSHAKE_OK) return;
        ws.off('framereceived', onFrame);
        resolve(ws);
      };
      ws.on('framereceived', onFrame);
    };
    page.on('websocket', onSocket);
  });
}

describe('live hub in the browser', () => {
  let server: RunningServer;
  let browser: Browser;
  let page: Page;

  beforeAll(async () => {
    server = await startServer();
    browser = await launchBrowser();
    page = await browser.newPage();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('connects when signed in, and after a server restart reconnects and refetches the page', async () => {
    const first = nextHubSocket(page);
    await signIn(page, server, 'ann.lee@example.com');
    await page.waitForURL(`${server.url}/`);
    const socket = await first;
    expect(socket.url()).toMatch(/^ws:\/\/127\.0\.0\.1:\d+\/api\/hubs\/notifications\?id=[\w-]+$/);

    const reconnected = nextHubSocket(page);
    const closed = new Promise<void>((resolve) => socket.on('close', () => resolve()));
    await server.stop({ keepData: true });
    await closed;
    // Nothing may be fetched between the close and the reconnect for the check below to mean anything.
    const fetchedAfter: string[] = [];
    page.on('request', (request) => {
      if (request.url().includes('/trpc/')) fetchedAfter.push(new URL(request.url()).pathname);
    });
    server = await startServer({}, { port: server.port, dataDir: server.dataDir });
    // The client retries after 0, 2, 10 and 30 s: the restarted server is there by the last.
    await reconnected;
    // The signed-in user (kept 5 minutes otherwise) is asked for again at once.
    await expect.poll(() => fetchedAfter.some((p) => p.includes('auth.me')), { timeout: 15_000 }).toBe(true);
    await page.getByRole('link', { name: 'Tables', exact: true }).first().waitFor();
  }, 150_000);
});
