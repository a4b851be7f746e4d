import type {
  Connector,
  DiscoveredDataset,
  ReadItem,
  ReadRequest,
} from '../../../src/server/modules/integrations/connectors/types';
import type { TestApp } from '../helpers';
import { signIn } from '../helpers';
import { api, ok, type IntegrationDefinition } from './helpers';

/** A specification with a secret field, like a database connector's. */
export const SECRET_SPEC = {
  settings: {
    type: 'object',
    required: ['host', 'password'],
    properties: {
      host: { type: 'string', title: 'Host' },
      password: { type: 'string', title: 'Password', airbyte_secret: true },
      auth: {
        type: 'object',
        oneOf: [
          { properties: { kind: { const: 'token' }, token: { type: 'string', airbyte_secret: true } } },
          { properties: { kind: { const: 'none' } } },
        ],
      },
    },
  },
};

export const ITEMS: DiscoveredDataset = {
  name: 'Items',
  properties: [
    { name: 'id', type: 'Number', isPrimaryKey: true, isCursor: false },
    { name: 'label', type: 'Text', isPrimaryKey: false, isCursor: false },
    { name: 'seen_at', type: 'DateTime', isPrimaryKey: false, isCursor: true },
  ],
  supportedSyncTypes: ['FullRefresh', 'Incremental'],
  supportedIngestionTypes: ['Overwrite', 'Append', 'AppendDedup'],
  primaryKey: ['id'],
  cursorField: 'seen_at',
};

export interface TestSource {
  connector: Connector;
  /** The configurations check() was given, secrets in the clear. */
  checked: Record<string, unknown>[];
  requests: ReadRequest[];
}

/**
 * A connector the test controls, registered under `key` (replacing the built-in one in this app):
 * check fails when host is 'bad'; read yields what `read` gives.
 */
export function registerTestSource(
  t: TestApp,
  key: string,
  read: (request: ReadRequest) => AsyncIterable<ReadItem>,
  datasets: DiscoveredDataset[] = [ITEMS],
): TestSource {
  const source: TestSource = {
    checked: [],
    requests: [],
    connector: {
      key,
      check(config) {
        source.checked.push(config);
        return Promise.resolve(
          config.host === 'bad'
            ? { ok: false, message: 'Could not reach host bad: connection refused.' }
            : { ok: true },
        );
      },
      discover(config) {
        if (config.host === 'undiscoverable') return Promise.reject(new Error('The catalog could not be read.'));
        return Promise.resolve(datasets);
      },
      read(config, request) {
        source.requests.push(request);
        return read(request);
      },
    },
  };
  t.services.integrations.registry.register(source.connector);
  return source;
}

/** A public custom definition (type Airbyte, served by the 'airbyte' connector) made by the global admin. */
export async function customDefinition(t: TestApp, spec: unknown = SECRET_SPEC): Promise<IntegrationDefinition> {
  const admin = await signIn(t, 'root@example.com');
  const res = await api<IntegrationDefinition>(t, admin, 'POST', '/api/integration_definitions', {
    name: 'Test source',
    type: 'Airbyte',
    isPublic: true,
    specification: JSON.stringify(spec),
  });
  return ok(res, 201);
}

export async function* items(...batches: Record<string, unknown>[][]): AsyncIterable<ReadItem> {
  for (const records of batches) yield { kind: 'records', records };
}
