/**
 * The contract between the sync runner and a source connector. A connector knows how to reach one
 * kind of source (a REST API, PostgreSQL, SFTP, an Airbyte-protocol command, sample data); the
 * runner owns everything else: runs, attempts, logs, staging tables, the swap, state and schedules.
 */
import type { ColumnType } from '../../../../shared/tables';

export const SYNC_TYPES = ['FullRefresh', 'Incremental'] as const;
export type SyncType = (typeof SYNC_TYPES)[number];

export const INGESTION_TYPES = ['Overwrite', 'Append', 'AppendDedup'] as const;
export type IngestionType = (typeof INGESTION_TYPES)[number];

export interface DiscoveredProperty {
  name: string;
  type: ColumnType;
  isPrimaryKey: boolean;
  isCursor: boolean;
  description?: string;
  /**
   * The exact storage of the values (connectors/formats.ts), e.g. 'int64', 'decimal(20,6)',
   * 'timestamptz', 'list<int32>'. Datasets discovered before formats existed hold other words here
   * (the source's own type names); they keep the storage of their column type.
   */
  format?: string;
  /**
   * What a value the format cannot hold does (after numbers widened to exact decimals): 'text'
   * (types inferred from samples, shapes a source does not declare) makes the column exact text
   * for that sync, with a warning; 'refuse' (the default: the source declared the type) stops it.
   */
  onMisfit?: 'text' | 'refuse';
}

export interface DiscoveredDataset {
  /** Unique within the integration; becomes the warehouse table name (after cleaning). */
  name: string;
  properties: DiscoveredProperty[];
  supportedSyncTypes: SyncType[];
  supportedIngestionTypes: IngestionType[];
  /** Property names; empty when the source has none. */
  primaryKey: string[];
  cursorField: string | null;
  /**
   * The name the connector gave this dataset before it named datasets as it does now: discovery
   * renames a stored dataset of that name (keeping the user's choices, state and rows) when none
   * has the new name yet.
   */
  formerName?: string;
}

export interface ReadRequest {
  dataset: string;
  /** The selected properties (primary key and cursor always included). */
  properties: string[];
  /**
   * Every property discovery found, selected or not: a connector that types its records from a
   * sample says which fields it met that discovery did not (they have no column and are not stored).
   */
  discovered?: string[];
  syncType: SyncType;
  cursorField: string | null;
  /** What the last successful read of this dataset yielded as `state`, or null (full refresh, first sync). */
  state: unknown;
}

/** What a read yields, in order. Files are handed to DuckDB as they are (fast path for large reads). */
export type ReadItem =
  | { kind: 'records'; records: Record<string, unknown>[] }
  | {
      kind: 'file';
      path: string;
      format: 'csv' | 'jsonl' | 'parquet';
      rows?: number;
      /** CSV whose every value is its type's canonical text (a database's own output): cast as it is. */
      canonical?: boolean;
      /**
       * CSV written by PostgreSQL's `COPY ... (FORMAT csv, HEADER true)`: its columns in order. Read
       * in exactly that dialect, nothing guessed; `rows` must then be the count of its rows.
       */
      columns?: string[];
    }
  | { kind: 'state'; state: unknown }
  | { kind: 'log'; level: LogLevel; message: string };

export type LogLevel = 'INFO' | 'WARN' | 'ERROR';

/** Typed errors of the spec's Attempt: a bad configuration, a failure of ours, or one worth retrying. */
export type ConnectorErrorType = 'ConfigError' | 'SystemError' | 'TransientError';

export class ConnectorError extends Error {
  constructor(
    message: string,
    readonly type: ConnectorErrorType,
    /**
     * The source refused the saved credentials (HTTP 401/403, a database or SFTP login refused):
     * the integration stops syncing until someone saves new ones (requiresReAuthentication).
     */
    readonly credentialsRejected = false,
  ) {
    super(message);
    this.name = 'ConnectorError';
  }
}

export interface ConnectorContext {
  log(level: LogLevel, message: string): void;
  /** Aborted when the run is cancelled or the server shuts down. */
  signal: AbortSignal;
  /** A scratch folder of this attempt, removed afterwards. */
  tempDir: string;
}

/** Configuration as saved (secrets decrypted), validated against the definition's JSON Schema. */
export type ConnectorConfig = Record<string, unknown>;

export interface Connector {
  /** The built-in definition this connector serves, e.g. 'rest-api', 'postgres', 'sample-data'. */
  readonly key: string;
  /** Whether the configuration reaches the source: `{ ok: false, message }` names the problem in words. */
  check(config: ConnectorConfig, ctx: ConnectorContext): Promise<{ ok: true } | { ok: false; message: string }>;
  discover(config: ConnectorConfig, ctx: ConnectorContext): Promise<DiscoveredDataset[]>;
  read(config: ConnectorConfig, request: ReadRequest, ctx: ConnectorContext): AsyncIterable<ReadItem>;
}
