/**
 * The Airbyte-protocol connector (definition type Airbyte): a local command is the source. Each
 * call writes the source's configuration (and catalog, state) to files in the attempt's temp
 * folder and runs `check`, `discover` or `read` with them. A read covers one dataset: the
 * configured catalog holds only that stream. STATE messages are kept whole (per-stream, global or
 * legacy) and handed back as `--state` on the next incremental sync.
 */
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { isRecord } from '../rest-api/config-values';
import { pickProperties } from '../rest-api/infer-types';
import type { Connector, ConnectorConfig, ConnectorContext, DiscoveredDataset, ReadItem, ReadRequest } from '../types';
import { ConnectorError } from '../types';
import { streamsOf, toDataset, type AirbyteStream } from './catalog';
import { runAirbyte, type AirbyteMessage } from './process';
import { parseAirbyteConfig, type AirbyteConfig } from './spec';

export { airbyteSpecification } from './spec';

/** Records per yielded batch. */
const BATCH = 1000;

async function writeJson(ctx: ConnectorContext, name: string, value: unknown): Promise<string> {
  const file = path.join(ctx.tempDir, `airbyte-${name}.json`);
  await writeFile(file, JSON.stringify(value), { mode: 0o600 }); // the config may hold secrets
  return file;
}

async function collectMessages(
  config: AirbyteConfig,
  args: string[],
  ctx: ConnectorContext,
): Promise<AirbyteMessage[]> {
  const messages: AirbyteMessage[] = [];
  for await (const message of runAirbyte(config, args, ctx)) messages.push(message);
  return messages;
}

/** The source's connectionSpecification (`spec`), for building a definition from a command. */
export async function airbyteSourceSpec(raw: ConnectorConfig, ctx: ConnectorContext): Promise<Record<string, unknown>> {
  const messages = await collectMessages(parseAirbyteConfig(raw), ['spec'], ctx);
  const spec = messages.find((m) => m.type === 'SPEC')?.spec;
  if (!isRecord(spec)) throw new ConnectorError('The source answered spec without a SPEC message', 'SystemError');
  return spec;
}

async function check(
  raw: ConnectorConfig,
  ctx: ConnectorContext,
): Promise<{ ok: true } | { ok: false; message: string }> {
  try {
    const config = parseAirbyteConfig(raw);
    const configFile = await writeJson(ctx, 'config', config.sourceConfig);
    const messages = await collectMessages(config, ['check', '--config', configFile], ctx);
    const status = messages.find((m) => m.type === 'CONNECTION_STATUS')?.connectionStatus;
    if (!isRecord(status)) return { ok: false, message: 'The source answered check without a connection status' };
    if (status.status === 'SUCCEEDED') return { ok: true };
    return { ok: false, message: String(status.message ?? 'The source refused the configuration') };
  } catch (error) {
    if (error instanceof ConnectorError) return { ok: false, message: error.message };
    throw error;
  }
}

async function catalogStreams(
  config: AirbyteConfig,
  configFile: string,
  ctx: ConnectorContext,
): Promise<AirbyteStream[]> {
  const messages = await collectMessages(config, ['discover', '--config', configFile], ctx);
  const catalog = messages.find((m) => m.type === 'CATALOG');
  if (!catalog) throw new ConnectorError('The source answered discover without a CATALOG message', 'SystemError');
  return streamsOf(catalog.catalog);
}

async function discover(raw: ConnectorConfig, ctx: ConnectorContext): Promise<DiscoveredDataset[]> {
  const config = parseAirbyteConfig(raw);
  const configFile = await writeJson(ctx, 'config', config.sourceConfig);
  return (await catalogStreams(config, configFile, ctx)).map(toDataset);
}

/** The saved state as the `--state` file expects it: a list of state messages, or a legacy blob. */
function stateFileContent(saved: unknown): unknown {
  if (!isRecord(saved)) return null;
  if (saved.type === 'STREAM' || saved.type === 'GLOBAL') return [saved];
  if ('data' in saved) return saved.data;
  return null;
}

/** The part of a STATE message worth keeping for this dataset, or null when it is another stream's. */
function stateFor(message: AirbyteMessage, dataset: string): unknown {
  const state = message.state;
  if (!isRecord(state)) return null;
  if (state.type === 'STREAM') {
    const stream = isRecord(state.stream) ? state.stream : {};
    const descriptor = isRecord(stream.stream_descriptor) ? stream.stream_descriptor : {};
    return descriptor.name === dataset ? state : null;
  }
  return state; // GLOBAL or LEGACY ({ data })
}

async function* read(raw: ConnectorConfig, request: ReadRequest, ctx: ConnectorContext): AsyncGenerator<ReadItem> {
  const config = parseAirbyteConfig(raw);
  const configFile = await writeJson(ctx, 'config', config.sourceConfig);
  const stream = (await catalogStreams(config, configFile, ctx)).find((s) => s.name === request.dataset);
  if (!stream) throw new ConnectorError(`The source has no stream named '${request.dataset}'`, 'ConfigError');
  const dataset = toDataset(stream);
  const incremental = request.syncType === 'Incremental' && dataset.supportedSyncTypes.includes('Incremental');
  const cursorField = request.cursorField ?? dataset.cursorField;
  const catalogFile = await writeJson(ctx, 'catalog', {
    streams: [
      {
        stream,
        sync_mode: incremental ? 'incremental' : 'full_refresh',
        destination_sync_mode: 'append',
        cursor_field: incremental && cursorField ? [cursorField] : [],
        primary_key: dataset.primaryKey.map((k) => [k]),
      },
    ],
  });
  const args = ['read', '--config', configFile, '--catalog', catalogFile];
  const stateContent = incremental ? stateFileContent(request.state) : null;
  if (stateContent !== null) args.push('--state', await writeJson(ctx, 'state', stateContent));

  let batch: Record<string, unknown>[] = [];
  let total = 0;
  const flush = (): ReadItem => {
    const records = batch;
    total += records.length;
    batch = [];
    return { kind: 'records', records };
  };
  try {
    for await (const message of runAirbyte(config, args, ctx)) {
      if (message.type === 'RECORD' && isRecord(message.record) && message.record.stream === request.dataset) {
        batch.push(pickProperties(isRecord(message.record.data) ? message.record.data : {}, request.properties));
        if (batch.length >= BATCH) yield flush();
      } else if (message.type === 'STATE' && incremental) {
        const state = stateFor(message, request.dataset);
        if (state === null) continue;
        if (batch.length > 0) yield flush(); // a state covers the records before it
        yield { kind: 'state', state };
      }
    }
  } catch (error) {
    // Records read before the failure still count in the attempt's progress; the runner discards them.
    if (batch.length > 0) yield flush();
    throw error;
  }
  if (batch.length > 0) yield flush();
  ctx.log('INFO', `Read ${total} records of '${request.dataset}'`);
}

export const airbyteConnector: Connector = { key: 'airbyte', check, discover, read };
