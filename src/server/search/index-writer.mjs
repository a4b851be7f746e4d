/**
 * The search index's writer, run in a worker thread (index-worker.ts) so a long build never blocks the
 * app's event loop. Plain JavaScript on purpose: a worker runs it with no TypeScript loader (tsx in
 * production, vitest in tests). It owns the only write connection to each account's index file.
 *
 * Entries come as newline-delimited JSON written by the warehouse (`COPY ... (FORMAT JSON)`), one
 * object per entry: `c` the column's index in the job's `columns`, `v` the text, `n` the rows holding
 * it, `r` one row's key. A table's new entries replace its old ones (whole table, or the columns the
 * job names) in one transaction, so readers see the old generation until the new one commits.
 */
import fs from 'node:fs';
import readline from 'node:readline';
import { parentPort } from 'node:worker_threads';
import Database from 'better-sqlite3';
import { SCHEMA_SQL } from './index-schema.mjs';

/** Entries per prepared-statement loop between awaits of the file stream. */
const BATCH = 2000;

/** @type {Map<string, import('better-sqlite3').Database>} */
const open = new Map();

function database(file) {
  let db = open.get(file);
  if (!db) {
    db = new Database(file);
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = NORMAL');
    db.exec(SCHEMA_SQL);
    open.set(file, db);
  }
  return db;
}

function tableId(db, tableKey) {
  db.prepare('INSERT INTO tables(table_key) VALUES (?) ON CONFLICT(table_key) DO NOTHING').run(tableKey);
  return db.prepare('SELECT tid FROM tables WHERE table_key = ?').get(tableKey).tid;
}

function removeColumn(db, cid) {
  db.prepare('DELETE FROM fts WHERE rowid IN (SELECT id FROM docs WHERE cid = ?)').run(cid);
  db.prepare('DELETE FROM docs WHERE cid = ?').run(cid);
}

function removeTable(db, tableKey) {
  const row = db.prepare('SELECT tid FROM tables WHERE table_key = ?').get(tableKey);
  if (!row) return;
  for (const { cid } of db.prepare('SELECT cid FROM columns WHERE tid = ?').all(row.tid)) removeColumn(db, cid);
  db.prepare('DELETE FROM columns WHERE tid = ?').run(row.tid);
  db.prepare('DELETE FROM tables WHERE tid = ?').run(row.tid);
}

/**
 * job: { file, tableKey, entries (path of the NDJSON), columns: [{ columnKey, kind, replace }],
 *        rows, maxRow, fingerprint, indexedAt }
 * Columns with `replace` lose their entries first; the others (row-level, appended) keep theirs.
 */
async function indexTable(job) {
  const db = database(job.file);
  db.exec('BEGIN IMMEDIATE');
  try {
    const tid = tableId(db, job.tableKey);
    const known = new Map(
      db
        .prepare('SELECT cid, column_key FROM columns WHERE tid = ?')
        .all(tid)
        .map((r) => [r.column_key, r.cid]),
    );
    const wanted = new Set(job.columns.map((c) => c.columnKey));
    // Columns no longer searchable (removed, excluded, no longer text) leave with their entries.
    for (const [columnKey, cid] of known) {
      if (wanted.has(columnKey)) continue;
      removeColumn(db, cid);
      db.prepare('DELETE FROM columns WHERE cid = ?').run(cid);
      known.delete(columnKey);
    }
    const cids = job.columns.map((column) => {
      let cid = known.get(column.columnKey);
      if (cid === undefined) {
        cid = db
          .prepare('INSERT INTO columns(tid, column_key, kind) VALUES (?, ?, ?)')
          .run(tid, column.columnKey, column.kind).lastInsertRowid;
      } else {
        if (column.replace) removeColumn(db, cid);
        db.prepare('UPDATE columns SET kind = ? WHERE cid = ?').run(column.kind, cid);
      }
      return Number(cid);
    });
    const insertDoc = db.prepare('INSERT INTO docs(cid, value, count, sample_row) VALUES (?, ?, ?, ?)');
    const insertText = db.prepare('INSERT INTO fts(rowid, value) VALUES (?, ?)');
    let batch = [];
    const flush = () => {
      for (const entry of batch) {
        const id = insertDoc.run(cids[entry.c], entry.v, entry.n, entry.r ?? null).lastInsertRowid;
        insertText.run(id, entry.v);
      }
      batch = [];
    };
    if (job.entries) {
      const lines = readline.createInterface({ input: fs.createReadStream(job.entries), crlfDelay: Infinity });
      for await (const line of lines) {
        if (!line) continue;
        const entry = JSON.parse(line);
        if (typeof entry.v !== 'string' || entry.v === '') continue;
        batch.push(entry);
        if (batch.length >= BATCH) flush();
      }
      flush();
    }
    // Per column and table: how many entries and rows are searchable (the admin page and counts).
    db.prepare(
      `UPDATE columns SET documents = (SELECT count(*) FROM docs WHERE docs.cid = columns.cid) WHERE tid = ?`,
    ).run(tid);
    db.prepare(
      `UPDATE tables SET rows = ?, max_row = ?, fingerprint = ?, indexed_at = ?,
         documents = (SELECT coalesce(sum(documents), 0) FROM columns WHERE columns.tid = tables.tid)
       WHERE tid = ?`,
    ).run(job.rows, job.maxRow ?? null, job.fingerprint ?? null, job.indexedAt, tid);
    db.exec('COMMIT');
  } catch (error) {
    if (db.inTransaction) db.exec('ROLLBACK');
    throw error;
  }
}

function removeTables(job) {
  const db = database(job.file);
  db.transaction(() => {
    for (const tableKey of job.tableKeys) removeTable(db, tableKey);
  })();
}

async function handle(message) {
  switch (message.op) {
    case 'index':
      await indexTable(message.job);
      return null;
    case 'remove':
      removeTables(message.job);
      return null;
    case 'optimize': {
      // Merges the full-text index's segments after a large build: smaller file, faster queries.
      const db = database(message.job.file);
      db.exec("INSERT INTO fts(fts) VALUES ('optimize')");
      return null;
    }
    case 'close': {
      const db = open.get(message.job.file);
      db?.close();
      open.delete(message.job.file);
      return null;
    }
    default:
      throw new Error(`Unknown index operation ${message.op}`);
  }
}

// One job at a time, in order: every job of a file is a write, and SQLite has one writer.
let queue = Promise.resolve();
parentPort.on('message', (message) => {
  queue = queue.then(async () => {
    try {
      const result = await handle(message);
      parentPort.postMessage({ id: message.id, ok: true, result });
    } catch (error) {
      parentPort.postMessage({
        id: message.id,
        ok: false,
        error: error instanceof Error ? error.message : String(error),
      });
    }
  });
});
