import fs from 'node:fs';
import path from 'node:path';
import { CLIENT_DIST, CLIENT_ROOT, PROJECT_ROOT } from './http/client-assets';

/** Newest modification time under the given paths (files or folders), in ms. */
function newestMtime(paths: string[]): number {
  let newest = 0;
  const visit = (p: string) => {
    const stat = fs.statSync(p, { throwIfNoEntry: false });
    if (!stat) return;
    if (stat.isDirectory()) {
      for (const entry of fs.readdirSync(p)) visit(path.join(p, entry));
    } else {
      newest = Math.max(newest, stat.mtimeMs);
    }
  };
  paths.forEach(visit);
  return newest;
}

/** Inputs of the client bundle: when any is newer than the build, the build is stale. */
export const CLIENT_INPUTS = [
  CLIENT_ROOT,
  path.join(PROJECT_ROOT, 'src/shared'),
  path.join(PROJECT_ROOT, 'vite.config.ts'),
  path.join(PROJECT_ROOT, 'package-lock.json'),
];

export function clientBuildIsStale(): boolean {
  const built = fs.statSync(path.join(CLIENT_DIST, 'index.html'), { throwIfNoEntry: false });
  return !built || newestMtime(CLIENT_INPUTS) > built.mtimeMs;
}

/** Builds the client with Vite when its build is missing or older than its sources. */
export async function ensureClientBuild(): Promise<void> {
  if (!clientBuildIsStale()) return;
  console.log('Building the client (first start or sources changed)...');
  const { build } = await import('vite');
  // The bundle is always a production build, whatever NODE_ENV the server (or a test run) has:
  // Vite derives import.meta.env.PROD and React's build flavour from NODE_ENV.
  const nodeEnv = process.env.NODE_ENV;
  process.env.NODE_ENV = 'production';
  try {
    await build({ configFile: path.join(PROJECT_ROOT, 'vite.config.ts'), mode: 'production', logLevel: 'warn' });
  } finally {
    if (nodeEnv === undefined) delete process.env.NODE_ENV;
    else process.env.NODE_ENV = nodeEnv;
  }
}
