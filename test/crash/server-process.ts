/**
 * The real server (`src/server/main.ts`, as `npm start` runs it) as a child process on a data folder
 * that outlives it, so a test can kill it with SIGKILL and start it again on the same data.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import net from 'node:net';
import path from 'node:path';

const ROOT = path.resolve(import.meta.dirname, '../..');

export interface ServerProcess {
  url: string;
  dataDir: string;
  /** Everything the process printed so far. */
  output(): string;
  /** Resolves when the process has ended, however. */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** SIGKILL, and wait for the process to be gone. */
  kill(): Promise<void>;
  /** SIGTERM (a clean shutdown), and wait. */
  stop(): Promise<void>;
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
 * Starts the server on `dataDir` and waits until it listens. `env` may set WORKSPACE_CRASH_AT
 * (src/server/durability/crash-points.ts) to make it kill itself at a chosen point.
 */
export async function startServer(dataDir: string, env: Record<string, string> = {}): Promise<ServerProcess> {
  const port = await freePort();
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
      SCHEDULER_INTERVAL_SECONDS: '3600',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (d: Buffer) => (output += d.toString()));
  child.stderr?.on('data', (d: Buffer) => (output += d.toString()));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );
  let ended = false;
  void exited.then(() => (ended = true));
  const started = Date.now();
  while (!output.includes('Workspace is running at')) {
    if (ended) throw new Error(`The server exited while starting:\n${output}`);
    if (Date.now() - started > 90_000) {
      child.kill('SIGKILL');
      throw new Error(`The server did not start in time:\n${output}`);
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  const signalAndWait = async (signal: NodeJS.Signals) => {
    if (!ended) child.kill(signal);
    await exited;
  };
  return {
    url,
    dataDir,
    output: () => output,
    exited,
    kill: () => signalAndWait('SIGKILL'),
    stop: () => signalAndWait('SIGTERM'),
  };
}
