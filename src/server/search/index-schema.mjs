/**
 * The layout of an account's search index file (DATA_DIR/accounts/<id>/search.sqlite), shared by the
 * writer (worker thread) and the readers. One entry (`docs`) per distinct value per column with the
 * rows holding it, or per row for columns whose values are nearly all different; `fts` indexes the
 * entries' words (contentless: the text is kept once, in `docs`), with prefix indexes so a word
 * being typed matches, diacritics and case folded by the tokenizer.
 */
export const SCHEMA_SQL = `
CREATE TABLE IF NOT EXISTS tables (
  tid INTEGER PRIMARY KEY,
  table_key TEXT NOT NULL UNIQUE,
  rows INTEGER NOT NULL DEFAULT 0,
  max_row INTEGER,
  fingerprint TEXT,
  documents INTEGER NOT NULL DEFAULT 0,
  indexed_at TEXT
);
CREATE TABLE IF NOT EXISTS columns (
  cid INTEGER PRIMARY KEY,
  tid INTEGER NOT NULL,
  column_key TEXT NOT NULL,
  kind TEXT NOT NULL,
  documents INTEGER NOT NULL DEFAULT 0,
  UNIQUE (tid, column_key)
);
CREATE TABLE IF NOT EXISTS docs (
  id INTEGER PRIMARY KEY,
  cid INTEGER NOT NULL,
  value TEXT NOT NULL,
  count INTEGER NOT NULL,
  sample_row INTEGER
);
CREATE INDEX IF NOT EXISTS docs_cid ON docs (cid);
CREATE VIRTUAL TABLE IF NOT EXISTS fts USING fts5 (
  value,
  content = '',
  contentless_delete = 1,
  tokenize = 'unicode61 remove_diacritics 2',
  prefix = '2 3'
);
`;
