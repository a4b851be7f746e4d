/**
 * Column headers of an export, each one different: a name already used gets " (2)", " (3)", ...
 * (never a name another column has), so every column of a file can be told apart and read back by
 * name. The first of equal names stays as it is.
 */
export function uniqueHeaders(names: readonly string[]): string[] {
  const taken = new Set(names);
  const used = new Set<string>();
  return names.map((name) => {
    let header = name;
    for (let n = 2; used.has(header); n += 1) {
      const candidate = `${name} (${n})`;
      if (!taken.has(candidate) && !used.has(candidate)) header = candidate;
    }
    used.add(header);
    return header;
  });
}
