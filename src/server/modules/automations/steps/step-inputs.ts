/**
 * Reading a step's inputs defensively (they are JSON the user typed, after placeholders were
 * resolved) and finding the integration a step uses. A wrong value is the user's to fix: a
 * ConfigError naming the input.
 */
import type { InputValue } from '../../../../shared/automations';
import type { IntegrationConnection } from '../../integrations/service';
import type { StepEnv } from '../step-kind';
import { AppError } from '../../../errors';
import { configError } from '../step-errors';

export function textInput(inputs: Record<string, InputValue>, name: string): string {
  const value = inputs[name];
  if (value === undefined || value === null) return '';
  if (typeof value === 'object') throw configError(`Input '${name}' must be text.`);
  return String(value).trim();
}

export function numberInput(inputs: Record<string, InputValue>, name: string): number | null {
  const value = inputs[name];
  if (value === undefined || value === null || value === '') return null;
  const n = typeof value === 'number' ? value : Number(value);
  if (typeof value === 'object' || !Number.isFinite(n)) throw configError(`Input '${name}' must be a number.`);
  return n;
}

export function booleanInput(inputs: Record<string, InputValue>, name: string, fallback = false): boolean {
  const value = inputs[name];
  if (value === undefined || value === null || value === '') return fallback;
  if (typeof value === 'boolean') return value;
  if (value === 'true' || value === 'false') return value === 'true';
  throw configError(`Input '${name}' must be true or false.`);
}

/** A list input: an array, or one value, or a comma-separated text. Empty values dropped. */
export function listInput(inputs: Record<string, InputValue>, name: string): string[] {
  const value = inputs[name];
  if (value === undefined || value === null || value === '') return [];
  const items = Array.isArray(value) ? value : typeof value === 'string' ? value.split(',') : [value];
  return items
    .map((item) => {
      if (item !== null && typeof item === 'object') throw configError(`Input '${name}' must be a list of values.`);
      return String(item ?? '').trim();
    })
    .filter((item) => item !== '');
}

/**
 * A keyValue input as pairs: an object `{name: value}` or a list of `{key|name, value}`. Values are
 * text (a number or boolean is written as text); a pair without a name is dropped.
 */
export function keyValueInput(inputs: Record<string, InputValue>, name: string): [string, string][] {
  const value = inputs[name];
  if (value === undefined || value === null || value === '') return [];
  const asText = (v: InputValue | undefined) =>
    v === undefined || v === null ? '' : typeof v === 'object' ? JSON.stringify(v) : String(v);
  let pairs: [string, string][];
  if (Array.isArray(value)) {
    pairs = value.map((item) => {
      if (item === null || typeof item !== 'object' || Array.isArray(item))
        throw configError(`Input '${name}' must be a list of names and values.`);
      return [asText(item.key ?? item.name).trim(), asText(item.value)];
    });
  } else if (typeof value === 'object') {
    pairs = Object.entries(value).map(([k, v]) => [k.trim(), asText(v)]);
  } else {
    throw configError(`Input '${name}' must be a list of names and values.`);
  }
  return pairs.filter(([k]) => k !== '');
}

/** The step's integration, when it is one of `connectors`; a ConfigError otherwise. */
export async function connectionFor(
  env: StepEnv,
  integrationId: string | null,
  connectors: string[],
  what: string,
): Promise<IntegrationConnection> {
  if (!integrationId) throw configError(`Choose ${what}.`);
  let connection: IntegrationConnection;
  try {
    connection = await env.services.integrations.connectionOf(env.ctx, integrationId);
  } catch (error) {
    if (error instanceof AppError && error.kind === 'NotFound')
      throw configError(`The step's integration no longer exists: choose ${what}.`);
    throw error;
  }
  if (!connectors.includes(connection.connectorKey))
    throw configError(`The integration '${connection.name}' is not ${what}.`);
  return connection;
}

/** A short text for logs and previews. */
export function clip(text: string, max = 200): string {
  return text.length > max ? `${text.slice(0, max)}…` : text;
}
