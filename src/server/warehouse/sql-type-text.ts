/**
 * DuckDB type names as its catalog prints them (`DECIMAL(18,2)`, `TIMESTAMP WITH TIME ZONE`,
 * `VARCHAR[]`): the only type text put into SQL. Anything else is a bug, not input to quote.
 */
const SQL_TYPE = /^[A-Z][A-Z0-9_]*( [A-Z]+)*(\(\d+(, ?\d+)?\))?(\[\])?$/i;

export function sqlTypeText(type: string): string {
  if (!SQL_TYPE.test(type)) throw new Error(`Unexpected DuckDB type name: ${type}`);
  return type;
}
