/**
 * The REST API connector (definition type Api): JSON endpoints as datasets, one per configured
 * stream. Incremental syncs send the largest cursor seen so far as a query parameter and also drop
 * records older than it, in case the API ignores the parameter (records equal to it are kept:
 * at-least-once, the AppendDedup ingestion removes repeats).
 */
import type { OutboundPolicy } from '../../../../net/outbound-policy';
import type { Connector, ConnectorConfig, DiscoveredDataset, ReadItem, ReadRequest } from '../types';
import { ConnectorError } from '../types';
import { unknownFields } from '../unknown-fields';
import { configError } from './config-values';
import { compareCursors, CursorTracker, readCursorState } from './cursor';
import { inferProperties, pickProperties } from './infer-types';
import type { RestContext } from './http';
import { readPages } from './pagination';
import { parseRestApiConfig, type RestApiConfig, type RestStream } from './spec';

export { restApiSpecification } from './spec';

/** How many records of the first page discovery looks at to infer types. */
const DISCOVERY_SAMPLE = 200;

async function firstPage(config: RestApiConfig, stream: RestStream, ctx: RestContext) {
  for await (const records of readPages(config, stream, { params: {}, maxPages: 1 }, ctx)) return records;
  return [];
}

async function check(raw: ConnectorConfig, ctx: RestContext): Promise<{ ok: true } | { ok: false; message: string }> {
  try {
    const config = { ...parseRestApiConfig(raw), maxTries: 2 }; // a quick answer beats a patient one here
    const stream = config.streams[0];
    if (stream) await firstPage(config, stream, ctx);
    return { ok: true };
  } catch (error) {
    if (error instanceof ConnectorError) return { ok: false, message: error.message };
    throw error;
  }
}

async function discover(raw: ConnectorConfig, ctx: RestContext): Promise<DiscoveredDataset[]> {
  const config = parseRestApiConfig(raw);
  const datasets: DiscoveredDataset[] = [];
  for (const stream of config.streams) {
    const sample = (await firstPage(config, stream, ctx)).slice(0, DISCOVERY_SAMPLE);
    if (sample.length === 0) ctx.log('WARN', `Stream '${stream.name}' returned no records: property types unknown`);
    datasets.push({
      name: stream.name,
      properties: inferProperties(sample, { primaryKey: stream.primaryKey, cursorField: stream.cursorField }),
      supportedSyncTypes: stream.cursorField ? ['FullRefresh', 'Incremental'] : ['FullRefresh'],
      supportedIngestionTypes:
        stream.primaryKey.length > 0 ? ['Overwrite', 'Append', 'AppendDedup'] : ['Overwrite', 'Append'],
      primaryKey: stream.primaryKey,
      cursorField: stream.cursorField,
    });
  }
  return datasets;
}

async function* read(raw: ConnectorConfig, request: ReadRequest, ctx: RestContext): AsyncGenerator<ReadItem> {
  const config = parseRestApiConfig(raw);
  const stream = config.streams.find((s) => s.name === request.dataset);
  if (!stream) throw configError(`No stream named '${request.dataset}' is configured`);
  const cursorField = request.cursorField ?? stream.cursorField;
  const incremental = request.syncType === 'Incremental' && cursorField !== null;
  if (request.syncType === 'Incremental' && cursorField === null) {
    ctx.log('WARN', `Stream '${stream.name}' has no cursor field: reading everything`);
  }
  const saved = incremental ? readCursorState(request.state) : null;
  const tracker = new CursorTracker(saved);
  const params: Record<string, string> = saved ? { [stream.cursorParam]: String(saved.cursor) } : {};
  if (saved) ctx.log('INFO', `Reading '${stream.name}' from ${stream.cursorParam}=${saved.cursor}`);

  let total = 0;
  let pages = 0;
  // Fields the discovery sample did not have: no column holds them, so the log names them.
  const unseen = request.discovered ? unknownFields(new Set(request.discovered)) : null;
  for await (const page of readPages(config, stream, { params }, ctx)) {
    pages++;
    let records = page;
    if (unseen) for (const record of records) unseen.count(record);
    if (incremental && cursorField) {
      if (saved)
        records = records.filter((r) => r[cursorField] == null || compareCursors(r[cursorField], saved.cursor) >= 0);
      for (const r of records) tracker.see(r[cursorField]);
    }
    if (records.length === 0) continue;
    total += records.length;
    yield { kind: 'records', records: records.map((r) => pickProperties(r, request.properties)) };
  }
  ctx.log('INFO', `Read ${total} records of '${stream.name}' in ${pages} ${pages === 1 ? 'page' : 'pages'}`);
  const fields = unseen?.said();
  if (fields) {
    ctx.log(
      'WARN',
      `Fields the discovery sample did not have are not stored: ${fields}. Refresh the datasets to add them.`,
    );
  }
  if (incremental && tracker.max !== null) yield { kind: 'state', state: { cursor: tracker.max } };
}

/** The connector, its requests under the server's outbound policy. */
export function createRestApiConnector(network: OutboundPolicy): Connector {
  return {
    key: 'rest-api',
    check: (raw, ctx) => check(raw, { ...ctx, network }),
    discover: (raw, ctx) => discover(raw, { ...ctx, network }),
    read: (raw, request, ctx) => read(raw, request, { ...ctx, network }),
  };
}
