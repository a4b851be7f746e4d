import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

const KEY_FILE = 'secret.key';

/**
 * The server's secret: SESSION_SECRET when given, else a key file in the data folder created on
 * first start (readable by the owner only), so a first run needs no setup and restarts keep
 * sessions valid.
 */
export function resolveSecret(dataDir: string, configured: string | null): string {
  if (configured) return configured;
  const file = path.join(dataDir, KEY_FILE);
  if (fs.existsSync(file)) {
    const key = fs.readFileSync(file, 'utf8').trim();
    if (key.length >= 32) return key;
    throw new Error(`The key file ${file} is damaged (too short). Remove it to create a new one.`);
  }
  const key = randomBytes(32).toString('hex');
  fs.writeFileSync(file, `${key}\n`, { mode: 0o600, flag: 'wx' });
  return key;
}
