/**
 * Keys of numbers stored as exact text. A source's numeric column becomes text when a value needs
 * more than a decimal's 38 digits (or is NaN); the rows stored before then have the decimal's spelling
 * (`1.0` in a DECIMAL(18,1)), the source spells the same number its own way (`1`). As keys they are
 * one number: compared in one spelling per value, trailing fraction zeros and a lone point dropped,
 * `-0` as `0`; any other text (NaN, Infinity) as it is. Exact: no digit passes through a double.
 */
import type { StorageFormat } from './connectors/formats';

const NUMBER_KINDS: ReadonlySet<StorageFormat['kind']> = new Set([
  'int',
  'decimal',
  'exact-decimal',
  'float',
  'double',
]);

/** Whether a source property's values are numbers (whatever column their values end up in). */
export const isNumberFormat = (format: StorageFormat): boolean => NUMBER_KINDS.has(format.kind);

/** SQL: the one spelling of the number text `ref` (a quoted column of type VARCHAR). */
export function numberKeySql(ref: string): string {
  const trimmed = `CASE WHEN regexp_full_match(${ref}, '-?[0-9]+\\.[0-9]*') THEN rtrim(rtrim(${ref}, '0'), '.') ELSE ${ref} END`;
  return `CASE WHEN ${trimmed} = '-0' THEN '0' ELSE ${trimmed} END`;
}
