/**
 * What an e-mail attachment becomes: CSV and Parquet files are kept as they are; JSON (an array
 * or one object), XML and Avro are rewritten as JSON lines, so every accepted attachment reaches
 * the warehouse as one of the file formats the runner loads (csv, jsonl, parquet). Anything else
 * is not data and is ignored (the listener logs it).
 */
import { randomBytes } from 'node:crypto';
import { rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { exactJsonText, parseJsonExact } from '../../../../exact-values/json';
import { avroToJsonLines } from './convert-avro';
import { xmlToRecords } from './convert-xml';

export type AttachmentKind = 'csv' | 'json' | 'jsonl' | 'xml' | 'parquet' | 'avro';
export type LoadFormat = 'csv' | 'jsonl' | 'parquet';

const BY_EXTENSION: Record<string, AttachmentKind> = {
  csv: 'csv',
  json: 'json',
  jsonl: 'jsonl',
  ndjson: 'jsonl',
  xml: 'xml',
  parquet: 'parquet',
  pq: 'parquet',
  avro: 'avro',
};

const BY_CONTENT_TYPE: Record<string, AttachmentKind> = {
  'text/csv': 'csv',
  'application/csv': 'csv',
  'application/json': 'json',
  'application/x-ndjson': 'jsonl',
  'application/jsonl': 'jsonl',
  'application/xml': 'xml',
  'text/xml': 'xml',
  'application/vnd.apache.parquet': 'parquet',
  'application/x-parquet': 'parquet',
  'application/avro': 'avro',
  'avro/binary': 'avro',
};

/** The data kind of an attachment by its file extension, else its content type; null when not data. */
export function attachmentKind(fileName: string, contentType: string): AttachmentKind | null {
  const extension = path.extname(fileName).slice(1).toLowerCase();
  return BY_EXTENSION[extension] ?? BY_CONTENT_TYPE[contentType.split(';')[0]?.trim().toLowerCase() ?? ''] ?? null;
}

export interface StoredAttachment {
  path: string;
  format: LoadFormat;
  /** Known for converted files. */
  rows?: number;
}

/** JSON lines, numbers written exactly as they were read. */
function jsonLines(records: unknown[]): string {
  return records.map((r) => exactJsonText(r)).join('\n') + (records.length > 0 ? '\n' : '');
}

/** Writes the attachment into `dir` in a loadable format; throws when its content is unreadable. */
export async function storeAttachment(
  dir: string,
  fileName: string,
  kind: AttachmentKind,
  content: Uint8Array,
): Promise<StoredAttachment> {
  // Stored names always end in the load format's extension (readers may go by it), whatever the sender named it.
  // Kept short: a sender's 300-character name would pass the file system's 255-byte limit.
  const stem = path
    .basename(fileName, path.extname(fileName))
    .replace(/[^A-Za-z0-9._-]/g, '_')
    .slice(0, 80);
  const base = path.join(dir, `${Date.now()}-${randomBytes(6).toString('hex')}-${stem}`);
  switch (kind) {
    case 'csv':
    case 'jsonl':
    case 'parquet':
      await writeFile(`${base}.${kind}`, content);
      return { path: `${base}.${kind}`, format: kind };
    case 'json': {
      let parsed: unknown;
      try {
        // Every number exactly as written: a 19-digit id must not pass through a double.
        parsed = parseJsonExact(Buffer.from(content).toString('utf8'));
      } catch {
        throw new Error('not valid JSON');
      }
      const records = Array.isArray(parsed) ? parsed : [parsed];
      await writeFile(`${base}.jsonl`, jsonLines(records));
      return { path: `${base}.jsonl`, format: 'jsonl', rows: records.length };
    }
    case 'xml': {
      const records = xmlToRecords(Buffer.from(content).toString('utf8'));
      await writeFile(`${base}.jsonl`, jsonLines(records));
      return { path: `${base}.jsonl`, format: 'jsonl', rows: records.length };
    }
    case 'avro': {
      await writeFile(`${base}.avro`, content);
      try {
        const rows = await avroToJsonLines(`${base}.avro`, `${base}.jsonl`);
        return { path: `${base}.jsonl`, format: 'jsonl', rows };
      } catch (error) {
        await rm(`${base}.jsonl`, { force: true });
        throw new Error(`not a readable Avro file (${error instanceof Error ? error.message : String(error)})`);
      } finally {
        await rm(`${base}.avro`, { force: true });
      }
    }
  }
}
