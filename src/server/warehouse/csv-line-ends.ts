import fs from 'node:fs';
import { pipeline } from 'node:stream/promises';
import { Transform } from 'node:stream';

/**
 * Files whose rows end in different ways (CRLF rows with a last line ending in LF, a file pasted
 * together from Windows and Unix parts, old Mac CR ends) are common; DuckDB's reader, told to be
 * strict so that it reports a row with the wrong number of values, refuses them. Such a file is read
 * from a copy whose row ends are all LF. Line breaks inside quoted values are kept exactly, and the
 * number of lines does not change, so the line numbers of later errors still match the user's file.
 */

const QUOTE = 0x22;
const CR = 0x0d;
const LF = 0x0a;

interface LineEnds {
  crlf: number;
  lf: number;
  cr: number;
}

/** Counts the row ends outside quoted values, by kind. */
async function countLineEnds(filePath: string): Promise<LineEnds> {
  const counts: LineEnds = { crlf: 0, lf: 0, cr: 0 };
  let quoted = false;
  let pendingCr = false;
  for await (const chunk of fs.createReadStream(filePath, { highWaterMark: 1024 * 1024 })) {
    const bytes = chunk as Buffer;
    for (let i = 0; i < bytes.length; i += 1) {
      const byte = bytes[i];
      if (pendingCr) {
        pendingCr = false;
        if (byte === LF) {
          counts.crlf += 1;
          continue;
        }
        counts.cr += 1;
      }
      if (byte === QUOTE) quoted = !quoted;
      else if (quoted) continue;
      else if (byte === CR) pendingCr = true;
      else if (byte === LF) counts.lf += 1;
    }
  }
  if (pendingCr) counts.cr += 1;
  return counts;
}

/** A stream that turns every CRLF and lone CR outside quoted values into LF. */
function toLf(): Transform {
  let quoted = false;
  let pendingCr = false;
  return new Transform({
    transform(chunk: Buffer, _encoding, done) {
      const out = Buffer.allocUnsafe(chunk.length + 1);
      let n = 0;
      for (let i = 0; i < chunk.length; i += 1) {
        const byte = chunk[i] as number;
        if (pendingCr) {
          pendingCr = false;
          out[n++] = LF;
          if (byte === LF) continue;
        }
        if (byte === QUOTE) quoted = !quoted;
        if (byte === CR && !quoted) {
          pendingCr = true;
          continue;
        }
        out[n++] = byte;
      }
      done(null, out.subarray(0, n));
    },
    flush(done) {
      done(null, pendingCr ? Buffer.from([LF]) : null);
    },
  });
}

/**
 * When the file's rows end in more than one way, writes a copy next to it with LF row ends and
 * returns the copy's path (the caller removes it); otherwise returns null.
 */
export async function copyWithUniformLineEnds(filePath: string): Promise<string | null> {
  const { crlf, lf, cr } = await countLineEnds(filePath);
  if ([crlf, lf, cr].filter((n) => n > 0).length < 2) return null;
  const copy = `${filePath}.lf.csv`;
  try {
    await pipeline(fs.createReadStream(filePath, { highWaterMark: 1024 * 1024 }), toLf(), fs.createWriteStream(copy));
  } catch (error) {
    await fs.promises.rm(copy, { force: true });
    throw error;
  }
  return copy;
}

/**
 * The same for a file the caller owns (a sync's download, a received attachment): the file itself
 * gets LF row ends when they are mixed. Running it again changes nothing.
 */
export async function uniformLineEndsInPlace(filePath: string): Promise<void> {
  const copy = await copyWithUniformLineEnds(filePath);
  if (copy !== null) await fs.promises.rename(copy, filePath);
}
