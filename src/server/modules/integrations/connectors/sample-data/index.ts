/**
 * The 'Sample data' source: a built-in shop (shop.ts) so a newcomer sees data within a minute.
 * Every dataset has a primary key and an `updated_at` cursor, so incremental syncs and
 * de-duplication can be tried on it too.
 */
import type { ColumnType } from '../../../../../shared/tables';
import type { Connector, DiscoveredDataset, ReadItem, ReadRequest } from '../types';
import { ConnectorError } from '../types';
import { customers, order, orderNumbers, products } from './shop';

export const SAMPLE_DATA_KEY = 'sample-data';
const BATCH = 500;

export const sampleDataSpecification = {
  documentationUrl: null,
  settings: {
    type: 'object',
    title: 'Sample data',
    description: 'A small shop: customers, products and a year of orders. Nothing to configure.',
    properties: {},
    required: [],
  },
};

type Shape = [name: string, type: ColumnType, format?: string][];

const SHAPES: Record<string, { key: string; shape: Shape }> = {
  customers: {
    key: 'customer_id',
    shape: [
      ['customer_id', 'Number', 'int64'],
      ['first_name', 'Text'],
      ['last_name', 'Text'],
      ['email', 'Text'],
      ['city', 'Text'],
      ['country', 'Text'],
      ['signed_up_on', 'Date', 'date'],
      ['is_subscribed', 'Boolean'],
      ['updated_at', 'DateTime', 'date-time'],
    ],
  },
  products: {
    key: 'product_id',
    shape: [
      ['product_id', 'Number', 'int64'],
      ['name', 'Text'],
      ['category', 'Text'],
      ['unit_price', 'Number'],
      ['in_stock', 'Boolean'],
      ['created_at', 'DateTime', 'date-time'],
      ['updated_at', 'DateTime', 'date-time'],
    ],
  },
  orders: {
    key: 'order_id',
    shape: [
      ['order_id', 'Number', 'int64'],
      ['customer_id', 'Number', 'int64'],
      ['product_id', 'Number', 'int64'],
      ['quantity', 'Number', 'int64'],
      ['unit_price', 'Number'],
      ['amount', 'Number'],
      ['status', 'Text'],
      ['channel', 'Text'],
      ['ordered_at', 'DateTime', 'date-time'],
      ['updated_at', 'DateTime', 'date-time'],
    ],
  },
};

function discovered(name: string): DiscoveredDataset {
  const { key, shape } = SHAPES[name] as (typeof SHAPES)[string];
  return {
    name,
    properties: shape.map(([property, type, format]) => ({
      name: property,
      type,
      isPrimaryKey: property === key,
      isCursor: property === 'updated_at',
      ...(format ? { format } : {}),
    })),
    supportedSyncTypes: ['FullRefresh', 'Incremental'],
    supportedIngestionTypes: ['Overwrite', 'Append', 'AppendDedup'],
    primaryKey: [key],
    cursorField: 'updated_at',
  };
}

/** Rows of a dataset newer than the state's cursor, in cursor order. */
function* rowsOf(name: string, now: Date): Generator<Record<string, unknown>> {
  if (name === 'customers') for (const row of customers()) yield { ...row };
  else if (name === 'products') for (const row of products()) yield { ...row };
  else if (name === 'orders') {
    const catalogue = products();
    const { first, last } = orderNumbers(now);
    for (let n = first; n <= last; n++) yield { ...order(n, catalogue) };
  } else throw new ConnectorError(`The sample data has no dataset named ${name}.`, 'ConfigError');
}

/** Sample data as of `clock()`: orders keep arriving as the clock moves. */
export function createSampleDataConnector(clock: () => Date): Connector {
  return {
    key: SAMPLE_DATA_KEY,
    check: () => Promise.resolve({ ok: true }),
    discover: () => Promise.resolve(Object.keys(SHAPES).map(discovered)),
    async *read(_config, request: ReadRequest): AsyncIterable<ReadItem> {
      const since =
        request.syncType === 'Incremental' && typeof request.state === 'object' && request.state !== null
          ? String((request.state as { cursor?: unknown }).cursor ?? '')
          : '';
      const wanted = new Set(request.properties);
      let batch: Record<string, unknown>[] = [];
      let cursor = since;
      const rows = [...rowsOf(request.dataset, clock())].sort((a, b) =>
        String(a.updated_at).localeCompare(String(b.updated_at)),
      );
      for (const row of rows) {
        const updated = String(row.updated_at);
        if (since && updated <= since) continue;
        if (updated > cursor) cursor = updated;
        batch.push(Object.fromEntries(Object.entries(row).filter(([k]) => wanted.size === 0 || wanted.has(k))));
        if (batch.length === BATCH) {
          yield { kind: 'records', records: batch };
          batch = [];
        }
      }
      if (batch.length > 0) yield { kind: 'records', records: batch };
      yield { kind: 'log', level: 'INFO', message: `Read ${request.dataset} up to ${cursor || 'the start'}.` };
      yield { kind: 'state', state: { cursor } };
    },
  };
}
