/**
 * Connectors by key, one registry per app. A definition names its connector by key; a definition
 * whose connector is not registered can be listed but not created. Tests register connectors of
 * their own (and remove them) through `register`.
 */
import { INTEGRATION_MESSAGES } from '../../../../shared/integrations';
import type { OutboundPolicy } from '../../../net/outbound-policy';
import { ConnectorError, type Connector, type ReadItem } from './types';
import { emailSpecification } from './email';
import { createPostgresConnector, postgresSpecification } from './postgres';
import { createRestApiConnector, restApiSpecification } from './rest-api';
import { createSampleDataConnector, sampleDataSpecification } from './sample-data';
import { createSftpConnector, sftpSpecification } from './sftp';

export interface RegisteredConnector {
  connector: Connector;
  /** The built-in definition's specification (settings JSON Schema), when the connector brings one. */
  specification: Record<string, unknown> | null;
}

export interface ConnectorRegistry {
  /** Adds or replaces a connector; returns a function that removes it again. */
  register(connector: Connector, specification?: Record<string, unknown> | null): () => void;
  get(key: string): RegisteredConnector | undefined;
  keys(): string[];
}

export function createConnectorRegistry(): ConnectorRegistry {
  const entries = new Map<string, RegisteredConnector>();
  return {
    register(connector, specification = null) {
      const entry = { connector, specification };
      entries.set(connector.key, entry);
      return () => {
        if (entries.get(connector.key) === entry) entries.delete(connector.key);
      };
    },
    get: (key) => entries.get(key),
    keys: () => [...entries.keys()],
  };
}

/**
 * Sources that push their data (webhook, incoming e-mail): nothing to check, discover or read; their
 * datasets appear as data arrives.
 */
export function pushConnector(key: string): Connector {
  return {
    key,
    check: () => Promise.resolve({ ok: true }),
    discover: () => Promise.resolve([]),
    // eslint-disable-next-line require-yield -- a push source has nothing to read on a sync
    read: async function* (): AsyncIterable<ReadItem> {
      return;
    },
  };
}

/**
 * A connector that refuses every call with `message` and runs nothing: it serves definitions that
 * are gone but still have integrations (their definitions are no longer listed).
 */
export function retiredConnector(key: string, message: string): Connector {
  return {
    key,
    check: () => Promise.resolve({ ok: false, message }),
    discover: () => Promise.reject(new ConnectorError(message, 'ConfigError')),
    // eslint-disable-next-line require-yield -- refuses before reading anything
    read: async function* (): AsyncIterable<ReadItem> {
      throw new ConnectorError(message, 'ConfigError');
    },
  };
}

/**
 * The old built-in 'Airbyte protocol' definition took the program to run from the account's
 * configuration; migration 0006 unlists it and points it here.
 */
export const RETIRED_COMMAND_KEY = 'airbyte-command-retired';

export const WEBHOOK_KEY = 'webhook';
export const EMAIL_KEY = 'email';

const emptySettings = (title: string, description: string) => ({
  settings: { type: 'object', title, description, properties: {}, required: [] },
});

/** The connectors this server ships; those that reach the network do so under `network`. */
export function builtInConnectors(clock: () => Date, network: OutboundPolicy): ConnectorRegistry {
  const registry = createConnectorRegistry();
  registry.register(createSampleDataConnector(clock), sampleDataSpecification);
  registry.register(createRestApiConnector(network), restApiSpecification);
  registry.register(createPostgresConnector(network), postgresSpecification);
  registry.register(createSftpConnector(network), sftpSpecification);
  registry.register(retiredConnector(RETIRED_COMMAND_KEY, INTEGRATION_MESSAGES.retiredCommandSource));
  registry.register(
    pushConnector(WEBHOOK_KEY),
    emptySettings('Webhook', 'Send records as JSON (an object or an array of objects) to the address shown.'),
  );
  registry.register(pushConnector(EMAIL_KEY), emailSpecification);
  return registry;
}
