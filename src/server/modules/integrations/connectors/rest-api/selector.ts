/**
 * A small JSON path: `data.items`, `$.data[*]`, `$.results[0].rows`, `meta.next`. Enough to point
 * at the records of an answer or its next-page cursor; filters and recursive descent are not
 * supported (a ConfigError says so).
 */
import { configError, isRecord } from './config-values';

type Step = { kind: 'field'; name: string } | { kind: 'index'; index: number } | { kind: 'all' };

export function parsePath(path: string): Step[] {
  let rest = path.trim();
  if (rest.startsWith('$')) rest = rest.slice(1);
  const steps: Step[] = [];
  const token = /^\.?([^.[\]]+)|^\[(\*|\d+)\]|^\[['"]([^'"]+)['"]\]/;
  while (rest !== '') {
    const match = token.exec(rest);
    if (!match) throw configError(`Cannot read the path '${path}': use forms like data.items or $.data[*]`);
    const [whole, name, bracket, quoted] = match;
    if (name !== undefined) steps.push({ kind: 'field', name });
    else if (quoted !== undefined) steps.push({ kind: 'field', name: quoted });
    else if (bracket === '*') steps.push({ kind: 'all' });
    else steps.push({ kind: 'index', index: Number(bracket) });
    rest = rest.slice(whole.length);
  }
  return steps;
}

/** All values the path reaches; wildcards fan out. Missing parts yield nothing. */
function evaluate(value: unknown, steps: Step[]): unknown[] {
  let current: unknown[] = [value];
  for (const step of steps) {
    const next: unknown[] = [];
    for (const v of current) {
      if (step.kind === 'field' && isRecord(v) && step.name in v) next.push(v[step.name]);
      if (step.kind === 'index' && Array.isArray(v) && step.index < v.length) next.push(v[step.index]);
      // Loops, not push(...values): an answer holding 100k+ records would overflow the call stack.
      if (step.kind === 'all' && Array.isArray(v)) for (const item of v as unknown[]) next.push(item);
      if (step.kind === 'all' && isRecord(v)) for (const item of Object.values(v)) next.push(item);
    }
    current = next;
  }
  return current;
}

/** The single value at a path (e.g. the next cursor), or undefined. */
export function valueAt(body: unknown, path: string): unknown {
  return evaluate(body, parsePath(path))[0];
}

/**
 * The records the selector points at: an array's items, or an object as one record. Items that
 * are not objects (e.g. a list of ids) become `{ value }` records so nothing is dropped silently.
 */
export function selectRecords(body: unknown, selector: string): Record<string, unknown>[] {
  const steps = parsePath(selector);
  const found = evaluate(body, steps);
  const items =
    steps.at(-1)?.kind === 'all' ? found : found.flatMap((v) => (Array.isArray(v) ? (v as unknown[]) : [v]));
  return items.filter((v) => v !== null && v !== undefined).map((v) => (isRecord(v) ? v : { value: v }));
}
