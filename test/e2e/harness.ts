import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '../..');

export interface RunningServer {
  url: string;
  dataDir: string;
  port: number;
  /** Stops the server; its data folder goes too unless `keepData` (a restart on it follows). */
  stop: (options?: { keepData?: boolean }) => Promise<void>;
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

/**
 * Starts the real server (`src/server/main.ts`, as `npm start` does) on a fresh data folder, or on
 * a given port and folder to restart a stopped one.
 */
export async function startServer(
  env: Record<string, string> = {},
  restart?: { port: number; dataDir: string },
): Promise<RunningServer> {
  const port = restart?.port ?? (await freePort());
  const dataDir = restart?.dataDir ?? fs.mkdtempSync(path.join(os.tmpdir(), 'ws-e2e-'));
  const url = `http://127.0.0.1:${port}`;
  const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', 'src/server/main.ts'], {
    cwd: ROOT,
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      PUBLIC_URL: url,
      LOG_LEVEL: 'warn',
      NODE_ENV: 'test',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (d: Buffer) => (output += d.toString()));
  child.stderr?.on('data', (d: Buffer) => (output += d.toString()));
  const started = Date.now();
  while (!output.includes('Workspace is running at')) {
    if (child.exitCode !== null) throw new Error(`Server exited early:\n${output}`);
    if (Date.now() - started > 60_000) throw new Error(`Server did not start in time:\n${output}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    url,
    dataDir,
    port,
    stop: async (options = {}) => {
      if (child.exitCode === null) {
        const exited = new Promise((r) => child.once('exit', r));
        child.kill('SIGTERM');
        await exited;
      }
      if (!options.keepData) fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

export function launchBrowser(): Promise<Browser> {
  return chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: CHROMIUM_ARGS });
}

interface OutboxMail {
  to: string;
  subject: string;
  text: string;
}

/** The newest link of the given kind mailed to `to`, waiting briefly for the mail to land. */
export async function mailedLink(dataDir: string, to: string, kind: 'confirm' | 'invite'): Promise<string> {
  const file = path.join(dataDir, 'outbox.jsonl');
  for (let attempt = 0; attempt < 50; attempt++) {
    const mails: OutboxMail[] = fs.existsSync(file)
      ? fs
          .readFileSync(file, 'utf8')
          .split('\n')
          .filter(Boolean)
          .map((line) => JSON.parse(line) as OutboxMail)
      : [];
    const mail = mails.reverse().find((m) => m.to === to && m.text.includes(`/${kind}?`));
    const link = mail && new RegExp(`https?://\\S+/${kind}\\?\\S+`).exec(mail.text)?.[0];
    if (link) return link;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`No ${kind} mail for ${to}`);
}

/** Signs in through the login screen and the mailed link, as a person would. */
export async function signIn(page: Page, server: RunningServer, email: string, startPath = '/'): Promise<void> {
  await page.goto(server.url + startPath);
  await page.waitForURL(/\/login/);
  await page.getByLabel('E-mail').fill(email);
  await page.getByRole('button', { name: 'Continue' }).click();
  await page.getByText('Check your email.').waitFor();
  await page.goto(await mailedLink(server.dataDir, email, 'confirm'));
  // 'Login success.' shows briefly before the redirect; on a busy machine the redirect may win.
  await Promise.race([
    page.getByText('Login success.').waitFor(),
    page.waitForURL((url) => url.pathname !== '/confirm'),
  ]);
}

/** A started server and one signed-in page, for the tests of a describe block. */
export interface SignedInSession {
  readonly server: RunningServer;
  readonly page: Page;
}

/**
 * Registers, in the calling describe block, a beforeAll that starts a server and a browser and signs
 * `email` in on one page, landing on `startPath`, and an afterAll that stops both. The server and
 * page can be read once that beforeAll has run (in tests, or in a later beforeAll).
 */
export function signedInSession(
  email: string,
  startPath: string,
  viewport = { width: 1440, height: 900 },
): SignedInSession {
  let server: RunningServer | undefined;
  let browser: Browser | undefined;
  let page: Page | undefined;
  beforeAll(async () => {
    server = await startServer();
    browser = await launchBrowser();
    const opened = await browser.newPage({ viewport });
    await signIn(opened, server, email, startPath);
    await opened.waitForURL(`${server.url}${startPath}`);
    page = opened;
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });
  const started = <T>(part: T | undefined): T => {
    if (part === undefined || page === undefined) throw new Error('The signed-in session starts in beforeAll');
    return part;
  };
  return {
    get server() {
      return started(server);
    },
    get page() {
      return started(page);
    },
  };
}
