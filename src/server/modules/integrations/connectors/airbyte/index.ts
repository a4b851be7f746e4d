/**
 * Connectors for the operator's Airbyte-protocol sources (AIRBYTE_SOURCES): one connector per
 * registered source, key `airbyte:<key>`. The program and its arguments are the operator's; an
 * account's configuration is only the source's own JSON configuration, checked against the source's
 * `spec` before anything runs, and handed over as the `--config` file.
 *
 * A read covers one dataset: the configured catalog holds only that stream. STATE messages are kept
 * whole (per-stream, global or legacy) and handed back as `--state` on the next incremental sync.
 */
import { isRecord } from '../rest-api/config-values';
import { pickProperties } from '../rest-api/infer-types';
import type { Connector, ConnectorConfig, ConnectorContext, DiscoveredDataset, ReadItem, ReadRequest } from '../types';
import { ConnectorError } from '../types';
import { unknownFields } from '../unknown-fields';
import { declaredProperties, isSchemaless, RAW_DATA_COLUMN, streamsOf, toDataset, type AirbyteStream } from './catalog';
import {
  runAirbyte,
  SourceFailure,
  type AirbyteCommand,
  type AirbyteMessage,
  type CallContext,
  type CallFiles,
  type SourceRuntime,
} from './process';
import { configChecker, specificationOf, type SourceSpecification } from './spec';

export type { SourceRuntime } from './process';
export type { SourceSpecification } from './spec';

/** Records per yielded batch. */
const BATCH = 1000;

export const airbyteConnectorKey = (sourceKey: string) => `airbyte:${sourceKey}`;

/** The first message of a type (the others are not kept: memory stays bounded). */
async function firstOf(
  runtime: SourceRuntime,
  command: AirbyteCommand,
  type: string,
  files: CallFiles,
  ctx: CallContext,
): Promise<AirbyteMessage | undefined> {
  let found: AirbyteMessage | undefined;
  for await (const message of runAirbyte(runtime, command, files, ctx)) {
    if (message.type === type) found ??= message;
  }
  return found;
}

/** The source's `spec`, run with its time limit; throws with the reason when it has none. */
export async function fetchSourceSpecification(
  runtime: SourceRuntime,
  signal: AbortSignal,
): Promise<SourceSpecification> {
  const message = await firstOf(runtime, 'spec', 'SPEC', {}, { log: () => undefined, signal });
  if (!message) throw new Error('the source answered spec without a SPEC message');
  return specificationOf(message.spec);
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

/** What an account is told when a check fails: the source's own status message, never its output. */
const CHECK_FAILED = "The source's connection check failed";

export function createAirbyteSourceConnector(runtime: SourceRuntime, specification: SourceSpecification): Connector {
  const checkConfig = configChecker(specification.settings);

  /** The configuration, refused (ConfigError) before anything runs when it does not fit the spec. */
  function sourceConfig(config: ConnectorConfig): Record<string, unknown> {
    const problem = checkConfig(config);
    if (problem) throw new ConnectorError(problem, 'ConfigError');
    return config;
  }

  async function catalogStreams(config: Record<string, unknown>, ctx: ConnectorContext): Promise<AirbyteStream[]> {
    const catalog = await firstOf(runtime, 'discover', 'CATALOG', { config }, ctx);
    if (!catalog) throw new ConnectorError('The source answered discover without a CATALOG message.', 'SystemError');
    return streamsOf(catalog.catalog);
  }

  async function check(
    raw: ConnectorConfig,
    ctx: ConnectorContext,
  ): Promise<{ ok: true } | { ok: false; message: string }> {
    const problem = checkConfig(raw);
    if (problem) return { ok: false, message: problem };
    let status: unknown;
    try {
      status = (await firstOf(runtime, 'check', 'CONNECTION_STATUS', { config: raw }, ctx))?.connectionStatus;
    } catch (error) {
      if (!(error instanceof SourceFailure)) throw error;
      // A time limit or an output bound is worth naming; what the program printed is not.
      const why =
        error.reason === 'timeout' || error.reason === 'output'
          ? error.message
          : error.reason === 'stopped'
            ? 'the check was stopped before the source answered.'
            : 'the source stopped without answering; the server log has the details.';
      return { ok: false, message: `${CHECK_FAILED}: ${why}` };
    }
    if (!isRecord(status)) return { ok: false, message: `${CHECK_FAILED}: the source gave no connection status.` };
    if (status.status === 'SUCCEEDED') return { ok: true };
    const said =
      typeof status.message === 'string' && status.message.trim() ? status.message.trim().slice(0, 1000) : null;
    return { ok: false, message: `${CHECK_FAILED}: ${said ?? 'the source refused the configuration.'}` };
  }

  async function discover(raw: ConnectorConfig, ctx: ConnectorContext): Promise<DiscoveredDataset[]> {
    return (await catalogStreams(sourceConfig(raw), ctx)).map(toDataset);
  }

  async function* read(raw: ConnectorConfig, request: ReadRequest, ctx: ConnectorContext): AsyncGenerator<ReadItem> {
    const config = sourceConfig(raw);
    const stream = (await catalogStreams(config, ctx)).find((s) => s.name === request.dataset);
    if (!stream) throw new ConnectorError(`The source has no stream named '${request.dataset}'`, 'ConfigError');
    const dataset = toDataset(stream);
    const incremental = request.syncType === 'Incremental' && dataset.supportedSyncTypes.includes('Incremental');
    const cursorField = request.cursorField ?? dataset.cursorField;
    const files: CallFiles = {
      config,
      catalog: {
        streams: [
          {
            stream,
            sync_mode: incremental ? 'incremental' : 'full_refresh',
            destination_sync_mode: 'append',
            cursor_field: incremental && cursorField ? [cursorField] : [],
            primary_key: dataset.primaryKey.map((k) => [k]),
          },
        ],
      },
    };
    const stateContent = incremental ? stateFileContent(request.state) : null;
    if (stateContent !== null) files.state = stateContent;

    let batch: Record<string, unknown>[] = [];
    let total = 0;
    const schemaless = isSchemaless(stream);
    // Fields the schema does not declare: not stored, and said so.
    const undeclared = unknownFields(new Set(Object.keys(declaredProperties(stream))));
    const recordOf = (data: Record<string, unknown>): Record<string, unknown> => {
      if (schemaless) return { [RAW_DATA_COLUMN]: data };
      undeclared.count(data);
      return pickProperties(data, request.properties);
    };
    const flush = (): ReadItem => {
      const records = batch;
      total += records.length;
      batch = [];
      return { kind: 'records', records };
    };
    try {
      for await (const message of runAirbyte(runtime, 'read', files, ctx)) {
        if (message.type === 'RECORD' && isRecord(message.record) && message.record.stream === request.dataset) {
          batch.push(recordOf(isRecord(message.record.data) ? message.record.data : {}));
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
    const fields = undeclared.said();
    if (fields) ctx.log('WARN', `Fields the stream's schema does not declare are not stored: ${fields}.`);
  }

  return { key: airbyteConnectorKey(runtime.setting.key), check, discover, read };
}
