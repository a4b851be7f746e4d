/**
 * The main thread's side of the index writer (index-writer.mjs): one worker thread for the whole
 * app, started on first use, answering each job by id. Writes run there, one at a time, so a build
 * of millions of entries never holds the event loop; reads (search-reader.ts) run here on their
 * own read-only connections, which see each table's previous entries until its new ones commit.
 */
import { Worker } from 'node:worker_threads';

export interface IndexColumnJob {
  columnKey: string;
  /** 'values': one entry per distinct value; 'rows': one entry per row (nearly all values differ). */
  kind: 'values' | 'rows';
  /** The column's old entries go first (values re-counted, or a full refresh of its rows). */
  replace: boolean;
}

export interface IndexTableJob {
  file: string;
  tableKey: string;
  /** The NDJSON of entries the warehouse wrote; null when there are none. */
  entries: string | null;
  columns: IndexColumnJob[];
  rows: number;
  maxRow: number | null;
  /** Of the table's rows as indexed (build.ts compares it to tell an append from a rewrite). */
  fingerprint: string | null;
  indexedAt: string;
}

type Job =
  | { op: 'index'; job: IndexTableJob }
  | { op: 'remove'; job: { file: string; tableKeys: string[] } }
  | { op: 'optimize'; job: { file: string } }
  | { op: 'close'; job: { file: string } };

interface Reply {
  id: number;
  ok: boolean;
  error?: string;
}

export interface IndexWriter {
  run(job: Job): Promise<void>;
  close(): Promise<void>;
}

export function createIndexWriter(): IndexWriter {
  let worker: Worker | null = null;
  let next = 1;
  const waiting = new Map<number, { resolve: () => void; reject: (error: Error) => void }>();

  const start = () => {
    const started = new Worker(new URL('./index-writer.mjs', import.meta.url));
    started.on('message', (reply: Reply) => {
      const entry = waiting.get(reply.id);
      waiting.delete(reply.id);
      if (reply.ok) entry?.resolve();
      else entry?.reject(new Error(reply.error ?? 'The search index could not be written.'));
    });
    started.on('error', (error) => {
      for (const entry of waiting.values()) entry.reject(error);
      waiting.clear();
      worker = null;
    });
    started.on('exit', () => {
      for (const entry of waiting.values()) entry.reject(new Error('The search index writer stopped.'));
      waiting.clear();
      worker = null;
    });
    // Idle, it keeps no process alive (tests and shutdown end without waiting for it).
    started.unref();
    return started;
  };

  return {
    run(job) {
      worker ??= start();
      const id = next++;
      const running = worker;
      return new Promise<void>((resolve, reject) => {
        waiting.set(id, { resolve, reject });
        running.ref();
        running.postMessage({ id, ...job });
      }).finally(() => {
        if (waiting.size === 0) running.unref();
      });
    },
    async close() {
      const running = worker;
      worker = null;
      if (running) await running.terminate();
    },
  };
}
