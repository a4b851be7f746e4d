/** The PostgreSQL definition's specification (JSON Schema, Airbyte-style) and typed configuration. */
import { nameList, optionalNumber, optionalString, requiredString, configError } from '../rest-api/config-values';
import type { ConnectorConfig } from '../types';

export interface PostgresConfig {
  host: string;
  port: number;
  database: string;
  user: string;
  password: string;
  ssl: 'disable' | 'require';
  /** Only these schemas are discovered; empty means every non-system schema. */
  schemas: string[];
  rowsPerFile: number;
}

export const postgresSpecification = {
  documentationUrl: '',
  settings: {
    $schema: 'http://json-schema.org/draft-07/schema#',
    title: 'PostgreSQL',
    type: 'object',
    required: ['host', 'port', 'database', 'username'],
    properties: {
      host: { type: 'string', title: 'Host', order: 0 },
      port: { type: 'integer', title: 'Port', default: 5432, minimum: 1, maximum: 65535, order: 1 },
      database: { type: 'string', title: 'Database', order: 2 },
      username: { type: 'string', title: 'User', order: 3 },
      password: { type: 'string', title: 'Password', airbyte_secret: true, order: 4 },
      ssl_mode: {
        type: 'string',
        title: 'SSL',
        description: 'require encrypts the connection (the certificate is not verified)',
        enum: ['disable', 'require'],
        default: 'disable',
        order: 5,
      },
      schemas: {
        type: 'string',
        title: 'Schemas',
        description: 'Comma-separated; empty discovers every schema except the system ones',
        order: 6,
      },
      rows_per_file: {
        type: 'integer',
        title: 'Rows per file',
        description: 'Large tables are copied in files of this many rows',
        default: 500000,
        minimum: 1000,
        order: 7,
      },
    },
  },
};

export function parsePostgresConfig(config: ConnectorConfig): PostgresConfig {
  const port = optionalNumber(config, 'port', 5432);
  if (!Number.isInteger(port) || port < 1 || port > 65535) throw configError('Port must be between 1 and 65535');
  const ssl = optionalString(config, 'ssl_mode') ?? 'disable';
  if (ssl !== 'disable' && ssl !== 'require') throw configError(`SSL must be disable or require, not '${ssl}'`);
  const rowsPerFile = optionalNumber(config, 'rows_per_file', 500_000);
  if (!Number.isInteger(rowsPerFile) || rowsPerFile < 1) throw configError('Rows per file must be a whole number');
  return {
    host: requiredString(config, 'host'),
    port,
    database: requiredString(config, 'database'),
    user: requiredString(config, 'username'),
    password: optionalString(config, 'password') ?? '',
    ssl,
    schemas: nameList(config.schemas, 'schemas'),
    rowsPerFile,
  };
}
