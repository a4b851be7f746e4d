/**
 * Write to a destination: a table or model of the account (optionally filtered) into a PostgreSQL
 * integration's table (create, replace, append, upsert on key columns; destination-postgres.ts) or
 * as a CSV or Parquet file into an SFTP integration's folder (destination-sftp.ts).
 *
 * Exactly once per attempt: the PostgreSQL write commits with a marker row of the idempotency key,
 * the file's name is derived from the key and appears only whole. So a Started-without-Done effect
 * (a crash during the write) is simply run again: the marker or the file says whether it had
 * finished, and nothing is written twice.
 */
import type { InputOption, InputValue, StepPreview } from '../../../../shared/automations';
import { forgetStarted } from '../side-effects';
import { configError, transientError } from '../step-errors';
import type { ResolvedStep, StepEnv, StepKindDefinition, StepRunEnv } from '../step-kind';
import { filtersInput } from './data-inputs';
import { columnPlan, parseTableName, PG_MODES, writePostgres, type PgMode } from './destination-postgres';
import { destinationFileName, destinationPath, FILE_FORMATS, writeSftp, type FileFormat } from './destination-sftp';
import { connectionFor, listInput, textInput } from './step-inputs';
import {
  columnOptions,
  countRows,
  firstRows,
  onWarehouse,
  readSource,
  sourceOptions,
  tableLabel,
} from './table-sources';

const CONNECTORS = ['postgres', 'sftp'];
const WHAT = 'a PostgreSQL or SFTP integration';

interface Planned {
  connection: Awaited<ReturnType<typeof connectionFor>>;
  read: Awaited<ReturnType<typeof readSource>>;
}

async function plan(env: StepEnv, step: ResolvedStep): Promise<Planned> {
  const connection = await connectionFor(env, step.integrationId, CONNECTORS, WHAT);
  const source = textInput(step.inputs, 'source');
  if (source === '') throw configError('Choose the table or model to write.');
  const read = await readSource(env, source, filtersInput(step.inputs, 'filters'));
  return { connection, read };
}

function pgTarget(step: ResolvedStep) {
  const table = textInput(step.inputs, 'table');
  if (table === '') throw configError('Name the PostgreSQL table to write (table or schema.table).');
  const mode = (textInput(step.inputs, 'mode') || 'append') as PgMode;
  if (!PG_MODES.includes(mode)) throw configError(`Mode must be one of ${PG_MODES.join(', ')}.`);
  return { table: parseTableName(table), mode };
}

function fileFormat(step: ResolvedStep): FileFormat {
  const format = (textInput(step.inputs, 'format') || 'csv') as FileFormat;
  if (!FILE_FORMATS.includes(format)) throw configError('Format must be csv or parquet.');
  return format;
}

/** The key columns' headers in the read (upsert). */
function keyHeaders(planned: Planned, step: ResolvedStep): string[] {
  const keys = listInput(step.inputs, 'keyColumns');
  return keys.map((key) => {
    const index = planned.read.columns.findIndex((c) => c.columnKey === key || c.displayName === key);
    if (index < 0) throw configError(`${planned.read.summary.name} has no column "${key}".`);
    return planned.read.headers[index] as string;
  });
}

async function write(env: StepRunEnv, step: ResolvedStep): Promise<Record<string, InputValue>> {
  const planned = await plan(env, step);
  const { connection, read } = planned;
  if (connection.connectorKey === 'postgres') {
    const { table, mode } = pgTarget(step);
    const keys = keyHeaders(planned, step);
    if (mode === 'upsert' && keys.length === 0) throw configError('Upsert needs key columns.');
    const result = await onWarehouse(env, env.signal, async (warehouse) => {
      const { columns } = await warehouse.query({
        sql: `SELECT * FROM (${read.query.sql}) LIMIT 0`,
        parameters: read.query.parameters,
      });
      return writePostgres(warehouse, {
        config: connection.config,
        network: connection.network,
        table,
        mode,
        keys,
        columns: columns.map((c) => columnPlan(c.name, c.sqlType)),
        rows: read.query,
        key: env.idempotencyKey,
        signal: env.signal,
        onRows: (n) => env.progress(`${n.toLocaleString('en-US')} rows written`),
      });
    });
    const where = `${table.schema}.${table.table}`;
    await env.log(
      'INFO',
      result.already
        ? `${where} was written by this attempt before the server restarted (${result.rows} rows); not written again.`
        : `Wrote ${result.rows} rows of ${read.summary.name} into ${where} (${mode}).`,
    );
    return { destination: where, rows: result.rows, mode };
  }
  const format = fileFormat(step);
  const name = destinationFileName(textInput(step.inputs, 'fileName') || read.summary.name, env.idempotencyKey, format);
  const executor = env.deps.warehouse.forAccount(env.ctx.accountId);
  const rows = await onWarehouse(env, env.signal, (c) => countRows(c, read.query));
  const result = await writeSftp({
    config: connection.config,
    network: connection.network,
    executor,
    rows: read.query,
    format,
    name,
    signal: env.signal,
  });
  await env.log(
    'INFO',
    result.already
      ? `${result.path} was written by this attempt before the server restarted; not written again.`
      : `Wrote ${rows} rows of ${read.summary.name} to ${result.path} on ${connection.name}.`,
  );
  return { destination: result.path, rows, format };
}

export const writeDestinationStep: StepKindDefinition = {
  kind: 'WriteDestination',
  label: 'Write to a destination',
  description:
    "Writes a table or model into a PostgreSQL integration's table, or as a CSV or Parquet file into an SFTP integration's folder; never twice.",
  integrationConnectors: CONNECTORS,
  inputs: [
    { name: 'source', label: 'Table or model', type: 'select', required: true },
    { name: 'filters', label: 'Filters', description: 'Only the rows matching these', type: 'json', required: false },
    {
      name: 'table',
      label: 'PostgreSQL table',
      description: 'table or schema.table (PostgreSQL integrations)',
      type: 'template',
      required: false,
    },
    {
      name: 'mode',
      label: 'Mode',
      description: 'PostgreSQL: create a new table, replace its rows, append, or upsert on key columns',
      type: 'select',
      required: false,
      default: 'append',
    },
    {
      name: 'keyColumns',
      label: 'Key columns',
      type: 'multiselect',
      required: false,
      showWhen: { input: 'mode', equals: ['upsert'] },
    },
    {
      name: 'format',
      label: 'File format',
      description: 'SFTP integrations',
      type: 'select',
      required: false,
      default: 'csv',
    },
    {
      name: 'fileName',
      label: 'File name',
      description: "SFTP: the name's beginning; the run, step and attempt are added",
      type: 'template',
      required: false,
    },
  ],
  outputs: [
    { name: 'destination', label: 'Table or file written' },
    { name: 'rows', label: 'Rows written' },
  ],
  sideEffects: true,

  async inputOptions(env, step) {
    const source = typeof step.inputs.source === 'string' ? step.inputs.source : '';
    const mode: InputOption[] = [
      { value: 'create', label: 'Create a new table' },
      { value: 'replace', label: 'Replace its rows' },
      { value: 'append', label: 'Append' },
      { value: 'upsert', label: 'Upsert on key columns' },
    ];
    const format: InputOption[] = [
      { value: 'csv', label: 'CSV' },
      { value: 'parquet', label: 'Parquet' },
    ];
    return { source: await sourceOptions(env), mode, keyColumns: await columnOptions(env, source), format };
  },

  validate(step) {
    if (!step.integrationId) return `Choose ${WHAT}.`;
    if (typeof step.inputs.source !== 'string' || step.inputs.source === '')
      return 'Choose the table or model to write.';
    const mode = step.inputs.mode;
    if (mode !== undefined && mode !== null && mode !== '' && !(PG_MODES as readonly InputValue[]).includes(mode))
      return `Mode must be one of ${PG_MODES.join(', ')}.`;
    const keys = step.inputs.keyColumns;
    if (mode === 'upsert' && (!Array.isArray(keys) || keys.length === 0)) return 'Upsert needs key columns.';
    const format = step.inputs.format;
    if (
      format !== undefined &&
      format !== null &&
      format !== '' &&
      !(FILE_FORMATS as readonly InputValue[]).includes(format)
    )
      return 'Format must be csv or parquet.';
    if (typeof step.inputs.table === 'string' && step.inputs.table.trim() !== '' && !step.inputs.table.includes('{{')) {
      try {
        parseTableName(step.inputs.table);
      } catch (error) {
        return (error as Error).message;
      }
    }
    return null;
  },

  async preview(env, step): Promise<StepPreview> {
    const planned = await plan(env, step);
    const { connection, read } = planned;
    const { rows, rowCount } = await onWarehouse(env, AbortSignal.timeout(60_000), async (c) => ({
      rows: await firstRows(c, read, 10),
      rowCount: await countRows(c, read.query),
    }));
    const table = { headers: read.headers, rows, rowCount };
    if (connection.connectorKey === 'postgres') {
      const { table: target, mode } = pgTarget(step);
      const where = `${target.schema}.${target.table}`;
      return {
        summary: `${mode} ${rowCount} rows of ${tableLabel(read.summary)} into ${where} (${connection.name})`,
        table,
        details: { destination: where, mode, keyColumns: keyHeaders(planned, step), integration: connection.name },
      };
    }
    const format = fileFormat(step);
    // The run, step and attempt are only known when it runs.
    const name = destinationFileName(textInput(step.inputs, 'fileName') || read.summary.name, 'KEY', format).replace(
      /-KEY\./,
      '-<run>-<step>-<attempt>.',
    );
    const file = destinationPath(connection.config, name);
    return {
      summary: `${rowCount} rows of ${tableLabel(read.summary)} as ${format.toUpperCase()} to ${file} (${connection.name})`,
      table,
      details: { destination: file, format, integration: connection.name },
    };
  },

  async run(env, step) {
    const key = `${env.idempotencyKey}:write`;
    let result = await env.once(key, () => write(env, step));
    if (!result.done) {
      await env.log(
        'WARN',
        'The server stopped during this write; it is run again, and its marker row or file name keeps it from being written twice.',
      );
      await forgetStarted(env.deps.db, key);
      result = await env.once(key, () => write(env, step));
      if (!result.done) throw transientError('The write is being done by another worker; try again.');
    }
    return result.result;
  },
};
