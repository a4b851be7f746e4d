/**
 * An SFTP session over ssh2's client, with promise wrappers for the few calls the connector makes
 * and its failures typed: refused credentials, unknown hosts and missing folders are the
 * configuration's (ConfigError); timeouts and dropped connections are worth a retry (TransientError).
 * The server's host key is not pinned (no known_hosts): the definition has no setting for it yet.
 *
 * The host is resolved once through the server's outbound policy and the client dials the checked
 * address, so a DNS answer that changes after the check is never dialled. Until the SSH login is
 * accepted, failures are told in fixed kinds (policy, DNS, refused, timed out, authentication, not
 * an SSH server) and never with what the remote sent; after it, SFTP failures by their status code.
 */
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import ssh2, { type SFTPWrapper } from 'ssh2';
import { isTransientFailure, networkFailure } from '../../../../net/network-failures';
import { bareHost, hostAndPort, type OutboundPolicy } from '../../../../net/outbound-policy';
import { ConnectorError } from '../types';
import type { RemoteFile } from './file-sets';
import type { SftpConfig } from './spec';

const S_IFMT = 0o170000;
const S_IFREG = 0o100000;
/** How long connecting, the SSH handshake and the login may take. */
const READY_TIMEOUT_MS = 20_000;

export interface SftpSession {
  list(folder: string): Promise<RemoteFile[]>;
  download(remotePath: string, localPath: string): Promise<void>;
  /** Whether a path exists (automation destination writes). */
  exists(remotePath: string): Promise<boolean>;
  /** Writes `data` to a new file at `remotePath` (replacing one there); the signal destroys both streams. */
  upload(data: Readable, remotePath: string, signal: AbortSignal): Promise<void>;
  rename(from: string, to: string): Promise<void>;
  /** Removes a file; a missing one is no error. */
  remove(remotePath: string): Promise<void>;
  close(): void;
}

const whereOf = (config: SftpConfig) => hostAndPort(bareHost(config.host), config.port);

function networkError(error: unknown, where: string): ConnectorError | null {
  const failure = networkFailure(error, where);
  if (!failure) return null;
  return new ConnectorError(failure.message, isTransientFailure(failure.kind) ? 'TransientError' : 'ConfigError');
}

/** Before the login was accepted: fixed words only. */
function connectError(error: unknown, config: SftpConfig): ConnectorError {
  if (error instanceof ConnectorError) return error;
  const where = whereOf(config);
  const network = networkError(error, where);
  if (network) return network;
  const message = error instanceof Error ? error.message : String(error);
  const level = (error as { level?: unknown }).level;
  if (level === 'client-authentication' || /authentication methods failed/i.test(message)) {
    return new ConnectorError(`Authentication failed for ${config.user} at ${where}`, 'ConfigError', true);
  }
  if (level === 'client-timeout') return new ConnectorError(`Timed out connecting to ${where}`, 'TransientError');
  // ssh2's own words about the key the user gave (parsed locally, before anything is sent).
  if (level === undefined && /privateKey|private key|passphrase/i.test(message)) {
    return new ConnectorError(`The private key could not be used: ${message}`, 'ConfigError');
  }
  return new ConnectorError(`${where} did not answer as an SFTP (SSH) server`, 'ConfigError');
}

const SFTP_STATUS: Record<number, string> = {
  2: 'no such file or folder',
  3: 'permission denied',
  4: 'the operation failed',
  8: 'the operation is not supported',
};

/** After the login: SFTP failures by status code, connection failures by kind. */
export function toConnectorError(error: unknown, config: SftpConfig): ConnectorError {
  if (error instanceof ConnectorError) return error;
  const where = whereOf(config);
  const network = networkError(error, where);
  if (network) return network;
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'number') {
    const what = SFTP_STATUS[code] ?? `status ${code}`;
    return new ConnectorError(
      `The SFTP server at ${where} answered: ${what}`,
      code === 3 ? 'ConfigError' : 'SystemError',
    );
  }
  const message = error instanceof Error ? error.message : String(error);
  if (/timed out|closed|lost|no response|not connected/i.test(message)) {
    return new ConnectorError(`The connection to ${where} was lost`, 'TransientError');
  }
  return new ConnectorError(`SFTP error at ${where}`, 'SystemError');
}

export async function openSession(
  config: SftpConfig,
  signal: AbortSignal,
  network: OutboundPolicy,
): Promise<SftpSession> {
  let address: string;
  try {
    const [first] = await network.resolve(config.host, { port: config.port, signal });
    address = (first as { address: string }).address; // resolve() never returns an empty list
  } catch (error) {
    throw connectError(error, config);
  }
  const client = new ssh2.Client();
  // ssh2 may emit more than one error (a handshake timeout, then the lost connection): the first
  // settles the promise, later ones surface through the failing call, none may go unhandled.
  let ready = false;
  const sftp = await new Promise<SFTPWrapper>((resolve, reject) => {
    const fail = (error: ConnectorError) => {
      signal.removeEventListener('abort', abort);
      client.end();
      reject(error);
    };
    const abort = () => fail(new ConnectorError('Cancelled', 'TransientError'));
    signal.addEventListener('abort', abort, { once: true });
    client.on('error', (error) => fail(ready ? toConnectorError(error, config) : connectError(error, config)));
    client.once('ready', () => {
      ready = true;
      client.sftp((error, wrapper) => {
        signal.removeEventListener('abort', abort);
        if (error) fail(toConnectorError(error, config));
        else resolve(wrapper);
      });
    });
    try {
      client.connect({
        host: address,
        port: config.port,
        username: config.user,
        readyTimeout: READY_TIMEOUT_MS,
        ...(config.auth.type === 'password'
          ? { password: config.auth.password }
          : { privateKey: config.auth.privateKey, passphrase: config.auth.passphrase }),
      });
    } catch (error) {
      fail(connectError(error, config)); // e.g. an unreadable private key throws synchronously
    }
  });

  return {
    list: (folder) =>
      new Promise((resolve, reject) =>
        sftp.readdir(folder, (error, entries) => {
          if (error) {
            const missing = (error as { code?: unknown }).code === 2;
            reject(
              missing
                ? new ConnectorError(`The folder '${folder}' does not exist on the server`, 'ConfigError')
                : toConnectorError(error, config),
            );
            return;
          }
          resolve(
            entries
              .filter((e) => (e.attrs.mode & S_IFMT) === S_IFREG)
              .map((e) => ({ name: e.filename, size: e.attrs.size, mtime: e.attrs.mtime })),
          );
        }),
      ),
    download: (remotePath, localPath) =>
      new Promise((resolve, reject) =>
        sftp.fastGet(remotePath, localPath, (error) => (error ? reject(toConnectorError(error, config)) : resolve())),
      ),
    exists: (remotePath) =>
      new Promise((resolve, reject) =>
        sftp.stat(remotePath, (error) => {
          if (!error) resolve(true);
          else if ((error as { code?: unknown }).code === 2) resolve(false);
          else reject(toConnectorError(error, config));
        }),
      ),
    async upload(data, remotePath, signal) {
      try {
        await pipeline(data, sftp.createWriteStream(remotePath), { signal });
      } catch (error) {
        if (signal.aborted) throw error;
        throw toConnectorError(error, config);
      }
    },
    rename: (from, to) =>
      new Promise((resolve, reject) =>
        sftp.rename(from, to, (error) => (error ? reject(toConnectorError(error, config)) : resolve())),
      ),
    remove: (remotePath) =>
      new Promise((resolve, reject) =>
        sftp.unlink(remotePath, (error) => {
          if (!error || (error as { code?: unknown }).code === 2) resolve();
          else reject(toConnectorError(error, config));
        }),
      ),
    close: () => client.end(),
  };
}
