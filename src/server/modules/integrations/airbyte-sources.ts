/**
 * The operator's Airbyte-protocol sources (AIRBYTE_SOURCES), set up at start. Each source's `spec`
 * runs once, with its time limit; a source that answers becomes the connector `airbyte:<key>` and a
 * public definition of type Airbyte whose specification is the source's own connectionSpecification.
 * One that does not answer stays listed with canComplete false, and the reason goes to the server
 * log. Sources taken out of the file are no longer listed (their integrations fail with a clear
 * message). These are the only programs any integration runs.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Deps } from '../../context';
import {
  airbyteConnectorKey,
  createAirbyteSourceConnector,
  fetchSourceSpecification,
  type SourceRuntime,
} from './connectors/airbyte';
import type { AirbyteSourceSetting } from './connectors/airbyte/sources-file';
import type { ConnectorRegistry } from './connectors/registry';
import { unlistDefinitions, upsertPublicDefinition } from './definitions';

const KEY_PREFIX = 'airbyte:';

const serverLog = (message: string) => console.error(message);

/**
 * Where each call's working folder is made: the system's temp folder (world-traversable, so a source
 * running as another user reaches its folder), under a name tied to this data folder, so a start
 * sweeps only what this server left behind.
 */
export function workPrefixOf(dataDir: string): string {
  const id = createHash('sha256').update(path.resolve(dataDir)).digest('hex').slice(0, 12);
  return path.join(os.tmpdir(), `ws-airbyte-${id}-`);
}

/** Working folders a killed server left (they hold configurations with secrets). */
async function sweepWorkFolders(prefix: string): Promise<void> {
  const parent = path.dirname(prefix);
  const start = path.basename(prefix);
  const names = await fs.readdir(parent).catch(() => []);
  await Promise.all(
    names
      .filter((name) => name.startsWith(start))
      .map((name) => fs.rm(path.join(parent, name), { recursive: true, force: true }).catch(() => undefined)),
  );
}

/**
 * Sources run as another user when the server runs as root: the data folder (metadata, every
 * account's warehouse, key files) must not be open to that user.
 */
async function closeDataDir(dataDir: string): Promise<void> {
  const { mode } = await fs.stat(dataDir);
  if ((mode & 0o007) === 0) return;
  await fs.chmod(dataDir, mode & 0o770);
  serverLog(`Airbyte sources run as an unprivileged user: ${dataDir} is no longer open to other users.`);
}

/** The runtime of one source: its program, where it works, whom it runs as. */
export function sourceRuntime(setting: AirbyteSourceSetting, dataDir: string): SourceRuntime {
  return {
    setting,
    workPrefix: workPrefixOf(dataDir),
    runAs: process.getuid?.() === 0 ? setting.user : null,
    serverLog,
  };
}

async function registerOne(
  deps: Deps,
  registry: ConnectorRegistry,
  setting: AirbyteSourceSetting,
  signal: AbortSignal,
): Promise<void> {
  const runtime = sourceRuntime(setting, deps.config.dataDir);
  const key = airbyteConnectorKey(setting.key);
  let specification: string | null = null;
  try {
    const spec = await fetchSourceSpecification(runtime, signal);
    registry.register(createAirbyteSourceConnector(runtime, spec), { ...spec });
    specification = JSON.stringify(spec);
  } catch (error) {
    serverLog(
      `Airbyte source '${setting.key}' (${setting.command}) cannot be used until the server restarts with a ` +
        `working source: its spec failed: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
  await upsertPublicDefinition(
    deps.db,
    { key, connectorKey: key, name: setting.name, type: 'Airbyte', docs: setting.docs },
    specification,
    deps.clock(),
  );
}

export async function registerAirbyteSources(
  deps: Deps,
  registry: ConnectorRegistry,
  signal: AbortSignal,
): Promise<void> {
  const sources = deps.config.integrations.airbyteSources;
  await sweepWorkFolders(workPrefixOf(deps.config.dataDir));
  if (sources.length > 0 && process.getuid?.() === 0) await closeDataDir(deps.config.dataDir);
  await Promise.all(sources.map((setting) => registerOne(deps, registry, setting, signal)));
  await unlistDefinitions(
    deps.db,
    KEY_PREFIX,
    sources.map((s) => airbyteConnectorKey(s.key)),
  );
}
