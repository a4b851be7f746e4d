import type { DuckDBConnection, DuckDBInstance } from '@duckdb/node-api';
import type { Gate } from './gate';

/**
 * Connections of one DuckDB instance: a connection per concurrent query, reused afterwards. There is
 * no cap on how many are open (the gate bounds work in flight, and a cap here could deadlock a
 * caller that streams one query while running another); only the idle ones kept are capped.
 */
export interface ConnectionPool {
  acquire(): Promise<DuckDBConnection>;
  /** `discard` for a connection left in an unknown state (a failed rollback). */
  release(connection: DuckDBConnection, discard?: boolean): void;
  /** Disconnects the idle connections; those in use are disconnected when released. */
  close(): void;
  readonly idle: number;
}

export function createConnectionPool(instance: DuckDBInstance, gate: Gate, maxIdle: number): ConnectionPool {
  const idle: DuckDBConnection[] = [];
  let closed = false;

  return {
    async acquire() {
      if (closed) throw new Error('The warehouse connection pool is closed');
      return idle.pop() ?? (await gate.run(() => instance.connect()));
    },
    release(connection, discard = false) {
      if (closed || discard || idle.length >= maxIdle) connection.disconnectSync();
      else idle.push(connection);
    },
    close() {
      closed = true;
      for (const connection of idle.splice(0)) connection.disconnectSync();
    },
    get idle() {
      return idle.length;
    },
  };
}
