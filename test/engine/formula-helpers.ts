/**
 * Shared by the formula tests: a scope over the fixture table's columns, and the compiled formula
 * as SQL (alone, for golden tests, or in a SELECT over the fixture, to run on DuckDB).
 */
import { duckdbDialect } from '../../src/engine/dialects/duckdb';
import { ModelError } from '../../src/engine/errors';
import { compileFormula, type CompiledFormula, type FormulaScope } from '../../src/engine/formula';
import { renderSelect } from '../../src/engine/render';
import type { CompiledQuery } from '../../src/engine/sql';
import type { SelectStatement } from '../../src/engine/sql-ast';
import { COLUMNS } from './fixture';

export const fixtureScope: FormulaScope = {
  resolve(columnKey) {
    const column = COLUMNS.find((candidate) => candidate.columnKey === columnKey);
    if (!column) return undefined;
    return { expr: { kind: 'column', name: column.columnKey }, type: column.type, displayName: column.displayName };
  },
};

export function compile(text: string, scope: FormulaScope = fixtureScope): CompiledFormula {
  return compileFormula(text, scope);
}

/** `SELECT _row_id, <formula> AS "v" FROM static.t_fixture ORDER BY _row_id`. */
export function selectFormula(text: string, scope: FormulaScope = fixtureScope): CompiledQuery {
  const statement: SelectStatement = {
    kind: 'select',
    items: [
      { expr: { kind: 'column', name: '_row_id' }, alias: null },
      { expr: compile(text, scope).expr, alias: 'v' },
    ],
    from: { kind: 'table', schema: 'static', name: 't_fixture' },
    where: null,
    orderBy: [{ expr: { kind: 'column', name: '_row_id' }, order: 'asc' }],
    limit: null,
    offset: null,
  };
  return renderSelect(statement, duckdbDialect);
}

/** The formula's SQL expression alone (cut out of a one-item SELECT) and its parameters. */
export function formulaSql(text: string, scope: FormulaScope = fixtureScope): CompiledQuery {
  const statement: SelectStatement = {
    kind: 'select',
    items: [{ expr: compile(text, scope).expr, alias: 'v' }],
    from: { kind: 'table', schema: 'static', name: 't_fixture' },
    where: null,
    orderBy: [],
    limit: null,
    offset: null,
  };
  const { sql, parameters } = renderSelect(statement, duckdbDialect);
  const match = /^SELECT\s+([\s\S]*?)\s+AS "v"\s+FROM "static"\."t_fixture"$/.exec(sql);
  if (!match) throw new Error(`Unexpected statement shape: ${sql}`);
  return { sql: match[1]!, parameters };
}

/** The ModelError a formula raises (fails the test when it raises none or another error). */
export function formulaError(run: () => unknown): ModelError {
  try {
    run();
  } catch (error) {
    if (error instanceof ModelError) return error;
    throw error;
  }
  throw new Error('Expected a ModelError');
}
