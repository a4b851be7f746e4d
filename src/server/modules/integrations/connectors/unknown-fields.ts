/**
 * Fields of read records that have no column (the stream's schema does not declare them, or the
 * discovery sample did not have them): counted per name while reading, so the log can name them
 * instead of dropping them silently.
 */
const NAMED = 10;

export type UnknownFields = ReturnType<typeof unknownFields>;

export function unknownFields(known: ReadonlySet<string>) {
  const counts = new Map<string, number>();
  const add = (name: string, records: number) => counts.set(name, (counts.get(name) ?? 0) + records);
  return {
    knows: (name: string): boolean => known.has(name),
    count(record: Record<string, unknown>): void {
      for (const name of Object.keys(record)) if (!known.has(name)) add(name, 1);
    },
    /** A field without a column met in `records` records at once (a file's column). */
    add,
    /** `a (2 records), b (1 record)`: the first ten with their record counts, then how many more; null for none. */
    said(): string | null {
      if (counts.size === 0) return null;
      const fields = [...counts].slice(0, NAMED).map(([name, n]) => `${name} (${n} ${n === 1 ? 'record' : 'records'})`);
      return `${fields.join(', ')}${counts.size > NAMED ? ` and ${counts.size - NAMED} more` : ''}`;
    },
  };
}
