/**
 * Typed reads of a connector's saved configuration. The core validates configuration against the
 * definition's JSON Schema, but connectors still read it defensively: a wrong type here is the
 * user's to fix, so it becomes a ConfigError naming the setting. Shared by the sibling connectors.
 */
import { ExactNumber } from '../../../../exact-values/json';
import { ConnectorError, type ConnectorConfig } from '../types';

export function configError(message: string): ConnectorError {
  return new ConnectorError(message, 'ConfigError');
}

/** A JSON object (not an array, nor an ExactNumber: a number kept as its text). */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && !(value instanceof ExactNumber);
}

export function optionalString(config: ConnectorConfig, key: string): string | undefined {
  const value = config[key];
  if (value === undefined || value === null || value === '') return undefined;
  if (typeof value !== 'string') throw configError(`Setting '${key}' must be text`);
  return value;
}

export function requiredString(config: ConnectorConfig, key: string): string {
  const value = optionalString(config, key);
  if (value === undefined) throw configError(`Setting '${key}' is required`);
  return value;
}

export function optionalNumber(config: ConnectorConfig, key: string, fallback: number): number {
  const value = config[key];
  if (value === undefined || value === null || value === '') return fallback;
  const n = typeof value === 'string' ? Number(value) : value;
  if (typeof n !== 'number' || !Number.isFinite(n)) throw configError(`Setting '${key}' must be a number`);
  return n;
}

export function optionalBoolean(config: ConnectorConfig, key: string, fallback: boolean): boolean {
  const value = config[key];
  if (value === undefined || value === null) return fallback;
  if (typeof value !== 'boolean') throw configError(`Setting '${key}' must be true or false`);
  return value;
}

/** An object setting (e.g. a oneOf choice); missing means an empty object. */
export function optionalObject(config: ConnectorConfig, key: string): Record<string, unknown> {
  const value = config[key];
  if (value === undefined || value === null) return {};
  if (!isRecord(value)) throw configError(`Setting '${key}' must be an object`);
  return value;
}

/** "id, region" or ["id", "region"] -> ["id", "region"]. */
export function nameList(value: unknown, key: string): string[] {
  if (value === undefined || value === null || value === '') return [];
  if (typeof value === 'string') {
    return value
      .split(',')
      .map((s) => s.trim())
      .filter((s) => s !== '');
  }
  if (Array.isArray(value) && value.every((v) => typeof v === 'string')) return value as string[];
  throw configError(`Setting '${key}' must be a comma-separated list of names`);
}
