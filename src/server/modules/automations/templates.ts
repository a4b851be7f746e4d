/**
 * Placeholders in step inputs (shared PLACEHOLDER): {{trigger.x}}, {{steps.<stepId>.<output>}},
 * {{run.id}}, {{automation.name}}... resolved against a scope just before a step runs. A text that
 * is exactly one placeholder takes the value's own type (a number stays a number); inside longer
 * text values are written as text. Nothing is evaluated: a placeholder is a path, never code.
 */
import { PLACEHOLDER, type InputValue } from '../../../shared/automations';

export type TemplateScope = Record<string, InputValue>;

/** The value at a dotted path, or undefined when any part is missing. */
function lookup(scope: TemplateScope, path: string): InputValue | undefined {
  let value: InputValue | undefined = scope;
  for (const part of path.split('.')) {
    if (value === null || typeof value !== 'object' || Array.isArray(value)) return undefined;
    if (!Object.prototype.hasOwnProperty.call(value, part)) return undefined;
    value = (value as Record<string, InputValue>)[part];
  }
  return value;
}

const asText = (value: InputValue): string =>
  value === null ? '' : typeof value === 'object' ? JSON.stringify(value) : String(value);

/** Every placeholder path in a value (nested in arrays and objects too). */
export function placeholdersIn(value: InputValue): string[] {
  if (typeof value === 'string') return [...value.matchAll(PLACEHOLDER)].map((m) => m[1] as string);
  if (Array.isArray(value)) return value.flatMap(placeholdersIn);
  if (value !== null && typeof value === 'object') return Object.values(value).flatMap(placeholdersIn);
  return [];
}

/**
 * Resolves a value against the scope. Placeholders the scope lacks are left as written and
 * returned in `unresolved` (a run fails the step on them; a preview shows them).
 */
export function resolveValue(value: InputValue, scope: TemplateScope): { value: InputValue; unresolved: string[] } {
  const unresolved: string[] = [];
  const walk = (v: InputValue): InputValue => {
    if (typeof v === 'string') {
      const whole = /^\{\{\s*([a-zA-Z_][\w-]*(?:\.[\w-]+)*)\s*\}\}$/.exec(v);
      if (whole) {
        const found = lookup(scope, whole[1] as string);
        if (found === undefined) unresolved.push(whole[1] as string);
        return found === undefined ? v : found;
      }
      return v.replace(PLACEHOLDER, (text, path: string) => {
        const found = lookup(scope, path);
        if (found === undefined) {
          unresolved.push(path);
          return text;
        }
        return asText(found);
      });
    }
    if (Array.isArray(v)) return v.map(walk);
    if (v !== null && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, walk(x)]));
    return v;
  };
  return { value: walk(value), unresolved };
}

/** Resolves every input of a step. */
export function resolveInputs(
  inputs: Record<string, InputValue>,
  scope: TemplateScope,
): { inputs: Record<string, InputValue>; unresolved: string[] } {
  const unresolved: string[] = [];
  const resolved: Record<string, InputValue> = {};
  for (const [name, value] of Object.entries(inputs)) {
    const result = resolveValue(value, scope);
    resolved[name] = result.value;
    unresolved.push(...result.unresolved);
  }
  return { inputs: resolved, unresolved: [...new Set(unresolved)] };
}
