/**
 * Export report: a static table, a published model or one of its pivots saved as a CSV, XLSX,
 * Parquet or PDF report through the reports and files services (origin Automation, the definition),
 * optionally with a public link. The file is created at most once per idempotency key: a step
 * resumed after a crash finds its file (the one recorded, or, when the crash came between creating
 * and recording it, the one of that name the automation made since the run started) and waits for
 * it rather than making a second one.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { STEP_KIND_LABELS, type InputOption, type InputValue, type StepPreview } from '../../../../shared/automations';
import { SHARE_EXPIRY_DAYS } from '../../../../shared/files';
import {
  REPORT_FORMAT_LABELS,
  REPORT_MESSAGES,
  type ReportFormat,
  type ReportSource,
} from '../../../../shared/reports';
import { AppError } from '../../../errors';
import { reportFileName } from '../../reports/service';
import { configError, transientError } from '../step-errors';
import type { StepEnv, StepKindDefinition, StepRunEnv } from '../step-kind';
import { firstProblem, numberOrNull, problemOf } from './data-inputs';
import { booleanInput, numberInput, textInput } from './step-inputs';
import { countRows, firstRows, onWarehouse, readSource } from './table-sources';

const POLL_MS = 250;
const FORMAT_OF: Record<string, ReportFormat> = { CSV: 'csv', XLSX: 'xlsx', Parquet: 'parquet', PDF: 'pdf' };
const FORMATS = Object.keys(FORMAT_OF);

interface Source {
  report: ReportSource;
  label: string;
  /** What a preview and the row count read: the table or the model's active version. */
  table: string;
}

const formatOf = (inputs: Record<string, InputValue>): ReportFormat => FORMAT_OF[textInput(inputs, 'format')] ?? 'csv';

/** `StaticTable:<id>`, `Model:<modelId>` or `Pivot:<modelId>:<pivotKey>`, as the options list them. */
async function resolveSource(env: StepEnv, value: string): Promise<Source> {
  const [kind, id, ...rest] = value.split(':');
  const gone = () => configError('The chosen table or model no longer exists.');
  if (kind === 'StaticTable' && id) {
    const table = await env.services.tables.get(env.ctx, 'StaticTable', id).catch((error: unknown) => {
      throw error instanceof AppError && error.kind === 'NotFound' ? gone() : error;
    });
    return { report: { kind: 'StaticTable', id, filterGroups: [], sorting: [] }, label: table.name, table: value };
  }
  if ((kind === 'Model' || kind === 'Pivot') && id) {
    const model = (await env.services.models.list(env.ctx)).find((m) => m.id === id);
    if (!model) throw gone();
    if (!model.activeVersionId) throw configError(`${model.name} has no published version to export.`);
    const versionId = model.activeVersionId;
    const table = `ModelVersion:${versionId}`;
    if (kind === 'Model')
      return {
        report: { kind: 'Model', modelId: id, versionId, filterGroups: [], sorting: [] },
        label: model.name,
        table,
      };
    const pivotKey = rest.join(':');
    const pivot = (await env.services.models.getVersion(env.ctx, versionId)).pivots.find((p) => p.key === pivotKey);
    if (!pivot) throw configError(`The published version of ${model.name} has no such pivot.`);
    return {
      report: { kind: 'Pivot', modelId: id, versionId, pivotKey },
      label: `${model.name} › ${pivot.name}`,
      table,
    };
  }
  throw configError(`"${value}" is not a table, model or pivot of this account.`);
}

async function sourceOptions(env: StepEnv): Promise<InputOption[]> {
  const tables = await env.services.tables.list(env.ctx, { types: ['StaticTable'], flatten: true });
  const models = (await env.services.models.list(env.ctx)).filter((m) => m.activeVersionId);
  const pivots = await Promise.all(
    models.map(async (m) =>
      (await env.services.models.getVersion(env.ctx, m.activeVersionId as string)).pivots.map((p) => ({
        value: `Pivot:${m.id}:${p.key}`,
        label: `${m.name} › ${p.name}`,
        group: 'Pivots',
      })),
    ),
  );
  return [
    ...tables.map((t) => ({ value: `StaticTable:${t.id}`, label: t.name, group: 'Tables' })),
    ...models.map((m) => ({ value: `Model:${m.id}`, label: m.name, group: 'Models' })),
    ...pivots.flat(),
  ];
}

/** The share link's expiry in days, or null for never. */
function expiryOf(inputs: Record<string, InputValue>): number | null {
  const days = numberInput(inputs, 'expiresInDays');
  return days === null || days === 0 ? null : days;
}

async function waitUntilFinished(env: StepRunEnv, fileId: string) {
  let shown = -1;
  for (;;) {
    const file = await env.services.files.get(env.ctx, fileId);
    if (file.status !== 'Pending') return file;
    if (file.progress !== shown) env.progress(`Generating the report: ${(shown = file.progress)}%`);
    await sleep(POLL_MS, undefined, { signal: env.signal });
  }
}

/** The file this automation made under `name` since the run started (a crash came between creating and recording it). */
async function madeBefore(env: StepRunEnv, name: string): Promise<string | null> {
  const row = await env.deps.db
    .selectFrom('files')
    .select('id')
    .where('account_id', '=', env.ctx.accountId)
    .where('origin_entity_type', '=', 'Automation')
    .where('origin_entity_type_id', '=', env.run.definitionId)
    .where('name', '=', name)
    .where('created_at', '>=', env.run.startedAt)
    .orderBy('created_at', 'desc')
    .executeTakeFirst();
  return row?.id ?? null;
}

export const exportReportStep: StepKindDefinition = {
  kind: 'ExportReport',
  label: STEP_KIND_LABELS.ExportReport,
  description:
    'Saves a table, a model or a pivot as a CSV, XLSX, Parquet or PDF report, optionally with a public link.',
  integrationConnectors: null,
  inputs: [
    { name: 'source', label: 'Table, model or pivot', type: 'select', required: true },
    { name: 'format', label: 'Format', type: 'select', required: true, default: 'CSV' },
    { name: 'name', label: 'Report name', type: 'template', required: true },
    { name: 'shareLink', label: 'Create a public link', type: 'boolean', required: false, default: false },
    {
      name: 'expiresInDays',
      label: 'Link expires after (days)',
      description: 'Empty: never.',
      type: 'select',
      required: false,
      showWhen: { input: 'shareLink', equals: [true] },
    },
  ],
  outputs: [
    { name: 'fileId', label: 'File id' },
    { name: 'fileName', label: 'File name' },
    { name: 'rowCount', label: 'Rows exported' },
    { name: 'downloadUrl', label: 'File page' },
    { name: 'publicUrl', label: 'Public link' },
  ],
  sideEffects: true,

  async inputOptions(env) {
    return {
      source: await sourceOptions(env),
      format: FORMATS.map((f) => ({ value: f, label: REPORT_FORMAT_LABELS[FORMAT_OF[f] as ReportFormat] })),
      expiresInDays: SHARE_EXPIRY_DAYS.map((d) => ({
        value: d === null ? '' : String(d),
        label: d === null ? 'Never expires' : d === 365 ? '1 year' : `${d} day${d === 1 ? '' : 's'}`,
      })),
    };
  },

  validate(step) {
    const inputs = step.inputs;
    const unreadable = problemOf(() => [
      textInput(inputs, 'source'),
      textInput(inputs, 'format'),
      textInput(inputs, 'name'),
      booleanInput(inputs, 'shareLink'),
    ]);
    if (unreadable) return unreadable;
    const format = textInput(inputs, 'format');
    const days = numberOrNull(inputs, 'expiresInDays');
    return firstProblem([
      [textInput(inputs, 'source') === '', 'Table, model or pivot is required.'],
      [format !== '' && !FORMATS.includes(format), 'Format is CSV, XLSX, Parquet or PDF.'],
      [textInput(inputs, 'name') === '', 'Report name is required.'],
      [textInput(inputs, 'name').length > 200, 'A report name has at most 200 characters.'],
      [problemOf(() => numberInput(inputs, 'expiresInDays')) !== null, 'Link expiry is a number of days.'],
      [
        days !== null && days !== 0 && !SHARE_EXPIRY_DAYS.includes(days as never),
        'Link expiry is never, 1, 7, 30 or 365 days.',
      ],
    ]);
  },

  async preview(env, step): Promise<StepPreview> {
    const source = await resolveSource(env, textInput(step.inputs, 'source'));
    const fileName = reportFileName(textInput(step.inputs, 'name'), formatOf(step.inputs));
    const read = await readSource(env, source.table, []);
    const [rowCount, rows] = await onWarehouse(env, AbortSignal.timeout(60_000), async (c) => [
      await countRows(c, read.query),
      await firstRows(c, read),
    ]);
    const share = booleanInput(step.inputs, 'shareLink');
    return {
      summary: `Would save ${source.label} as ${fileName}${share ? ' with a public link' : ''}.`,
      table: { headers: read.headers, rows: rows as unknown[][], rowCount: rowCount as number },
      details: {
        fileName,
        format: REPORT_FORMAT_LABELS[formatOf(step.inputs)],
        source: source.label,
        publicLink: share
          ? expiryOf(step.inputs) === null
            ? 'Never expires'
            : `${expiryOf(step.inputs)} day(s)`
          : null,
      },
    };
  },

  async run(env, step) {
    env.signal.throwIfAborted();
    const source = await resolveSource(env, textInput(step.inputs, 'source'));
    const format = formatOf(step.inputs);
    const name = textInput(step.inputs, 'name');
    const fileName = reportFileName(name, format);
    const created = await env.once(`${env.idempotencyKey}:report`, async () => {
      const report = await env.services.reports.create(
        env.ctx,
        { name, format, source: source.report },
        { origin: { type: 'Automation', id: env.run.definitionId }, notice: false },
      );
      return report.id;
    });
    let fileId: string | null = created.done ? created.result : await madeBefore(env, fileName);
    if (created.done && created.repeated) await env.log('INFO', `Resuming with the report made before a restart.`);
    if (fileId === null) {
      // Recorded as started, yet no file exists: the server stopped before making it.
      throw transientError('The server stopped before the report was created; it is made again on the next attempt.');
    }
    await env.log('INFO', `Saving ${source.label} as ${fileName}.`);
    const file = await waitUntilFinished(env, fileId);
    if (file.status === 'Failed') {
      const reason = file.error ?? 'The report could not be generated.';
      throw reason === REPORT_MESSAGES.interrupted ? transientError(reason) : configError(reason);
    }
    fileId = file.id;
    const read = await readSource(env, source.table, []);
    const rowCount = await onWarehouse(env, env.signal, (c) => countRows(c, read.query));
    let publicUrl: string | null = null;
    if (booleanInput(step.inputs, 'shareLink')) {
      const days = expiryOf(step.inputs);
      const shared = await env.once(`${env.idempotencyKey}:share`, async () => {
        const link = await env.services.files.share(env.ctx, file.id, { expiresAt: days });
        return link.downloadUrl;
      });
      publicUrl = shared.done
        ? shared.result
        : ((await env.services.files.shared(env.ctx, file.id).catch(() => null))?.downloadUrl ?? null);
    }
    await env.log('INFO', `${file.name} is ready (${rowCount.toLocaleString('en-US')} rows).`);
    return {
      fileId: file.id,
      fileName: file.name,
      rowCount,
      downloadUrl: `${env.deps.config.publicUrl}/files/${file.id}`,
      publicUrl,
    };
  },
};
