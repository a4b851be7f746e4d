import type { CompiledQuery, ResultRow, SqlRunner, SqlValue } from '../../engine/sql';
import type { ColumnType } from '../../shared/tables';
import type { AccountCopies } from './ordered-copy-store';
import type { RecentAnswers } from './recent-answers';

/** A result column: its name, the spec's column type, and DuckDB's own type name (e.g. `DECIMAL(18,3)`). */
export interface ResultColumn {
  name: string;
  type: ColumnType;
  sqlType: string;
}

export interface QueryResult {
  columns: ResultColumn[];
  rows: ResultRow[];
}

/**
 * SQL on one account's warehouse. Placeholders are `$1..$n`; parameters bind in order. Every row
 * value is already JSON-safe (json-values.ts).
 */
export interface WarehouseSession extends SqlRunner {
  all(query: CompiledQuery): Promise<ResultRow[]>;
  /** Rows with the columns' names and types (also when there are no rows). */
  query(query: CompiledQuery): Promise<QueryResult>;
  /**
   * Rows in chunks (DuckDB's vector size, 2048 rows) without holding the whole result in memory.
   * Finish or `break` the loop: the connection is held until the iterator ends.
   */
  stream(query: CompiledQuery): AsyncIterable<ResultRow[]>;
  /** DDL and writes; without parameters the text may hold several statements. Returns rows changed. */
  run(sql: string, parameters?: SqlValue[]): Promise<number>;
}

/** One leased connection (`executor.session`): its temporary tables stay visible inside its transactions. */
export interface WarehouseConnection extends WarehouseSession {
  /** `work` inside BEGIN ... COMMIT on this connection; any error rolls everything back. */
  transaction<T>(work: (session: WarehouseSession) => Promise<T>): Promise<T>;
  /**
   * How far the statement running on this connection has got, 0..1, when it is the connection that
   * tracks progress (`session(work, { watched: true })`, when free); otherwise null.
   */
  progress(): number | null;
  /** Stops the statement running on this connection (it fails with DuckDB's INTERRUPT error); a no-op when none runs. */
  interrupt(): void;
}

/** An account's warehouse. Each call takes a pooled connection of its own, so calls run concurrently. */
export interface WarehouseExecutor extends WarehouseSession {
  readonly accountId: string;
  /** Where exports wait for their client; emptied at start. */
  readonly tempDir: string;
  /**
   * Where files for the warehouse to read go (sync batches, webhook bodies, attachments); emptied at
   * start. The warehouse refuses files anywhere but here, `tempDir` and the account's uploads.
   */
  readonly scratchDir: string;
  /**
   * Several statements on one connection, e.g. to use a temporary table. `watched`: the connection
   * whose statements' progress DuckDB tracks, when no one else has it (one per account; for imports).
   */
  session<T>(work: (session: WarehouseConnection) => Promise<T>, options?: { watched?: boolean }): Promise<T>;
  /** `work` inside BEGIN ... COMMIT on one connection; any error rolls everything back. */
  transaction<T>(work: (session: WarehouseSession) => Promise<T>): Promise<T>;
  /** Writes every committed change into the warehouse file, so none depends on replaying the log. */
  checkpoint(): Promise<void>;
  /**
   * Runs `work` after every earlier `exclusive` call with the same name on this account has finished
   * (in this process). For writers of one table, e.g. `table:static.t_1`, which would otherwise fail
   * with DuckDB's write-write conflict. Every writer of a table must go through it: when `work`
   * settles, `table:<schema>.<name>` moves that relation's version on and drops its ordered copies.
   */
  exclusive<T>(name: string, work: () => Promise<T>): Promise<T>;
  /** The relation's (`<schema>.<name>`) version: 0, then one more each time an `exclusive('table:...')` of it settles. */
  relationVersion(relation: string): number;
  /** Writes (`exclusive('table:...')`) settled on any relation of the account: derived data read between two equal counts saw no write. */
  writesSettled(): number;
  /** The account's ordered copies (ordered-copies.ts): shared by every executor of the account. */
  readonly orderedCopies: AccountCopies;
  /** Recent page and count answers of stored relations (recent-answers.ts): shared by every account. */
  readonly recentAnswers: RecentAnswers;
}
