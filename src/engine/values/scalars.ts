/** Booleans from filter values, which may arrive as JSON booleans or as text (numbers: exact-number.ts). */

export function parseBooleanValue(value: string | number | boolean): boolean | null {
  if (typeof value === 'boolean') return value;
  if (typeof value !== 'string') return null;
  const text = value.trim().toLowerCase();
  if (text === 'true') return true;
  if (text === 'false') return false;
  return null;
}
