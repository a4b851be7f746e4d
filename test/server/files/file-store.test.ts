import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import { localFileStore } from '../../../src/server/files/file-store';

const dirs: string[] = [];
function tempDir(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'file-store-'));
  dirs.push(dir);
  return dir;
}
afterEach(() => {
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

async function readAll(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

describe('local file store', () => {
  it('puts a stream, answers its size, gets it back and deletes it', async () => {
    const store = localFileStore(tempDir());
    const data = Buffer.from('a,b\n1,2\n');
    expect(await store.put('f1', Readable.from([data.subarray(0, 3), data.subarray(3)]))).toEqual({
      size: data.length,
    });
    const got = await store.get('f1');
    expect(got?.size).toBe(data.length);
    expect(await readAll(got!.stream)).toEqual(data);
    expect(await store.keys()).toEqual(['f1']);
    await store.delete('f1');
    expect(await store.get('f1')).toBeNull();
    await store.delete('f1');
  });

  it('never leaves half a file under a live key when the source fails midway', async () => {
    const dir = tempDir();
    const store = localFileStore(dir);
    await store.put('f1', Readable.from([Buffer.from('old contents')]));
    async function* failing() {
      yield Buffer.alloc(64 * 1024, 1);
      throw new Error('source broke');
    }
    await expect(store.put('f1', failing())).rejects.toThrow('source broke');
    expect((await readAll((await store.get('f1'))!.stream)).toString()).toBe('old contents');
    expect(fs.readdirSync(dir)).toEqual(['f1']);
  });

  it('writes under a temporary name until complete, and the next start sweeps a crashed one', async () => {
    const dir = tempDir();
    const store = localFileStore(dir);
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    async function* slow() {
      yield Buffer.alloc(1024, 2);
      await gate;
      yield Buffer.alloc(1024, 3);
    }
    const putting = store.put('f2', slow());
    // While writing, the key is absent and only a temporary file exists (as after a kill -9 here).
    await expect.poll(() => fs.readdirSync(dir).filter((n) => n.startsWith('.tmp-')).length).toBe(1);
    expect(await store.get('f2')).toBeNull();
    expect(await store.keys()).toEqual([]);
    // A crashed leftover is swept at start.
    fs.writeFileSync(path.join(dir, '.tmp-f9-abc'), 'half');
    release();
    expect(await putting).toEqual({ size: 2048 });
    await store.sweepTemporary();
    expect(fs.readdirSync(dir)).toEqual(['f2']);
  });

  it('refuses keys that could name a path outside its folder', async () => {
    const store = localFileStore(tempDir());
    for (const key of ['../x', 'a/b', '', '.hidden']) {
      await expect(store.put(key, Readable.from([]))).rejects.toThrow('Invalid file key');
      await expect(store.get(key)).rejects.toThrow('Invalid file key');
    }
  });

  it('streams in and out chunk by chunk, never holding the whole file', async () => {
    const dir = tempDir();
    const store = localFileStore(dir);
    const chunk = Buffer.alloc(1024 * 1024, 7);
    const onDiskWhileProducing: number[] = [];
    async function* big() {
      for (let i = 0; i < 32; i++) {
        const temp = fs.readdirSync(dir).find((n) => n.startsWith('.tmp-'));
        onDiskWhileProducing.push(temp ? fs.statSync(path.join(dir, temp)).size : 0);
        yield chunk;
      }
    }
    expect(await store.put('big', big())).toEqual({ size: 32 * 1024 * 1024 });
    // Written as it comes: when the 32nd MB is made, most of the earlier ones are on disk already.
    expect(onDiskWhileProducing[31]).toBeGreaterThanOrEqual(24 * 1024 * 1024);
    let total = 0;
    let largest = 0;
    for await (const part of (await store.get('big'))!.stream) {
      total += (part as Buffer).length;
      largest = Math.max(largest, (part as Buffer).length);
    }
    expect(total).toBe(32 * 1024 * 1024);
    expect(largest).toBeLessThanOrEqual(64 * 1024);
  });
});
