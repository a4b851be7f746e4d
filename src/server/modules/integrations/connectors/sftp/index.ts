/**
 * The SFTP connector (definition type Sftp): files of a folder matching a glob, grouped into
 * datasets by name (see file-sets.ts), downloaded into the attempt's temp folder and handed to the
 * warehouse as files. Incremental syncs read only files modified since the last sync (by SFTP
 * modification time, whole seconds; files read at the newest second are remembered by name).
 */
import path from 'node:path';
import type { OutboundPolicy } from '../../../../net/outbound-policy';
import type { Connector, ConnectorConfig, ConnectorContext, DiscoveredDataset, ReadItem, ReadRequest } from '../types';
import { ConnectorError } from '../types';
import { describeFile } from './describe-file';
import { groupFiles, newFiles, nextFileState, readFileState, type RemoteFile } from './file-sets';
import { openSession, toConnectorError, type SftpSession } from './session';
import { parseSftpConfig, type SftpConfig } from './spec';

export { sftpSpecification } from './spec';

interface SftpContext extends ConnectorContext {
  network: OutboundPolicy;
}

async function withSession<T>(config: SftpConfig, ctx: SftpContext, work: (s: SftpSession) => Promise<T>): Promise<T> {
  const session = await openSession(config, ctx.signal, ctx.network);
  try {
    return await work(session);
  } catch (error) {
    throw toConnectorError(error, config);
  } finally {
    session.close();
  }
}

function remotePath(config: SftpConfig, file: RemoteFile): string {
  return path.posix.join(config.folder, file.name);
}

/** A local name that cannot collide or escape the temp folder. */
function localPath(ctx: ConnectorContext, index: number, file: RemoteFile): string {
  return path.join(ctx.tempDir, `sftp-${index}-${file.name.replace(/[^A-Za-z0-9._-]/g, '_')}`);
}

async function check(raw: ConnectorConfig, ctx: SftpContext): Promise<{ ok: true } | { ok: false; message: string }> {
  try {
    const config = parseSftpConfig(raw);
    const files = await withSession(config, ctx, (s) => s.list(config.folder));
    if (groupFiles(files, config.filePattern).size === 0) {
      ctx.log('WARN', `No file in ${config.folder} matches ${config.filePattern} yet`);
    }
    return { ok: true };
  } catch (error) {
    if (error instanceof ConnectorError) return { ok: false, message: error.message };
    throw error;
  }
}

async function discover(raw: ConnectorConfig, ctx: SftpContext): Promise<DiscoveredDataset[]> {
  const config = parseSftpConfig(raw);
  return withSession(config, ctx, async (session) => {
    const groups = groupFiles(await session.list(config.folder), config.filePattern);
    const datasets: DiscoveredDataset[] = [];
    let index = 0;
    for (const [name, files] of groups) {
      const newest = files.at(-1) as RemoteFile; // groups are never empty
      const local = localPath(ctx, index++, newest);
      await session.download(remotePath(config, newest), local);
      const columns = await describeFile(local, config.format).catch((error: unknown) => {
        const why = error instanceof Error ? error.message.split('\n')[0] : String(error);
        throw new ConnectorError(`${newest.name} is not readable as ${config.format}: ${why}`, 'ConfigError');
      });
      datasets.push({
        name,
        properties: columns.map((c) => ({
          name: c.name,
          type: c.type,
          format: c.format,
          onMisfit: c.onMisfit,
          isPrimaryKey: false,
          isCursor: false,
        })),
        supportedSyncTypes: ['FullRefresh', 'Incremental'],
        supportedIngestionTypes: ['Overwrite', 'Append'],
        primaryKey: [],
        cursorField: null,
      });
    }
    return datasets;
  });
}

async function* read(raw: ConnectorConfig, request: ReadRequest, ctx: SftpContext): AsyncGenerator<ReadItem> {
  const config = parseSftpConfig(raw);
  const session = await openSession(config, ctx.signal, ctx.network);
  try {
    const files = groupFiles(await session.list(config.folder), config.filePattern).get(request.dataset);
    if (!files) {
      throw new ConnectorError(
        `No file in ${config.folder} belongs to the dataset '${request.dataset}'`,
        'ConfigError',
      );
    }
    const incremental = request.syncType === 'Incremental';
    const previous = incremental ? readFileState(request.state) : null;
    const toRead = newFiles(files, previous);
    ctx.log('INFO', `${toRead.length} of ${files.length} files of '${request.dataset}' to read`);
    for (const [index, file] of toRead.entries()) {
      ctx.signal.throwIfAborted();
      const local = localPath(ctx, index, file);
      await session.download(remotePath(config, file), local);
      ctx.log('INFO', `Downloaded ${file.name} (${file.size} bytes)`);
      yield { kind: 'file', path: local, format: config.format };
    }
    const state = incremental ? nextFileState(toRead, previous) : null;
    if (state) yield { kind: 'state', state };
  } catch (error) {
    throw toConnectorError(error, config);
  } finally {
    session.close();
  }
}

/** The connector, its connections under the server's outbound policy. */
export function createSftpConnector(network: OutboundPolicy): Connector {
  return {
    key: 'sftp',
    check: (raw, ctx) => check(raw, { ...ctx, network }),
    discover: (raw, ctx) => discover(raw, { ...ctx, network }),
    read: (raw, request, ctx) => read(raw, request, { ...ctx, network }),
  };
}
