/**
 * Connections to the source database and the translation of its failures into the spec's error
 * types: wrong address, credentials, database or permissions are the configuration's (ConfigError),
 * a dropped connection is worth a retry (TransientError), anything else is ours (SystemError).
 */
import pg from 'pg';
import { ConnectorError } from '../types';
import type { PostgresConfig } from './spec';

const CONFIG_CODES: Record<string, string> = {
  '28P01': 'Authentication failed',
  '28000': 'Access refused',
  '3D000': 'The database does not exist',
  '42501': 'Permission denied',
  '42P01': 'The table does not exist',
  '42703': 'A column does not exist',
};
const TRANSIENT_CODES = new Set(['57P01', '57P02', '57P03', '53300', '08006', '08001', '08004']);
const NETWORK_CODES = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EHOSTUNREACH', 'ETIMEDOUT', 'ECONNRESET', 'EAI_AGAIN']);

export function toConnectorError(error: unknown, config: PostgresConfig): ConnectorError {
  if (error instanceof ConnectorError) return error;
  const code = (error as { code?: unknown }).code;
  const message = error instanceof Error ? error.message : String(error);
  const where = `${config.host}:${config.port}`;
  if (typeof code === 'string' && CONFIG_CODES[code]) {
    return new ConnectorError(`${CONFIG_CODES[code]}: ${message}`, 'ConfigError');
  }
  if (/does not support SSL/i.test(message)) {
    return new ConnectorError(`The server at ${where} does not support SSL: set SSL to disable`, 'ConfigError');
  }
  if (typeof code === 'string' && NETWORK_CODES.has(code)) {
    const type = code === 'ECONNRESET' || code === 'ETIMEDOUT' ? 'TransientError' : 'ConfigError';
    return new ConnectorError(`Could not reach PostgreSQL at ${where} (${code})`, type);
  }
  if (
    (typeof code === 'string' && TRANSIENT_CODES.has(code)) ||
    /terminated|timeout|not queryable|connection error/i.test(message)
  ) {
    return new ConnectorError(`The connection to ${where} failed: ${message}`, 'TransientError');
  }
  return new ConnectorError(`PostgreSQL error: ${message}`, 'SystemError');
}

/** A connected client with a session that prints values the way the warehouse reads them. */
export async function connect(config: PostgresConfig): Promise<pg.Client> {
  const client = new pg.Client({
    host: config.host,
    port: config.port,
    database: config.database,
    user: config.user,
    password: config.password,
    // libpq's sslmode=require: encrypted, certificate not verified.
    ssl: config.ssl === 'require' ? { rejectUnauthorized: false } : false,
    connectionTimeoutMillis: 15_000,
    application_name: 'workspace-integration',
  });
  // An idle error after a failed query must not crash the process; the query's own error is thrown.
  client.on('error', () => undefined);
  try {
    await client.connect();
    await client.query(
      "SET TimeZone = 'UTC'; SET DateStyle = 'ISO, YMD'; SET IntervalStyle = 'iso_8601'; SET extra_float_digits = 3",
    );
  } catch (error) {
    await client.end().catch(() => undefined);
    throw toConnectorError(error, config);
  }
  return client;
}
