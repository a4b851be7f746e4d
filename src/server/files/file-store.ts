/**
 * Where file contents live, behind a small interface so another store (an object store) can
 * replace the local disk. Contents stream in and out: nothing holds a whole file in memory.
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { Transform, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';

export interface StoredFile {
  stream: Readable;
  size: number;
}

export interface FileStore {
  /** Stores the stream under key (replacing what was there) and answers its size in bytes. */
  put(key: string, data: Readable | AsyncIterable<Uint8Array>): Promise<{ size: number }>;
  /** The contents under key, or null when there are none. */
  get(key: string): Promise<StoredFile | null>;
  /** Removes the contents under key; a missing key is no error. */
  delete(key: string): Promise<void>;
  /** Every key held, for sweeping contents whose metadata is gone. */
  keys(): Promise<string[]>;
}

/** Keys are ids we make (never user text), so they never name a path outside the folder. */
const KEY = /^[A-Za-z0-9][A-Za-z0-9_-]{0,127}$/;
const TEMP_PREFIX = '.tmp-';

function checkKey(key: string): void {
  if (!KEY.test(key)) throw new Error(`Invalid file key: ${JSON.stringify(key)}`);
}

function counter(onBytes: (n: number) => void): Transform {
  return new Transform({
    transform(chunk: Buffer, _encoding, done) {
      onBytes(chunk.length);
      done(null, chunk);
    },
  });
}

/**
 * Files under `dir` (DATA_DIR/files), one per key. A put writes a temporary name, flushes it to
 * disk, then renames it over the key: a crash at any point leaves either the old contents or the
 * new ones under the key, never half a file, and at worst a temporary file that the next start
 * sweeps (`sweepTemporary`).
 */
export function localFileStore(dir: string): FileStore & { sweepTemporary(): Promise<void> } {
  fs.mkdirSync(dir, { recursive: true });
  const pathOf = (key: string) => path.join(dir, key);

  return {
    async put(key, data) {
      checkKey(key);
      const temp = path.join(dir, `${TEMP_PREFIX}${key}-${randomBytes(6).toString('hex')}`);
      let size = 0;
      try {
        // flush: the contents reach the disk before the rename makes them live.
        await pipeline(
          data,
          counter((n) => (size += n)),
          fs.createWriteStream(temp, { flags: 'wx', flush: true }),
        );
      } catch (error) {
        await fs.promises.rm(temp, { force: true });
        throw error;
      }
      await fs.promises.rename(temp, pathOf(key));
      await syncDir(dir);
      return { size };
    },

    async get(key) {
      checkKey(key);
      // Opened before its size is read, so a delete in between cannot mismatch the two.
      let handle: fs.promises.FileHandle;
      try {
        handle = await fs.promises.open(pathOf(key), 'r');
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
        throw error;
      }
      const { size } = await handle.stat();
      return { stream: handle.createReadStream(), size };
    },

    async delete(key) {
      checkKey(key);
      await fs.promises.rm(pathOf(key), { force: true });
    },

    async keys() {
      const names = await fs.promises.readdir(dir);
      return names.filter((n) => !n.startsWith(TEMP_PREFIX) && KEY.test(n));
    },

    async sweepTemporary() {
      const names = await fs.promises.readdir(dir);
      await Promise.all(
        names.filter((n) => n.startsWith(TEMP_PREFIX)).map((n) => fs.promises.rm(path.join(dir, n), { force: true })),
      );
    },
  };
}

/** Makes a rename durable: the folder's entry is flushed too (not possible on every platform). */
async function syncDir(dir: string): Promise<void> {
  let handle: fs.promises.FileHandle | null = null;
  try {
    handle = await fs.promises.open(dir, 'r');
    await handle.sync();
  } catch {
    // Windows cannot open a folder for syncing; the rename itself is still atomic.
  } finally {
    await handle?.close();
  }
}
