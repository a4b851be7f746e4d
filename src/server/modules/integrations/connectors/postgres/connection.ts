/**
 * Connections to the source database, under the server's outbound policy, and the translation of
 * their failures into the spec's error types: wrong address, credentials, database or permissions
 * are the configuration's (ConfigError), a dropped connection is worth a retry (TransientError),
 * anything else is ours (SystemError).
 *
 * The host is resolved once through the policy and the client dials the checked address (the name
 * is kept as the TLS server name), so a DNS answer that changes after the check is never dialled,
 * and a host spelled as a socket folder (`/tmp`) never becomes a Unix socket. The password is
 * always the configured one: never PGPASSWORD or a ~/.pgpass of the server's.
 *
 * Until the server has accepted the login, failures are told in a few fixed kinds (refused by the
 * policy, DNS, connection refused, timed out, TLS, authentication, not a PostgreSQL server) and
 * never with what the remote sent, so the connector cannot tell apart or read what else listens
 * on a port. After the login the server is a PostgreSQL server the user holds credentials for,
 * and its own error messages (permissions, missing tables) are passed on.
 */
import { isIP } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import { isTransientFailure, networkFailure } from '../../../../net/network-failures';
import { bareHost, hostAndPort, type OutboundPolicy } from '../../../../net/outbound-policy';
import { ConnectorError } from '../types';
import type { PostgresConfig } from './spec';

/** How long a connect (TCP, TLS, login) may take. */
const CONNECT_TIMEOUT_MS = 15_000;

const AUTH_CODES = new Set(['28P01', '28000']);
const SESSION_CONFIG_CODES: Record<string, string> = {
  '42501': 'Permission denied',
  '42P01': 'The table does not exist',
  '42703': 'A column does not exist',
};
const TRANSIENT_CODES = new Set(['57P01', '57P02', '57P03', '53300', '08006', '08001', '08004', '08003']);
const isSqlState = (code: unknown): code is string => typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code);

const whereOf = (config: PostgresConfig) => hostAndPort(bareHost(config.host), config.port);

/** Before the login was accepted: fixed words only. */
function connectError(error: unknown, config: PostgresConfig): ConnectorError {
  if (error instanceof ConnectorError) return error;
  const where = whereOf(config);
  const failure = networkFailure(error, where);
  if (failure)
    return new ConnectorError(failure.message, isTransientFailure(failure.kind) ? 'TransientError' : 'ConfigError');
  const code = (error as { code?: unknown }).code;
  const message = error instanceof Error ? error.message : '';
  // node-postgres' own words (not the server's) for its connect timeout and a refused SSLRequest.
  if (/timeout expired|connection timeout/i.test(message)) {
    return new ConnectorError(`Timed out connecting to ${where}`, 'TransientError');
  }
  if (/does not support SSL/i.test(message)) {
    return new ConnectorError(`The server at ${where} does not support SSL: set SSL to disable`, 'ConfigError');
  }
  if ((isSqlState(code) && AUTH_CODES.has(code)) || /^SASL/.test(message)) {
    return new ConnectorError(`Authentication failed for user "${config.user}" at ${where}`, 'ConfigError', true);
  }
  if (code === '3D000') {
    return new ConnectorError(`The database "${config.database}" does not exist at ${where}`, 'ConfigError');
  }
  if (isSqlState(code) && TRANSIENT_CODES.has(code)) {
    return new ConnectorError(
      `The PostgreSQL server at ${where} is not accepting connections now (${code})`,
      'TransientError',
    );
  }
  if (isSqlState(code)) {
    return new ConnectorError(
      `The PostgreSQL server at ${where} refused the connection (SQLSTATE ${code})`,
      'ConfigError',
    );
  }
  return new ConnectorError(`${where} did not answer as a PostgreSQL server`, 'ConfigError');
}

/** After the login: the server's own words for SQL errors, fixed words for the connection. */
export function toConnectorError(error: unknown, config: PostgresConfig): ConnectorError {
  if (error instanceof ConnectorError) return error;
  const where = whereOf(config);
  const failure = networkFailure(error, where);
  if (failure)
    return new ConnectorError(failure.message, isTransientFailure(failure.kind) ? 'TransientError' : 'ConfigError');
  const code = (error as { code?: unknown }).code;
  const message = (error instanceof Error ? error.message : String(error)).split('\n')[0]?.slice(0, 300) ?? '';
  if (isSqlState(code) && SESSION_CONFIG_CODES[code]) {
    return new ConnectorError(`${SESSION_CONFIG_CODES[code]}: ${message}`, 'ConfigError');
  }
  if (
    (isSqlState(code) && TRANSIENT_CODES.has(code)) ||
    /terminated|timeout|not queryable|connection error/i.test(message)
  ) {
    return new ConnectorError(`The connection to ${where} was lost`, 'TransientError');
  }
  if (isSqlState(code)) return new ConnectorError(`PostgreSQL error ${code}: ${message}`, 'SystemError');
  return new ConnectorError(`PostgreSQL error: ${message}`, 'SystemError');
}

/** Ends a client without waiting long: end() of a connection the server already dropped may never settle. */
export async function closeQuietly(client: pg.Client): Promise<void> {
  await Promise.race([client.end().catch(() => undefined), sleep(1_000)]);
}

/** A connected client with a session that prints values the way the warehouse reads them. */
export async function connect(
  config: PostgresConfig,
  network: OutboundPolicy,
  signal?: AbortSignal,
): Promise<pg.Client> {
  let address: string;
  try {
    const [first] = await network.resolve(config.host, { port: config.port, signal });
    address = (first as { address: string }).address; // resolve() never returns an empty list
  } catch (error) {
    throw connectError(error, config);
  }
  const host = bareHost(config.host);
  const client = new pg.Client({
    host: address,
    port: config.port,
    database: config.database,
    user: config.user,
    // A function, so an empty password stays empty instead of falling back to PGPASSWORD or ~/.pgpass.
    password: () => config.password,
    // libpq's sslmode=require: encrypted, certificate not verified; SNI names the host as configured.
    ssl:
      config.ssl === 'require'
        ? { rejectUnauthorized: false, ...(isIP(host) === 0 ? { servername: host } : {}) }
        : false,
    connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
    application_name: 'workspace-integration',
  });
  // An idle error after a failed query must not crash the process; the query's own error is thrown.
  client.on('error', () => undefined);
  try {
    await client.connect();
  } catch (error) {
    await closeQuietly(client);
    throw connectError(error, config);
  }
  try {
    await client.query(
      "SET TimeZone = 'UTC'; SET DateStyle = 'ISO, YMD'; SET IntervalStyle = 'iso_8601'; SET extra_float_digits = 3",
    );
  } catch (error) {
    await closeQuietly(client);
    throw toConnectorError(error, config);
  }
  return client;
}
