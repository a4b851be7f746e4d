/**
 * Check data: a row count within bounds, at most N empty values in a column, a date column fresh
 * enough, or filters no row may match. The reads are the tables service's (the engine compiles
 * filters with bound values; columns are quoted by the one quoting function), on a connection the
 * step's signal interrupts. A failing check is a ConfigError saying what was found and what was
 * expected; a step whose policy only warns lets the run go on (the runner's part).
 */
import { STEP_KIND_LABELS, type InputValue } from '../../../../shared/automations';
import type { Filter } from '../../../../shared/tables';
import { configError } from '../step-errors';
import type { StepEnv, StepKindDefinition } from '../step-kind';
import {
  columnOptions,
  countRows,
  firstRows,
  headerOf,
  onWarehouse,
  readSource,
  sourceOptions,
  tableLabel,
} from './table-sources';
import { filtersInput, firstProblem, numberOrNull, problemOf } from './data-inputs';
import { numberInput, textInput } from './step-inputs';

const CHECKS = ['RowCount', 'NullsInColumn', 'Freshness', 'NoRowsMatch'] as const;
type Check = (typeof CHECKS)[number];
const CHECK_LABELS: Record<Check, string> = {
  RowCount: 'Row count',
  NullsInColumn: 'Empty values in a column',
  Freshness: 'Freshness of a date column',
  NoRowsMatch: 'No row matches filters',
};

const checkOf = (inputs: Record<string, InputValue>): Check => {
  const value = textInput(inputs, 'check');
  return (CHECKS as readonly string[]).includes(value) ? (value as Check) : 'RowCount';
};

const n = (value: number) => value.toLocaleString('en-US');
const plural = (count: number, one: string, many: string) => `${n(count)} ${count === 1 ? one : many}`;

export interface CheckResult {
  passed: boolean;
  rowCount: number;
  value: number | string | null;
  message: string;
  /** Rows worth showing in a preview (the first rows, or the first matching rows). */
  sample: { headers: string[]; rows: unknown[][] } | null;
}

/** Runs the check's reads and judges them. */
export async function evaluateCheck(
  env: StepEnv,
  signal: AbortSignal,
  inputs: Record<string, InputValue>,
  withSample = false,
): Promise<CheckResult> {
  const check = checkOf(inputs);
  const filters: Filter[] = check === 'NoRowsMatch' ? filtersInput(inputs, 'filters') : [];
  const read = await readSource(env, textInput(inputs, 'source'), []);
  const name = tableLabel(read.summary);
  return onWarehouse(env, signal, async (connection) => {
    const rowCount = await countRows(connection, read.query);
    const sampleOf = async (r = read) =>
      withSample ? { headers: r.headers, rows: await firstRows(connection, r) } : null;

    if (check === 'RowCount') {
      const min = numberInput(inputs, 'min');
      const max = numberInput(inputs, 'max');
      const tooFew = min !== null && rowCount < min;
      const tooMany = max !== null && rowCount > max;
      const message = tooFew
        ? `${name} has ${plural(rowCount, 'row', 'rows')}; at least ${n(min)} expected`
        : tooMany
          ? `${name} has ${plural(rowCount, 'row', 'rows')}; at most ${n(max)} expected`
          : `${name} has ${plural(rowCount, 'row', 'rows')}`;
      return { passed: !tooFew && !tooMany, rowCount, value: rowCount, message, sample: await sampleOf() };
    }

    if (check === 'NullsInColumn') {
      const columnKey = textInput(inputs, 'column');
      const column = headerOf(read, columnKey);
      const label = read.columns.find((c) => c.columnKey === columnKey)?.displayName ?? columnKey;
      const allowed = numberInput(inputs, 'maxNulls') ?? 0;
      const [row] = await connection.all({
        sql: `SELECT count(*) FILTER (WHERE ${column} IS NULL)::DOUBLE AS empty FROM (${read.query.sql}) AS source`,
        parameters: read.query.parameters,
      });
      const empty = Number(row?.empty ?? 0);
      const passed = empty <= allowed;
      const message = `${label} of ${name} has ${plural(empty, 'empty value', 'empty values')}${passed ? '' : `; at most ${n(allowed)} allowed`}`;
      return { passed, rowCount, value: empty, message, sample: await sampleOf() };
    }

    if (check === 'Freshness') {
      const columnKey = textInput(inputs, 'column');
      const column = headerOf(read, columnKey);
      const found = read.columns.find((c) => c.columnKey === columnKey);
      if (found && found.type !== 'Date' && found.type !== 'DateTime')
        throw configError(`${found.displayName} of ${name} is not a date column.`);
      const label = found?.displayName ?? columnKey;
      const maxAge = numberInput(inputs, 'maxAgeHours') ?? 24;
      const [row] = await connection.all({
        sql: `SELECT max(${column})::VARCHAR AS newest, epoch(max(${column}))::DOUBLE AS seconds FROM (${read.query.sql}) AS source`,
        parameters: read.query.parameters,
      });
      const newest = row?.newest === null || row?.newest === undefined ? null : String(row.newest);
      if (newest === null)
        return {
          passed: false,
          rowCount,
          value: null,
          message: `${label} of ${name} has no values`,
          sample: await sampleOf(),
        };
      const ageHours = (env.deps.clock().getTime() - Number(row?.seconds) * 1000) / 3_600_000;
      const age = Math.max(0, Math.round(ageHours * 10) / 10);
      const passed = ageHours <= maxAge;
      const message = `The newest ${label} of ${name} is ${newest} (${age} hours old)${passed ? '' : `; at most ${n(maxAge)} hours expected`}`;
      return { passed, rowCount, value: newest, message, sample: await sampleOf() };
    }

    const matching = await readSource(env, textInput(inputs, 'source'), filters);
    const matches = await countRows(connection, matching.query);
    const passed = matches === 0;
    const message = passed
      ? `No row of ${name} matches the filters`
      : `${plural(matches, 'row', 'rows')} of ${name} ${matches === 1 ? 'matches' : 'match'} the filters; none expected`;
    return { passed, rowCount, value: matches, message, sample: await sampleOf(matching) };
  });
}

export const checkDataStep: StepKindDefinition = {
  kind: 'CheckData',
  label: STEP_KIND_LABELS.CheckData,
  description:
    'Checks a table: its row count, empty values in a column, how fresh a date column is, or filters no row may match.',
  integrationConnectors: null,
  inputs: [
    { name: 'source', label: 'Table', type: 'select', required: true },
    { name: 'check', label: 'Check', type: 'select', required: true, default: 'RowCount' },
    {
      name: 'min',
      label: 'At least (rows)',
      type: 'number',
      required: false,
      default: 1,
      showWhen: { input: 'check', equals: ['RowCount'] },
    },
    {
      name: 'max',
      label: 'At most (rows)',
      type: 'number',
      required: false,
      showWhen: { input: 'check', equals: ['RowCount'] },
    },
    {
      name: 'column',
      label: 'Column',
      type: 'select',
      required: false,
      showWhen: { input: 'check', equals: ['NullsInColumn', 'Freshness'] },
    },
    {
      name: 'maxNulls',
      label: 'Empty values allowed',
      type: 'number',
      required: false,
      default: 0,
      showWhen: { input: 'check', equals: ['NullsInColumn'] },
    },
    {
      name: 'maxAgeHours',
      label: 'Newest value at most (hours old)',
      type: 'number',
      required: false,
      default: 24,
      showWhen: { input: 'check', equals: ['Freshness'] },
    },
    {
      name: 'filters',
      label: 'Filters no row may match',
      description: 'A JSON list of filters: [{"columnKey": "...", "operator": "Equals", "value": "..."}]',
      type: 'json',
      required: false,
      showWhen: { input: 'check', equals: ['NoRowsMatch'] },
    },
  ],
  outputs: [
    { name: 'passed', label: 'Passed' },
    { name: 'rowCount', label: 'Rows in the table' },
    { name: 'value', label: 'Value checked' },
  ],
  sideEffects: false,

  async inputOptions(env, step) {
    const source = textInput(step.inputs, 'source');
    const dates = checkOf(step.inputs) === 'Freshness';
    return {
      source: await sourceOptions(env),
      check: CHECKS.map((c) => ({ value: c, label: CHECK_LABELS[c] })),
      column: await columnOptions(env, source, dates ? (c) => c.type === 'Date' || c.type === 'DateTime' : undefined),
    };
  },

  validate(step) {
    const inputs = step.inputs;
    const typed = firstProblem(
      (['min', 'max', 'maxNulls', 'maxAgeHours'] as const).map((name) => [
        problemOf(() => numberInput(inputs, name)) !== null,
        `${name}: enter a number.`,
      ]),
    );
    if (typed) return typed;
    const check = problemOf(() => textInput(inputs, 'check')) === null ? textInput(inputs, 'check') : '?';
    const min = numberOrNull(inputs, 'min');
    const max = numberOrNull(inputs, 'max');
    const needsColumn = check === 'NullsInColumn' || check === 'Freshness';
    const filters = check === 'NoRowsMatch' ? problemOf(() => filtersInput(inputs, 'filters')) : null;
    return firstProblem([
      [inputs.source === undefined || inputs.source === null || inputs.source === '', 'Table is required.'],
      [check !== '' && !(CHECKS as readonly string[]).includes(check), `Check is one of ${CHECKS.join(', ')}.`],
      [check === 'RowCount' && min === null && max === null, 'Give at least or at most a number of rows.'],
      [min !== null && max !== null && min > max, 'At least cannot be more than at most.'],
      [
        needsColumn && (inputs.column === undefined || inputs.column === null || inputs.column === ''),
        'Column is required.',
      ],
      [
        check === 'NullsInColumn' && (numberOrNull(inputs, 'maxNulls') ?? 0) < 0,
        'Empty values allowed cannot be negative.',
      ],
      [check === 'Freshness' && (numberOrNull(inputs, 'maxAgeHours') ?? 1) <= 0, 'Hours must be more than 0.'],
      [filters !== null, filters ?? ''],
      [
        check === 'NoRowsMatch' && filters === null && filtersInput(inputs, 'filters').length === 0,
        'Filters are required.',
      ],
    ]);
  },

  async preview(env, step) {
    const result = await evaluateCheck(env, AbortSignal.timeout(60_000), step.inputs, true);
    return {
      summary: `${result.passed ? 'Would pass' : 'Would fail'}: ${result.message}.`,
      ...(result.sample ? { table: { ...result.sample, rowCount: result.rowCount } } : {}),
      details: { passed: result.passed, rowCount: result.rowCount, value: result.value },
    };
  },

  async run(env, step) {
    env.progress(`Checking ${CHECK_LABELS[checkOf(step.inputs)].toLowerCase()}`);
    const result = await evaluateCheck(env, env.signal, step.inputs);
    if (!result.passed) {
      await env.log('ERROR', `Check failed: ${result.message}.`);
      throw configError(result.message);
    }
    await env.log('INFO', `Check passed: ${result.message}.`);
    return { passed: true, rowCount: result.rowCount, value: result.value };
  },
};
