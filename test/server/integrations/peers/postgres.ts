/**
 * A real, throw-away PostgreSQL server for connector tests: `initdb` into a temporary folder and
 * `pg_ctl start` on a free port (TCP on 127.0.0.1, password auth; the Unix socket in the same
 * folder). The binaries come from PATH or Debian's /usr/lib/postgresql/<version>/bin (.ci/run
 * installs the `postgresql` package when neither has them).
 *
 * initdb and postgres refuse to run as root. As root (CI, this machine) both run as the `postgres`
 * user that Debian's package creates (else `nobody`) through util-linux's `runuser`; the temporary
 * folder is chowned to that user first.
 */
import pg from 'pg';
import { execFile, execFileSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { chmod, chown, mkdtemp, rm, writeFile } from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

export const POSTGRES_PASSWORD = 'test-secret';

export interface PostgresPeer {
  host: string;
  port: number;
  user: string;
  password: string;
  database: string;
  stop(): Promise<void>;
}

function onPath(binary: string): string | null {
  for (const dir of (process.env.PATH ?? '').split(path.delimiter)) {
    if (dir && existsSync(path.join(dir, binary))) return dir;
  }
  return null;
}

/** The folder holding initdb, pg_ctl and postgres, or null when PostgreSQL is not installed. */
export function findPostgresBin(): string | null {
  const fromPath = onPath('initdb');
  if (fromPath && existsSync(path.join(fromPath, 'pg_ctl'))) return fromPath;
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return null;
  const versions = readdirSync(root)
    .filter((v) => existsSync(path.join(root, v, 'bin', 'initdb')))
    .sort((a, b) => Number(b) - Number(a));
  return versions[0] ? path.join(root, versions[0], 'bin') : null;
}

function userExists(name: string): boolean {
  try {
    execFileSync('id', ['-u', name], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as net.AddressInfo).port;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

export async function startPostgres(): Promise<PostgresPeer> {
  const bin = findPostgresBin();
  if (!bin) throw new Error('PostgreSQL binaries (initdb, pg_ctl) not found');
  const root = await mkdtemp(path.join(os.tmpdir(), 'pg-peer-'));
  const dataDir = path.join(root, 'data');
  const pwFile = path.join(root, 'pw');
  await writeFile(pwFile, POSTGRES_PASSWORD);

  const isRoot = process.getuid?.() === 0;
  const runAs = isRoot ? (['postgres', 'nobody'].find(userExists) ?? null) : null;
  if (isRoot && !runAs) throw new Error('Running as root and neither a postgres nor a nobody user exists');
  if (runAs) {
    const uid = Number(execFileSync('id', ['-u', runAs]).toString());
    const gid = Number(execFileSync('id', ['-g', runAs]).toString());
    await chown(root, uid, gid);
    await chown(pwFile, uid, gid);
    await chmod(root, 0o700);
  }
  const exec = (binary: string, args: string[]) =>
    runAs ? run('runuser', ['-u', runAs, '--', path.join(bin, binary), ...args]) : run(path.join(bin, binary), args);

  const user = 'postgres';
  await exec('initdb', [
    '-D',
    dataDir,
    '-U',
    user,
    '--pwfile',
    pwFile,
    '--auth-local=trust',
    '--auth-host=scram-sha-256',
    '-E',
    'UTF8',
    '--locale=C',
    '--no-sync',
  ]);
  const port = await freePort();
  const options = `-p ${port} -k ${root} -c listen_addresses=127.0.0.1 -c fsync=off -c full_page_writes=off`;
  await exec('pg_ctl', ['start', '-w', '-t', '60', '-D', dataDir, '-l', path.join(root, 'log'), '-o', options]);

  return {
    host: '127.0.0.1',
    port,
    user,
    password: POSTGRES_PASSWORD,
    database: 'postgres',
    async stop() {
      await exec('pg_ctl', ['stop', '-m', 'immediate', '-w', '-D', dataDir]).catch(() => undefined);
      await rm(root, { recursive: true, force: true });
    },
  };
}

/** A client of the peer's database as its owner, connected: tests create and change tables with it. */
export async function adminClient(peer: PostgresPeer): Promise<pg.Client> {
  const client = new pg.Client({
    host: peer.host,
    port: peer.port,
    user: peer.user,
    password: peer.password,
    database: peer.database,
  });
  await client.connect();
  return client;
}
