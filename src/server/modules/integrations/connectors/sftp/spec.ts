/** The SFTP definition's specification (JSON Schema, Airbyte-style) and typed configuration. */
import { optionalNumber, optionalObject, optionalString, requiredString, configError } from '../rest-api/config-values';
import type { ConnectorConfig } from '../types';

export const SFTP_FORMATS = ['csv', 'jsonl', 'parquet'] as const;
export type SftpFormat = (typeof SFTP_FORMATS)[number];

export type SftpAuth =
  { type: 'password'; password: string } | { type: 'private_key'; privateKey: string; passphrase?: string };

export interface SftpConfig {
  host: string;
  port: number;
  user: string;
  auth: SftpAuth;
  folder: string;
  filePattern: string;
  format: SftpFormat;
}

export const sftpSpecification = {
  documentationUrl: '',
  settings: {
    $schema: 'http://json-schema.org/draft-07/schema#',
    title: 'SFTP',
    type: 'object',
    required: ['host', 'username', 'authentication', 'file_pattern', 'format'],
    properties: {
      host: { type: 'string', title: 'Host', order: 0 },
      port: { type: 'integer', title: 'Port', default: 22, minimum: 1, maximum: 65535, order: 1 },
      username: { type: 'string', title: 'User', order: 2 },
      authentication: {
        type: 'object',
        title: 'Authentication',
        order: 3,
        oneOf: [
          {
            title: 'Password',
            required: ['type', 'password'],
            properties: {
              type: { type: 'string', const: 'password' },
              password: { type: 'string', title: 'Password', airbyte_secret: true },
            },
          },
          {
            title: 'Private key',
            required: ['type', 'private_key'],
            properties: {
              type: { type: 'string', const: 'private_key' },
              private_key: {
                type: 'string',
                title: 'Private key (OpenSSH or PEM)',
                multiline: true,
                airbyte_secret: true,
              },
              passphrase: { type: 'string', title: 'Passphrase', airbyte_secret: true },
            },
          },
        ],
        discriminator: { propertyName: 'type' },
      },
      folder: { type: 'string', title: 'Folder', default: '/', order: 4 },
      file_pattern: {
        type: 'string',
        title: 'File pattern',
        description:
          'A glob of file names in the folder, e.g. *.csv or orders_*.csv. Files whose names differ only by a ' +
          'trailing date or number (orders_2024-01-31.csv, orders_2024-02-29.csv) form one dataset (orders).',
        default: '*',
        order: 5,
      },
      format: { type: 'string', title: 'Format', enum: [...SFTP_FORMATS], default: 'csv', order: 6 },
    },
  },
};

export function parseSftpConfig(config: ConnectorConfig): SftpConfig {
  const port = optionalNumber(config, 'port', 22);
  if (!Number.isInteger(port) || port < 1 || port > 65535) throw configError('Port must be between 1 and 65535');
  const format = optionalString(config, 'format') ?? 'csv';
  if (!(SFTP_FORMATS as readonly string[]).includes(format)) {
    throw configError(`Format must be one of ${SFTP_FORMATS.join(', ')}`);
  }
  const auth = optionalObject(config, 'authentication');
  const type = optionalString(auth, 'type') ?? (auth.private_key ? 'private_key' : 'password');
  let parsedAuth: SftpAuth;
  if (type === 'password') parsedAuth = { type, password: requiredString(auth, 'password') };
  else if (type === 'private_key') {
    parsedAuth = { type, privateKey: requiredString(auth, 'private_key') };
    const passphrase = optionalString(auth, 'passphrase');
    if (passphrase) parsedAuth.passphrase = passphrase;
  } else throw configError(`Unknown authentication type '${type}'`);
  return {
    host: requiredString(config, 'host'),
    port,
    user: requiredString(config, 'username'),
    auth: parsedAuth,
    folder: optionalString(config, 'folder') ?? '/',
    filePattern: optionalString(config, 'file_pattern') ?? '*',
    format: format as SftpFormat,
  };
}
