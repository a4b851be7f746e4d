import { describe, expect, it } from 'vitest';
import type { Pivot } from '../../../src/shared/pivots';
import type { Readable } from 'node:stream';
import { api, joinedModel, makeShop, modelKey, type Model } from '../models/helpers';
import { appWithTeam, ok } from '../static-tables/helpers';
import { parseCsv, readXlsx } from '../tables/export-compare';
import { configured, definitionAndRun, failureOf, kindOf, runEnv } from './steps-data-env';

const exportReport = kindOf('ExportReport');

async function bytesOf(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.from(chunk as Uint8Array));
  return Buffer.concat(chunks);
}

describe('Export report step', () => {
  it('saves a table as CSV with a public link (origin Automation), once per idempotency key, and a pivot as XLSX', async () => {
    const { t, team } = await appWithTeam();
    const cookie = team.owner.cookie;
    const shop = await makeShop(t, cookie);
    const model = await joinedModel(t, cookie, shop);
    const pivots: Pivot[] = [
      {
        key: 'bycustomer',
        name: 'By customer',
        filters: [],
        rows: [
          { column: modelKey(model, 'Customer'), sort: { direction: 'Ascending', valueIndex: null }, grain: null },
        ],
        columns: [],
        values: [{ column: modelKey(model, 'Amount'), function: 'Sum', showAs: 'Default', displayName: null }],
        showRowTotals: true,
        showColumnTotals: true,
        chart: null,
      },
    ];
    ok(await api<Model>(t, cookie, 'PUT', `/api/models/${model.id}/pivots`, { pivots }));
    ok(await api<Model>(t, cookie, 'POST', `/api/models/${model.id}/publish`));

    const run = await definitionAndRun(t, team.accountId, team.owner.userId);
    const { env, logs } = await runEnv(t, team.accountId, team.owner.userId, run);
    const options = await exportReport.inputOptions(env, configured('ExportReport', {}));
    expect(options.source).toEqual(
      expect.arrayContaining([
        { value: `StaticTable:${shop.orders.id}`, label: 'Orders', group: 'Tables' },
        { value: `Model:${model.id}`, label: 'Sales', group: 'Models' },
        { value: `Pivot:${model.id}:bycustomer`, label: 'Sales › By customer', group: 'Pivots' },
      ]),
    );
    expect(options.format?.map((o) => o.value)).toEqual(['CSV', 'XLSX', 'Parquet', 'PDF']);
    expect(
      exportReport.validate(configured('ExportReport', { source: `StaticTable:${shop.orders.id}`, format: 'CSV' })),
    ).toBe('Report name is required.');
    expect(
      exportReport.validate(
        configured('ExportReport', { source: 'x', format: 'CSV', name: 'n', shareLink: true, expiresInDays: 3 }),
      ),
    ).toBe('Link expiry is never, 1, 7, 30 or 365 days.');

    const step = configured('ExportReport', {
      source: `StaticTable:${shop.orders.id}`,
      format: 'CSV',
      name: 'Orders 2026-03-04',
      shareLink: true,
      expiresInDays: '7',
    });
    const preview = await exportReport.preview(env, step);
    expect(preview.summary).toBe('Would save Orders as Orders 2026-03-04.csv with a public link.');
    expect(preview.table?.rowCount).toBe(4);
    expect(await t.deps.db.selectFrom('files').select('id').execute()).toEqual([]); // no file from a preview

    const output = await exportReport.run(env, step);
    expect(output).toMatchObject({ fileName: 'Orders 2026-03-04.csv', rowCount: 4 });
    expect(output.downloadUrl).toBe(`http://localhost:3000/files/${output.fileId}`);
    expect(String(output.publicUrl)).toMatch(/^http:\/\/localhost:3000\/.+/);
    const file = await t.services.files.get(env.ctx, output.fileId as string);
    expect(file).toMatchObject({
      status: 'Ready',
      originEntityType: 'Automation',
      originEntityTypeId: run.definitionId,
      shared: true,
      downloadUrl: output.publicUrl,
    });
    const csv = parseCsv((await bytesOf((await t.services.files.download(env.ctx, file.id)).stream)).toString('utf8'));
    expect(csv[0]?.map((c) => c.text)).toEqual(['order_id', 'customer_id', 'amount', 'placed']);
    expect(csv).toHaveLength(5);
    // No "Report ready" notification: the run shows the file.
    expect(
      await t.deps.db.selectFrom('notifications').select('id').where('kind', '=', 'ReportReady').execute(),
    ).toEqual([]);

    // The same attempt resumed: the same file, not a second one; the link is not made again.
    expect(await exportReport.run(env, step)).toEqual(output);
    expect(await t.deps.db.selectFrom('files').select('id').execute()).toHaveLength(1);
    expect(logs.some((l) => l.message === 'Resuming with the report made before a restart.')).toBe(true);

    // A pivot as XLSX.
    const second = await runEnv(t, team.accountId, team.owner.userId, run, 'step-2');
    const pivot = await exportReport.run(
      second.env,
      configured('ExportReport', { source: `Pivot:${model.id}:bycustomer`, format: 'XLSX', name: 'By customer' }),
    );
    expect(pivot).toMatchObject({ fileName: 'By customer.xlsx', publicUrl: null });
    const sheet = await readXlsx(
      await bytesOf((await t.services.files.download(env.ctx, pivot.fileId as string)).stream),
    );
    const cells = sheet.flat().map((c) => String(c.value));
    expect(cells).toEqual(expect.arrayContaining(['Ada', 'Bob']));

    // A model never published cannot be exported.
    const draft = ok(await api<Model>(t, cookie, 'POST', '/api/models', { name: 'Draft only' }), 201);
    const third = await runEnv(t, team.accountId, team.owner.userId, run, 'step-3');
    expect(
      await failureOf(
        exportReport.run(
          third.env,
          configured('ExportReport', { source: `Model:${draft.id}`, format: 'CSV', name: 'x' }),
        ),
      ),
    ).toEqual({ type: 'ConfigError', message: 'Draft only has no published version to export.' });

    // Started but never recorded, and no file made: the server stopped first; a retry makes it.
    const fourth = await runEnv(t, team.accountId, team.owner.userId, run, 'step-4');
    await t.deps.db
      .insertInto('automation_side_effects')
      .values({
        key: `${fourth.env.idempotencyKey}:report`,
        run_id: run.runId,
        step_id: 'step-4',
        state: 'Started',
        result: null,
        created_at: t.deps.clock().toISOString(),
        updated_at: t.deps.clock().toISOString(),
      })
      .execute();
    const lost = await failureOf(
      exportReport.run(
        fourth.env,
        configured('ExportReport', { source: `Model:${model.id}`, format: 'CSV', name: 'Lost' }),
      ),
    );
    expect(lost.type).toBe('TransientError');
  });
});
