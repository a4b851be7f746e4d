/**
 * A name none of `names` has (DuckDB's names ignore case), from `base` with leading `_` added: a
 * column renamed out of the way of DuckDB's rowid, or an alias of SQL the warehouse builds, so no
 * column of the user's can be the one a reference finds.
 */
export function freeName(base: string, names: Iterable<string>): string {
  const taken = new Set([...names].map((name) => name.toLowerCase()));
  let name = base;
  while (taken.has(name.toLowerCase())) name = `_${name}`;
  return name;
}
