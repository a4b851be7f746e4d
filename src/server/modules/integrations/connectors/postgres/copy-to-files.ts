/**
 * Streams `COPY (...) TO STDOUT WITH CSV HEADER` into CSV files of at most `rowsPerFile` rows each,
 * every file starting with the header, so DuckDB can load a large table file by file while the
 * copy goes on (memory stays flat; the COPY waits on the socket while a file is being loaded).
 *
 * Splitting needs record boundaries: in PostgreSQL's CSV a newline ends a record unless it is
 * inside double quotes, and a quote inside a quoted field is doubled, so toggling on every quote
 * byte tracks "inside quotes" exactly. Scanning uses Buffer.indexOf, not a byte loop, for speed.
 */
import { createWriteStream, type WriteStream } from 'node:fs';
import { once } from 'node:events';
import path from 'node:path';
import { finished } from 'node:stream/promises';
import type pg from 'pg';
import { to as copyTo } from 'pg-copy-streams';

const QUOTE = 0x22;
const NEWLINE = 0x0a;

export interface CsvFile {
  path: string;
  rows: number;
}

export interface CopyOptions {
  dir: string;
  /** File names are `<baseName>-<n>.csv`. */
  baseName: string;
  rowsPerFile: number;
  signal: AbortSignal;
}

/** The file being filled; opened on its first bytes, always starting with the header. */
class FileSink {
  private stream: WriteStream | null = null;
  private count = 0;
  rows = 0;
  constructor(private readonly options: CopyOptions) {}

  get isOpen(): boolean {
    return this.stream !== null;
  }

  private open(header: Buffer): WriteStream {
    this.count++;
    const file = path.join(this.options.dir, `${this.options.baseName}-${this.count}.csv`);
    this.stream = createWriteStream(file);
    this.stream.write(header);
    return this.stream;
  }

  async write(bytes: Buffer, header: Buffer): Promise<void> {
    if (bytes.length === 0) return;
    const stream = this.stream ?? this.open(header);
    if (!stream.write(bytes)) await once(stream, 'drain');
  }

  /** Finishes the file (a header-only one when nothing was written, so empty tables keep their columns). */
  async close(header: Buffer): Promise<CsvFile> {
    const stream = this.stream ?? this.open(header);
    stream.end();
    await finished(stream);
    const file = { path: String(stream.path), rows: this.rows };
    this.stream = null;
    this.rows = 0;
    return file;
  }
}

export interface CsvCopy {
  files: AsyncGenerator<CsvFile>;
  /**
   * The rows COPY itself reported ("COPY n"), known once the command completed: after the files,
   * by the time the client's next query answers. Their sum of `rows` must equal it.
   */
  reportedRows(): number;
}

export function copyToCsvFiles(client: pg.Client, selectSql: string, options: CopyOptions): CsvCopy {
  const stream = client.query(copyTo(`COPY (${selectSql}) TO STDOUT WITH (FORMAT csv, HEADER true)`));
  return { files: splitIntoFiles(stream, options), reportedRows: () => stream.rowCount };
}

async function* splitIntoFiles(stream: ReturnType<typeof copyTo>, options: CopyOptions): AsyncGenerator<CsvFile> {
  const abort = () => stream.destroy(new Error('Cancelled'));
  options.signal.addEventListener('abort', abort, { once: true });
  const sink = new FileSink(options);
  const headerParts: Buffer[] = [];
  let header: Buffer | null = null;
  let inQuotes = false;
  let yielded = 0;
  try {
    for await (const data of stream as AsyncIterable<Buffer>) {
      let start = 0; // bytes before `start` are written (or part of the header)
      let pos = 0;
      // The next quote at or after `pos`, found once per quote: a search from every line would
      // rescan the rest of the chunk for each row when the data holds few quotes.
      let quote = data.indexOf(QUOTE);
      while (pos < data.length) {
        if (inQuotes) {
          if (quote < 0) break;
          inQuotes = false;
          pos = quote + 1;
          quote = data.indexOf(QUOTE, pos);
          continue;
        }
        const newline = data.indexOf(NEWLINE, pos);
        if (quote >= 0 && (newline < 0 || quote < newline)) {
          inQuotes = true;
          pos = quote + 1;
          quote = data.indexOf(QUOTE, pos);
          continue;
        }
        if (newline < 0) break;
        pos = newline + 1;
        if (header === null) {
          headerParts.push(data.subarray(start, pos));
          header = Buffer.concat(headerParts);
          start = pos;
          continue;
        }
        sink.rows++;
        if (sink.rows >= options.rowsPerFile) {
          await sink.write(data.subarray(start, pos), header);
          start = pos;
          yielded++;
          yield await sink.close(header);
        }
      }
      if (header === null) headerParts.push(data.subarray(start));
      else await sink.write(data.subarray(start), header);
    }
    if (header !== null && (sink.isOpen || yielded === 0)) yield await sink.close(header);
  } finally {
    options.signal.removeEventListener('abort', abort);
  }
}
