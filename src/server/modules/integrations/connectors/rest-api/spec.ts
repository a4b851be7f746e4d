/**
 * The REST API definition's specification (JSON Schema, Airbyte-style `settings`) and the typed
 * configuration the connector works with. Defaults live here, next to the schema that names them.
 */
import {
  isRecord,
  nameList,
  optionalNumber,
  optionalObject,
  optionalString,
  requiredString,
  configError,
} from './config-values';
import type { ConnectorConfig } from '../types';

export type RestAuth =
  | { type: 'none' }
  | { type: 'api_key'; in: 'header' | 'query'; name: string; value: string }
  | { type: 'bearer'; token: string }
  | { type: 'basic'; username: string; password: string };

export type RestPagination =
  | { type: 'none' }
  | { type: 'page_number'; pageParam: string; sizeParam: string; pageSize: number; startPage: number }
  | { type: 'offset'; offsetParam: string; limitParam: string; limit: number }
  | { type: 'cursor'; cursorPath: string; cursorParam: string }
  | { type: 'link_header' };

export interface RestStream {
  name: string;
  path: string;
  recordSelector: string;
  primaryKey: string[];
  cursorField: string | null;
  /** Query parameter carrying the saved cursor on incremental syncs. */
  cursorParam: string;
  pagination: RestPagination;
}

export interface RestApiConfig {
  baseUrl: string;
  auth: RestAuth;
  streams: RestStream[];
  maxTries: number;
  backoffBaseMs: number;
  timeoutMs: number;
}

const paginationSchema = {
  type: 'object',
  title: 'Pagination',
  oneOf: [
    { title: 'None', required: ['type'], properties: { type: { type: 'string', const: 'none' } } },
    {
      title: 'Page number',
      required: ['type'],
      properties: {
        type: { type: 'string', const: 'page_number' },
        page_param: { type: 'string', title: 'Page parameter', default: 'page' },
        size_param: { type: 'string', title: 'Page size parameter', default: 'page_size' },
        page_size: { type: 'integer', title: 'Page size', default: 100, minimum: 1 },
        start_page: { type: 'integer', title: 'First page number', default: 1 },
      },
    },
    {
      title: 'Offset and limit',
      required: ['type'],
      properties: {
        type: { type: 'string', const: 'offset' },
        offset_param: { type: 'string', title: 'Offset parameter', default: 'offset' },
        limit_param: { type: 'string', title: 'Limit parameter', default: 'limit' },
        limit: { type: 'integer', title: 'Limit', default: 100, minimum: 1 },
      },
    },
    {
      title: 'Cursor from the response body',
      required: ['type', 'cursor_path'],
      properties: {
        type: { type: 'string', const: 'cursor' },
        cursor_path: { type: 'string', title: 'Next cursor field', description: 'e.g. meta.next_cursor' },
        cursor_param: { type: 'string', title: 'Cursor parameter', default: 'cursor' },
      },
    },
    {
      title: 'Link header (rel="next")',
      required: ['type'],
      properties: { type: { type: 'string', const: 'link_header' } },
    },
  ],
  discriminator: { propertyName: 'type' },
};

export const restApiSpecification = {
  documentationUrl: '',
  settings: {
    $schema: 'http://json-schema.org/draft-07/schema#',
    title: 'REST API',
    type: 'object',
    required: ['base_url', 'streams'],
    properties: {
      base_url: { type: 'string', title: 'Base URL', pattern: '^https?://', order: 0 },
      authentication: {
        type: 'object',
        title: 'Authentication',
        order: 1,
        oneOf: [
          { title: 'None', required: ['type'], properties: { type: { type: 'string', const: 'none' } } },
          {
            title: 'API key',
            required: ['type', 'name', 'value'],
            properties: {
              type: { type: 'string', const: 'api_key' },
              in: { type: 'string', title: 'Sent in', enum: ['header', 'query'], default: 'header' },
              name: { type: 'string', title: 'Header or parameter name', default: 'X-API-Key' },
              value: { type: 'string', title: 'API key', airbyte_secret: true },
            },
          },
          {
            title: 'Bearer token',
            required: ['type', 'token'],
            properties: {
              type: { type: 'string', const: 'bearer' },
              token: { type: 'string', title: 'Token', airbyte_secret: true },
            },
          },
          {
            title: 'Basic',
            required: ['type', 'username', 'password'],
            properties: {
              type: { type: 'string', const: 'basic' },
              username: { type: 'string', title: 'User name' },
              password: { type: 'string', title: 'Password', airbyte_secret: true },
            },
          },
        ],
        discriminator: { propertyName: 'type' },
      },
      streams: {
        type: 'array',
        title: 'Streams',
        order: 2,
        minItems: 1,
        items: {
          type: 'object',
          required: ['name', 'path'],
          properties: {
            name: { type: 'string', title: 'Dataset name' },
            path: { type: 'string', title: 'Path', description: 'Appended to the base URL, e.g. /v1/orders' },
            record_selector: { type: 'string', title: 'Record selector', description: 'e.g. data.items or $.data[*]' },
            primary_key: { type: 'string', title: 'Primary key', description: 'Comma-separated field names' },
            cursor_field: { type: 'string', title: 'Cursor field', description: 'For incremental syncs' },
            cursor_param: { type: 'string', title: 'Cursor parameter', default: 'since' },
            pagination: paginationSchema,
          },
        },
      },
      max_tries: { type: 'integer', title: 'Tries per request', default: 5, minimum: 1, order: 3 },
      backoff_base_ms: { type: 'integer', title: 'First retry delay (ms)', default: 1000, minimum: 0, order: 4 },
      timeout_seconds: { type: 'integer', title: 'Request timeout (s)', default: 60, minimum: 1, order: 5 },
    },
  },
};

function parseAuth(config: ConnectorConfig): RestAuth {
  const auth = optionalObject(config, 'authentication');
  const type = optionalString(auth, 'type') ?? 'none';
  switch (type) {
    case 'none':
      return { type };
    case 'api_key': {
      const where = optionalString(auth, 'in') ?? 'header';
      if (where !== 'header' && where !== 'query') throw configError(`API key must be sent in a header or the query`);
      return { type, in: where, name: requiredString(auth, 'name'), value: requiredString(auth, 'value') };
    }
    case 'bearer':
      return { type, token: requiredString(auth, 'token') };
    case 'basic':
      return { type, username: requiredString(auth, 'username'), password: optionalString(auth, 'password') ?? '' };
    default:
      throw configError(`Unknown authentication type '${type}'`);
  }
}

function parsePagination(stream: Record<string, unknown>): RestPagination {
  const p = optionalObject(stream, 'pagination');
  const type = optionalString(p, 'type') ?? 'none';
  const positive = (key: string, fallback: number) => {
    const n = optionalNumber(p, key, fallback);
    if (!Number.isInteger(n) || n < 1) throw configError(`Pagination '${key}' must be a whole number above 0`);
    return n;
  };
  switch (type) {
    case 'none':
    case 'link_header':
      return { type };
    case 'page_number':
      return {
        type,
        pageParam: optionalString(p, 'page_param') ?? 'page',
        sizeParam: optionalString(p, 'size_param') ?? 'page_size',
        pageSize: positive('page_size', 100),
        startPage: optionalNumber(p, 'start_page', 1),
      };
    case 'offset':
      return {
        type,
        offsetParam: optionalString(p, 'offset_param') ?? 'offset',
        limitParam: optionalString(p, 'limit_param') ?? 'limit',
        limit: positive('limit', 100),
      };
    case 'cursor':
      return {
        type,
        cursorPath: requiredString(p, 'cursor_path'),
        cursorParam: optionalString(p, 'cursor_param') ?? 'cursor',
      };
    default:
      throw configError(`Unknown pagination type '${type}'`);
  }
}

function parseStream(value: unknown, index: number): RestStream {
  if (!isRecord(value)) throw configError(`Stream ${index + 1} must be an object`);
  const cursorField = optionalString(value, 'cursor_field') ?? null;
  return {
    name: requiredString(value, 'name'),
    path: requiredString(value, 'path'),
    recordSelector: optionalString(value, 'record_selector') ?? '',
    primaryKey: nameList(value.primary_key, 'primary_key'),
    cursorField,
    cursorParam: optionalString(value, 'cursor_param') ?? 'since',
    pagination: parsePagination(value),
  };
}

export function parseRestApiConfig(config: ConnectorConfig): RestApiConfig {
  const baseUrl = requiredString(config, 'base_url');
  try {
    const url = new URL(baseUrl);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error('not http');
  } catch {
    throw configError(`Base URL '${baseUrl}' is not an http(s) URL`);
  }
  const rawStreams = config.streams;
  if (!Array.isArray(rawStreams) || rawStreams.length === 0) throw configError('Add at least one stream');
  const streams = rawStreams.map(parseStream);
  const names = new Set<string>();
  for (const s of streams) {
    if (names.has(s.name)) throw configError(`Two streams are named '${s.name}'`);
    names.add(s.name);
  }
  return {
    baseUrl,
    auth: parseAuth(config),
    streams,
    maxTries: Math.max(1, Math.floor(optionalNumber(config, 'max_tries', 5))),
    backoffBaseMs: Math.max(0, optionalNumber(config, 'backoff_base_ms', 1000)),
    timeoutMs: Math.max(1, optionalNumber(config, 'timeout_seconds', 60)) * 1000,
  };
}
