/**
 * An SFTP session over ssh2's client, with promise wrappers for the few calls the connector makes
 * and its failures typed: refused credentials, unknown hosts and missing folders are the
 * configuration's (ConfigError); timeouts and dropped connections are worth a retry (TransientError).
 * The server's host key is not pinned (no known_hosts): the definition has no setting for it yet.
 */
import ssh2, { type SFTPWrapper } from 'ssh2';
import { ConnectorError } from '../types';
import type { RemoteFile } from './file-sets';
import type { SftpConfig } from './spec';

const S_IFMT = 0o170000;
const S_IFREG = 0o100000;

export interface SftpSession {
  list(folder: string): Promise<RemoteFile[]>;
  download(remotePath: string, localPath: string): Promise<void>;
  close(): void;
}

export function toConnectorError(error: unknown, config: SftpConfig): ConnectorError {
  if (error instanceof ConnectorError) return error;
  const message = error instanceof Error ? error.message : String(error);
  const code = (error as { code?: unknown; level?: unknown }).code;
  const where = `${config.host}:${config.port}`;
  if (/authentication methods failed/i.test(message)) {
    return new ConnectorError(`Authentication failed for ${config.user} at ${where}`, 'ConfigError');
  }
  if (/privateKey|private key|passphrase/i.test(message)) {
    return new ConnectorError(`The private key could not be used: ${message}`, 'ConfigError');
  }
  if (code === 'ECONNREFUSED' || code === 'ENOTFOUND' || code === 'EHOSTUNREACH') {
    return new ConnectorError(`Could not reach the SFTP server at ${where} (${String(code)})`, 'ConfigError');
  }
  if (/timed out|ECONNRESET|closed|lost/i.test(message) || code === 'ETIMEDOUT' || code === 'ECONNRESET') {
    return new ConnectorError(`The connection to ${where} failed: ${message}`, 'TransientError');
  }
  return new ConnectorError(`SFTP error: ${message}`, 'SystemError');
}

export async function openSession(config: SftpConfig, signal: AbortSignal): Promise<SftpSession> {
  const client = new ssh2.Client();
  const sftp = await new Promise<SFTPWrapper>((resolve, reject) => {
    const abort = () => {
      client.end();
      reject(new ConnectorError('Cancelled', 'TransientError'));
    };
    signal.addEventListener('abort', abort, { once: true });
    client.once('error', (error) => {
      signal.removeEventListener('abort', abort);
      reject(toConnectorError(error, config));
    });
    client.once('ready', () => {
      client.sftp((error, wrapper) => {
        signal.removeEventListener('abort', abort);
        if (error) reject(toConnectorError(error, config));
        else resolve(wrapper);
      });
    });
    try {
      client.connect({
        host: config.host,
        port: config.port,
        username: config.user,
        readyTimeout: 20_000,
        ...(config.auth.type === 'password'
          ? { password: config.auth.password }
          : { privateKey: config.auth.privateKey, passphrase: config.auth.passphrase }),
      });
    } catch (error) {
      reject(toConnectorError(error, config)); // e.g. an unreadable private key throws synchronously
    }
  });
  client.on('error', () => undefined); // later errors surface through the failing call

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
    close: () => client.end(),
  };
}
