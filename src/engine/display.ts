/**
 * "Show SQL": the compiled query with each placeholder replaced by the dialect's literal for its
 * value, so the text shown is the text that runs (same statement, same types, same rows).
 * Placeholders are found by scanning the SQL, skipping quoted strings and identifiers, because a
 * column may well be named "$1".
 */
import type { SqlDialect } from './dialect';
import { duckdbDialect } from './dialects/duckdb';
import type { CompiledQuery } from './sql';

export function renderForDisplay(query: CompiledQuery, dialect: SqlDialect = duckdbDialect): string {
  const { sql, parameters } = query;
  let out = '';
  let index = 0;
  while (index < sql.length) {
    const char = sql[index]!;
    if (char === "'" || char === '"') {
      const end = closingQuote(sql, index);
      out += sql.slice(index, end);
      index = end;
      continue;
    }
    const placeholder = char === '$' ? /^\$(\d+)/.exec(sql.slice(index, index + 12)) : null;
    if (placeholder) {
      const position = Number(placeholder[1]);
      if (position < 1 || position > parameters.length) throw new Error(`No value for placeholder $${position}`);
      out += dialect.literal(parameters[position - 1]!);
      index += placeholder[0].length;
      continue;
    }
    out += char;
    index += 1;
  }
  return out;
}

/** Index just past the quoted run starting at `start`; a doubled quote inside is an escaped quote. */
function closingQuote(sql: string, start: number): number {
  const quote = sql[start];
  let index = start + 1;
  for (;;) {
    const next = sql.indexOf(quote!, index);
    if (next === -1) throw new Error('Unterminated quote in compiled SQL');
    if (sql[next + 1] === quote) index = next + 2;
    else return next + 1;
  }
}
