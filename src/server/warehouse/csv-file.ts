import fs from 'node:fs/promises';
import { badInput } from '../errors';
import { quoteString } from './quote';

/** Delimiters tried on the header line; DuckDB is then told the one found, so it cannot guess wrong. */
const DELIMITERS = [',', ';', '\t', '|'] as const;
export type CsvDelimiter = (typeof DELIMITERS)[number];

export interface CsvFileFacts {
  delimiter: CsvDelimiter;
  /** Fields of the header line, for the strict re-read that names the line of a structural error. */
  headerFields: number;
  /** Lines before the header: 1 for Excel's `sep=;` line, which names the delimiter. */
  skip: number;
}

const HEAD_BYTES = 64 * 1024;

/**
 * Checks what can be known before DuckDB reads the file (size, emptiness) and finds the delimiter.
 * Given a file whose rows disagree on their number of fields, DuckDB's own dialect detection settles
 * on "one column" instead of reporting the bad row, so the delimiter is decided here, from the header.
 */
export async function inspectCsvFile(filePath: string, maxBytes: number): Promise<CsvFileFacts> {
  const { size } = await fs.stat(filePath);
  if (size === 0) throw badInput('The file is empty.');
  if (size > maxBytes) throw badInput(`The file is ${sizeText(size)}, over the limit of ${sizeText(maxBytes)}.`);

  const handle = await fs.open(filePath, 'r');
  let head: string;
  try {
    const buffer = Buffer.alloc(Math.min(size, HEAD_BYTES));
    const { bytesRead } = await handle.read(buffer, 0, buffer.length, 0);
    const bytes = buffer.subarray(0, bytesRead);
    refuseBinary(bytes);
    head = bytes.toString('utf8').replace(/^\uFEFF/, '');
  } finally {
    await handle.close();
  }
  if (head.trim() === '') throw badInput('The file is empty.');
  const first = firstRecord(head);
  // Excel writes `sep=;` on a line of its own before the header when asked to name the delimiter.
  const named = /^sep=(.)$/.exec(first)?.[1];
  if (named !== undefined && isDelimiter(named)) {
    const header = firstRecord(head.slice(first.length).replace(/^\r?\n|^\r/, ''));
    return { ...headerFacts(header, named), skip: 1 };
  }
  return { ...headerFacts(first), skip: 0 };
}

/**
 * A CSV file is text: UTF-16 (its byte order mark) and anything with NUL bytes (images, archives,
 * spreadsheets) are refused by name before DuckDB's parser meets them.
 */
function refuseBinary(head: Buffer): void {
  const utf16 = (head[0] === 0xff && head[1] === 0xfe) || (head[0] === 0xfe && head[1] === 0xff);
  if (utf16) throw badInput('The file is UTF-16 encoded. Save it as UTF-8 CSV and try again.');
  if (head.includes(0)) {
    throw badInput('The file is not a CSV text file: it holds binary data. Save it as CSV (UTF-8) and try again.');
  }
}

/** The first record, up to a line break outside quotes (a quoted header name may hold a line break). */
function firstRecord(text: string): string {
  let quoted = false;
  for (let i = 0; i < text.length; i += 1) {
    const c = text[i];
    if (c === '"') quoted = !quoted;
    else if (!quoted && (c === '\n' || c === '\r')) return text.slice(0, i);
  }
  return text;
}

function headerFacts(header: string, named?: CsvDelimiter): Omit<CsvFileFacts, 'skip'> {
  const counts = new Map<CsvDelimiter, number>(DELIMITERS.map((d) => [d, 0]));
  let quoted = false;
  for (const c of header) {
    if (c === '"') quoted = !quoted;
    else if (!quoted && isDelimiter(c)) counts.set(c, (counts.get(c) ?? 0) + 1);
  }
  // The most frequent wins; a comma wins ties and a header with a single name.
  let delimiter: CsvDelimiter = named ?? ',';
  if (!named) for (const d of DELIMITERS) if ((counts.get(d) ?? 0) > (counts.get(delimiter) ?? 0)) delimiter = d;
  return { delimiter, headerFields: (counts.get(delimiter) ?? 0) + 1 };
}

/**
 * read_csv options fixing a file's dialect to RFC 4180 with the delimiter found: the header's
 * delimiter, '"' around values and doubled within, the lines before the header skipped. DuckDB's
 * own guess reads a one-column file whose values hold a ';' as two columns, and takes a value in
 * single quotes for a quoted one.
 */
export function csvDialectOptions(facts: CsvFileFacts): string {
  return `delim = ${quoteString(facts.delimiter)}, quote = '"', escape = '"', skip = ${facts.skip}`;
}

const isDelimiter = (c: string): c is CsvDelimiter => (DELIMITERS as readonly string[]).includes(c);

export function sizeText(bytes: number): string {
  const mb = 1024 * 1024;
  if (bytes >= mb) return `${Number((bytes / mb).toFixed(1))} MB`;
  if (bytes >= 1024) return `${Number((bytes / 1024).toFixed(1))} KB`;
  return `${bytes} bytes`;
}
