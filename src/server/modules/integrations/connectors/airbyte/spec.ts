/** The Airbyte-protocol definition's specification (JSON Schema, Airbyte-style) and typed configuration. */
import { configError, isRecord, optionalString, requiredString } from '../rest-api/config-values';
import type { ConnectorConfig } from '../types';

export interface AirbyteConfig {
  command: string;
  args: string[];
  /** The source's own configuration, written to the file passed as `--config`. */
  sourceConfig: Record<string, unknown>;
  workingDirectory: string | undefined;
}

export const airbyteSpecification = {
  documentationUrl: '',
  settings: {
    $schema: 'http://json-schema.org/draft-07/schema#',
    title: 'Airbyte protocol source',
    type: 'object',
    required: ['command'],
    properties: {
      command: {
        type: 'string',
        title: 'Command',
        description: 'A program on the server speaking the Airbyte protocol, e.g. node or /opt/source/run',
        order: 0,
      },
      args: {
        type: 'string',
        title: 'Arguments',
        description: 'Space-separated, placed before spec/check/discover/read, e.g. /opt/sources/shop.js',
        order: 1,
      },
      source_config: {
        type: 'string',
        title: 'Source configuration (JSON)',
        description: "The source's own settings, passed as --config",
        multiline: true,
        airbyte_secret: true,
        default: '{}',
        order: 2,
      },
      working_directory: { type: 'string', title: 'Working folder', order: 3 },
    },
  },
};

/** Space-separated arguments; double or single quotes keep spaces inside one argument. */
export function splitArgs(text: string): string[] {
  const args: string[] = [];
  for (const match of text.matchAll(/"([^"]*)"|'([^']*)'|(\S+)/g)) args.push(match[1] ?? match[2] ?? match[3] ?? '');
  return args;
}

export function parseAirbyteConfig(config: ConnectorConfig): AirbyteConfig {
  const rawArgs = config.args;
  let args: string[];
  if (rawArgs === undefined || rawArgs === null || rawArgs === '') args = [];
  else if (typeof rawArgs === 'string') args = splitArgs(rawArgs);
  else if (Array.isArray(rawArgs) && rawArgs.every((a) => typeof a === 'string')) args = rawArgs as string[];
  else throw configError("Setting 'args' must be text");

  const rawSource = config.source_config;
  let sourceConfig: unknown = {};
  if (typeof rawSource === 'string' && rawSource.trim() !== '') {
    try {
      sourceConfig = JSON.parse(rawSource);
    } catch {
      throw configError('Source configuration is not valid JSON');
    }
  } else if (isRecord(rawSource)) sourceConfig = rawSource;
  if (!isRecord(sourceConfig)) throw configError('Source configuration must be a JSON object');

  return {
    command: requiredString(config, 'command'),
    args,
    sourceConfig,
    workingDirectory: optionalString(config, 'working_directory'),
  };
}
