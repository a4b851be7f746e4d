/**
 * Writing a source's rows as a CSV or Parquet file into an SFTP integration's folder. The file's
 * name is derived from the step's idempotency key, so a resumed attempt writes the same name; the
 * file is uploaded under a hidden temporary name and renamed when whole, so a half file never
 * appears under the final name. A final name already there means an earlier (crashed) run of the
 * same attempt finished: nothing is written again.
 */
import path from 'node:path';
import type { Readable } from 'node:stream';
import type { CompiledQuery } from '../../../../engine/sql';
import type { OutboundPolicy } from '../../../net/outbound-policy';
import { exportTable } from '../../../warehouse/export-table';
import type { WarehouseExecutor } from '../../../warehouse/types';
import { openSession } from '../../integrations/connectors/sftp/session';
import { parseSftpConfig } from '../../integrations/connectors/sftp/spec';
import type { ConnectorConfig } from '../../integrations/connectors/types';

export const FILE_FORMATS = ['csv', 'parquet'] as const;
export type FileFormat = (typeof FILE_FORMATS)[number];

/** `<base>-<run>-<step>-<attempt>.<ext>`: the name part kept to safe characters. */
export function destinationFileName(base: string, key: string, format: FileFormat): string {
  const clean = (text: string) =>
    text
      .replace(/[^A-Za-z0-9._-]+/g, '_')
      .replace(/^[._]+/, '')
      .slice(0, 80);
  return `${clean(base) || 'export'}-${clean(key.replace(/:/g, '-'))}.${format}`;
}

export function destinationPath(config: ConnectorConfig, name: string): string {
  const folder = parseSftpConfig(config).folder || '/';
  return path.posix.join(folder, name);
}

export interface SftpWrite {
  config: ConnectorConfig;
  network: OutboundPolicy;
  executor: WarehouseExecutor;
  rows: CompiledQuery;
  format: FileFormat;
  name: string;
  signal: AbortSignal;
}

export async function writeSftp(write: SftpWrite): Promise<{ path: string; already: boolean }> {
  const config = parseSftpConfig(write.config);
  const final = destinationPath(write.config, write.name);
  const temp = path.posix.join(path.posix.dirname(final), `.${write.name}.part`);
  const session = await openSession(config, write.signal, write.network);
  let data: Readable | null = null;
  try {
    if (await session.exists(final)) return { path: final, already: true };
    await session.remove(temp); // left by an attempt that died while uploading
    data = await exportTable(write.executor, write.rows, write.format);
    await session.upload(data, temp, write.signal);
    await session.rename(temp, final);
    return { path: final, already: false };
  } catch (error) {
    if (!write.signal.aborted) await session.remove(temp).catch(() => undefined);
    throw error;
  } finally {
    data?.destroy();
    session.close();
  }
}
