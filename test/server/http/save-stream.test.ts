import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { saveStream } from '../../../src/server/http/save-stream';
import { tempDir } from '../warehouse/helpers';

async function* chunksOf(buffers: Buffer[], failAfter?: number): AsyncGenerator<Buffer> {
  for (const [i, buffer] of buffers.entries()) {
    if (i === failAfter) throw new Error('The client went away');
    await Promise.resolve();
    yield buffer;
  }
}

describe('saveStream', () => {
  it('writes every chunk in order, across several batched writes, and counts the bytes', async () => {
    const file = path.join(tempDir(), 'upload.csv');
    // 3.5 MB in uneven chunks: more than three batches of 1 MB, with a partial one at the end.
    const chunks = Array.from({ length: 70 }, (_, i) => Buffer.alloc(50_000 + (i % 7) * 1_000, i % 251));
    const written = await saveStream(chunksOf(chunks), file);
    const expected = Buffer.concat(chunks);
    expect(written).toBe(expected.length);
    expect(fs.readFileSync(file).equals(expected)).toBe(true);
  });

  it('writes an empty file for an empty stream', async () => {
    const file = path.join(tempDir(), 'empty.csv');
    expect(await saveStream(chunksOf([]), file)).toBe(0);
    expect(fs.readFileSync(file).length).toBe(0);
  });

  it('removes the partial file and throws when the stream fails', async () => {
    const file = path.join(tempDir(), 'cut.csv');
    const chunks = Array.from({ length: 40 }, () => Buffer.alloc(64 * 1024, 1));
    await expect(saveStream(chunksOf(chunks, 30), file)).rejects.toThrow('The client went away');
    expect(fs.existsSync(file)).toBe(false);
  });

  it('throws when the file cannot be written', async () => {
    const file = path.join(tempDir(), 'missing-folder', 'upload.csv');
    await expect(saveStream(chunksOf([Buffer.from('a')]), file)).rejects.toThrow(/ENOENT/);
  });
});
