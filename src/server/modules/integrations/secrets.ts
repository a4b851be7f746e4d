/**
 * Integration secrets at rest: AES-256-GCM with a key from SECRETS_KEY or a key file made once in
 * the data folder. Which configuration fields are secret comes from the definition's specification
 * (`airbyte_secret: true`, as in Airbyte's connector specifications); responses show them masked.
 */
import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { SECRET_MASK } from '../../../shared/integrations';

const KEY_FILE = 'secrets.key';
const PREFIX = 'enc:v1:';

export interface SecretBox {
  encrypt(plain: string): string;
  decrypt(sealed: string): string;
}

/** SECRETS_KEY when given, else DATA_DIR/secrets.key (created on first start, owner-only). */
export function resolveSecretsKey(dataDir: string, configured: Buffer | null): Buffer {
  if (configured) return configured;
  const file = path.join(dataDir, KEY_FILE);
  if (fs.existsSync(file)) {
    const key = Buffer.from(fs.readFileSync(file, 'utf8').trim(), 'hex');
    if (key.length === 32) return key;
    throw new Error(
      `The key file ${file} is damaged (not 32 bytes of hex). Restore it: secrets cannot be read without it.`,
    );
  }
  const key = randomBytes(32);
  fs.writeFileSync(file, `${key.toString('hex')}\n`, { mode: 0o600, flag: 'wx' });
  return key;
}

export function secretBox(key: Buffer): SecretBox {
  return {
    encrypt(plain) {
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', key, iv);
      const data = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
      return `${PREFIX}${iv.toString('base64')}:${cipher.getAuthTag().toString('base64')}:${data.toString('base64')}`;
    },
    decrypt(sealed) {
      if (!sealed.startsWith(PREFIX)) throw new Error('Not an encrypted value');
      const [iv, tag, data] = sealed.slice(PREFIX.length).split(':');
      if (iv === undefined || tag === undefined || data === undefined) throw new Error('A damaged encrypted value');
      const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64'));
      decipher.setAuthTag(Buffer.from(tag, 'base64'));
      return Buffer.concat([decipher.update(Buffer.from(data, 'base64')), decipher.final()]).toString('utf8');
    },
  };
}

export const isSealed = (value: unknown): value is string => typeof value === 'string' && value.startsWith(PREFIX);

/** A random 256-bit token (URL-safe) and the hash it is found by. */
export function newToken(): { token: string; hash: string } {
  const token = randomBytes(32).toString('base64url');
  return { token, hash: hashToken(token) };
}

export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

type JsonObject = Record<string, unknown>;
const isObject = (value: unknown): value is JsonObject =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * Returns a copy of `value` with every secret string (per `schema`) passed through `change`. Walks
 * properties, oneOf/anyOf options and array items, as far as the value goes.
 */
export function mapSecrets(
  schema: unknown,
  value: unknown,
  change: (secret: string, path: string[]) => unknown,
  at: string[] = [],
): unknown {
  if (!isObject(schema)) return value;
  if (schema.airbyte_secret === true && typeof value === 'string') return change(value, at);
  if (Array.isArray(value) && schema.items !== undefined) {
    return value.map((item, i) => mapSecrets(schema.items, item, change, [...at, String(i)]));
  }
  if (!isObject(value)) return value;
  let result: JsonObject = value;
  const visit = (properties: unknown) => {
    if (!isObject(properties)) return;
    for (const [key, propertySchema] of Object.entries(properties)) {
      if (!(key in result)) continue;
      const next = mapSecrets(propertySchema, result[key], change, [...at, key]);
      if (next !== result[key]) result = { ...result, [key]: next };
    }
  };
  visit(schema.properties);
  for (const options of [schema.oneOf, schema.anyOf]) {
    if (Array.isArray(options)) for (const option of options) if (isObject(option)) visit(option.properties);
  }
  return result;
}

function valueAt(value: unknown, at: string[]): unknown {
  let current = value;
  for (const key of at) {
    if (Array.isArray(current)) current = current[Number(key)];
    else if (isObject(current)) current = current[key];
    else return undefined;
  }
  return current;
}

/** The configuration as stored: secrets sealed; a masked secret keeps the value stored before. */
export function sealConfiguration(
  box: SecretBox,
  settingsSchema: unknown,
  incoming: JsonObject,
  stored: JsonObject | null,
): JsonObject {
  return mapSecrets(settingsSchema, incoming, (secret, at) => {
    if (secret === SECRET_MASK) {
      const previous = stored ? valueAt(stored, at) : undefined;
      return isSealed(previous) ? previous : '';
    }
    return isSealed(secret) ? secret : box.encrypt(secret);
  }) as JsonObject;
}

/** The configuration a connector reads: secrets in the clear. */
export function openConfiguration(box: SecretBox, settingsSchema: unknown, stored: JsonObject): JsonObject {
  return mapSecrets(settingsSchema, stored, (secret) =>
    isSealed(secret) ? box.decrypt(secret) : secret,
  ) as JsonObject;
}

/** The configuration a client sees: every non-empty secret as the mask. */
export function maskConfiguration(settingsSchema: unknown, stored: JsonObject): JsonObject {
  return mapSecrets(settingsSchema, stored, (secret) => (secret === '' ? '' : SECRET_MASK)) as JsonObject;
}
