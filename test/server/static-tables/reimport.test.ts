import { describe, expect, it } from 'vitest';
import type { Model } from '../../../src/shared/models';
import type { CsvImportAnswer } from '../../../src/shared/static-tables';
import { expectError, type CallResult, type TestApp } from '../helpers';
import { api, addColumn, createModel, modelKey, named, rawColumn, versionRows } from '../models/helpers';
import {
  appWithTeam,
  getTable,
  infiniteScroll,
  keyOf,
  ok,
  tableFromCsv,
  uploadCsv,
  type Row,
  type StaticTable,
} from './helpers';

const REMOVED = 'A column has been removed from the model. Please select another column.';

const SALES_CSV =
  'id,region,amount,sold on\n' +
  '1,North,10,Jan 5 2024\n' +
  '2,South,25.5,Jan 6 2024\n' +
  '3,North,4,Feb 1 2024\n' +
  '4,East,100,Feb 3 2024\n';

interface Setup {
  t: TestApp;
  cookie: string;
  table: StaticTable;
  model: Model;
}

/**
 * A table from a CSV file, and a published model on it: raw columns, a function column, a saved
 * filter (amount > 5), a sort and a pivot with a filter of its own.
 */
async function tableWithModel(): Promise<Setup> {
  const { t, team } = await appWithTeam();
  const cookie = team.owner.cookie;
  const table = await tableFromCsv(t, cookie, SALES_CSV, 'Sales');
  const created = await createModel(t, cookie, 'Sales model');
  await addColumn(t, cookie, created.id, rawColumn(table, 'id', 'Id'));
  await addColumn(t, cookie, created.id, rawColumn(table, 'region', 'Region'));
  await addColumn(t, cookie, created.id, rawColumn(table, 'sold on', 'Sold on'));
  let model = await addColumn(t, cookie, created.id, rawColumn(table, 'amount', 'Amount'));
  const amount = modelKey(model, 'Amount');
  model = await addColumn(t, cookie, model.id, { displayName: 'Doubled', function: `[${amount}] * 2` });
  ok(
    await api(t, cookie, 'PUT', `/api/models/${model.id}/filter_groups`, {
      filterGroups: [{ filters: [{ columnKey: amount, operator: 'GreaterThan', value: 5 }] }],
    }),
  );
  ok(
    await api(t, cookie, 'PUT', `/api/models/${model.id}/sort`, {
      sort: [{ columnKey: amount, direction: 'Descending' }],
    }),
  );
  ok(
    await api(t, cookie, 'PUT', `/api/models/${model.id}/pivots`, {
      pivots: [
        {
          key: 'pv01',
          name: 'By region',
          rows: [{ column: modelKey(model, 'Region') }],
          columns: [],
          values: [{ column: amount, function: 'Sum' }],
          filters: [{ column: modelKey(model, 'Id'), operator: 'LessThan', value: 4 }],
          showRowTotals: true,
          showColumnTotals: true,
        },
      ],
    }),
  );
  model = ok(await api<Model>(t, cookie, 'POST', `/api/models/${model.id}/publish`));
  return { t, cookie, table, model };
}

const modelRows = async ({ t, cookie, model }: Setup) => named(model, await versionRows(t, cookie, model.versionId));

async function pivotCells({ t, cookie, model }: Setup): Promise<unknown[][]> {
  const page = ok(
    await api<{ rows: { cells: Record<string, unknown> }[]; layout: { columns: { key: string }[] } }>(
      t,
      cookie,
      'POST',
      `/api/tables/ModelVersion/${model.versionId}/resources/pv01/Pivot/data/infinite-scroll`,
      { page: 1 },
    ),
  );
  return page.rows.map((r) => page.layout.columns.map((c) => r.cells[c.key]));
}

async function reimport(setup: Setup, csv: string): Promise<CsvImportAnswer> {
  return ok(await uploadCsv(setup.t, setup.cookie, setup.table.id, csv)) as CsvImportAnswer;
}

const keysOf = (table: StaticTable) => Object.fromEntries(table.columns.map((c) => [c.displayName, c.columnKey]));

/** Every call a user or a script makes on a model, and on its version. */
function modelCalls({ model }: Setup): ['GET' | 'POST' | 'PUT', string, unknown?][] {
  const version = model.versionId;
  return [
    ['GET', `/api/models/${model.id}`],
    ['GET', `/api/models/${model.id}?draft=true`],
    ['GET', '/api/models'],
    ['GET', `/api/models/${model.id}/versions`],
    ['GET', `/api/models/versions/${version}`],
    ['GET', `/api/models/${model.id}/sources`],
    ['GET', '/api/tables?types=ModelVersion'],
    ['GET', `/api/tables/ModelVersion/${version}`],
    ['POST', `/api/tables/ModelVersion/${version}/data/infinite-scroll`, { page: 1, pageSize: 50 }],
    ['POST', `/api/tables/ModelVersion/${version}/data/infinite-scroll`, { page: 1, pageSize: 50, withCount: true }],
    ['POST', `/api/tables/ModelVersion/${version}/data/count`, {}],
    ['GET', `/api/tables/ModelVersion/${version}/download?format=csv`],
    ['GET', `/api/models/versions/${version}/export?format=csv`],
    ['POST', `/api/tables/ModelVersion/${version}/resources/pv01/Pivot/data/infinite-scroll`, { page: 1 }],
    ['GET', `/api/models/${model.id}/export/pivot?pivotKey=pv01&format=csv`],
    ['GET', `/api/models/${model.id}/export/pivot?pivotKey=pv01&format=xlsx`],
    ['POST', `/api/models/${version}/validate-function`, { function: '1 + 1' }],
    ['PUT', `/api/models/${version}/set-active`],
    ['POST', `/api/models/${model.id}/publish`],
  ];
}

describe('re-importing a CSV file into a static table', () => {
  it('keeps every column key, so the model, its pivot and its saved filter answer the same rows', async () => {
    const setup = await tableWithModel();
    const { t, cookie, table } = setup;
    const rowsBefore = await modelRows(setup);
    expect(rowsBefore.map((r) => [r.Id, r.Amount, r.Doubled, r['Sold on']])).toEqual([
      [4, 100, 200, '2024-02-03'],
      [2, 25.5, 51, '2024-01-06'],
      [1, 10, 20, '2024-01-05'],
    ]);
    const pivotBefore = await pivotCells(setup);
    // The model's filter (amount > 5) and the pivot's (id < 4) both apply.
    expect(pivotBefore).toEqual([
      ['North', 10],
      ['South', 25.5],
      [null, 35.5],
    ]);

    const answer = await reimport(setup, SALES_CSV);
    expect(answer.columns).toEqual(table.columns);
    expect(answer.removedColumns).toEqual([]);
    expect(answer.addedColumns).toEqual([]);
    expect(answer.dateFormats).toEqual([
      { columnKey: keyOf(table, 'sold on'), displayName: 'sold on', type: 'Date', format: 'MMM D YYYY' },
    ]);
    const after = await getTable(t, cookie, table.id);
    expect(keysOf(after)).toEqual(keysOf(table));

    expect(await modelRows(setup)).toEqual(rowsBefore);
    expect(await pivotCells(setup)).toEqual(pivotBefore);
    const current = ok(await api<Model>(t, cookie, 'GET', `/api/models/${setup.model.id}`));
    expect(current.errors.hasBreakingErrors).toBe(false);
    expect(current.columns.map((c) => c.error)).toEqual([null, null, null, null, null]);
    // The table's own grid filter, saved in a link as a column key, still applies.
    const filtered = ok(
      await infiniteScroll(t, cookie, table.id, {
        page: 1,
        pageSize: 10,
        filterGroups: [{ filters: [{ columnKey: keyOf(table, 'region'), operator: 'Equals', value: 'North' }] }],
      }),
    );
    expect(filtered.data.map((r: Row) => r[keyOf(table, 'id')])).toEqual([1, 3]);
  });

  it('matches headers ignoring case and runs of spaces, keeping descriptions and the name in the file', async () => {
    const setup = await tableWithModel();
    const { t, cookie, table } = setup;
    ok(
      await api(t, cookie, 'POST', `/api/static-tables/${table.id}/changes`, {
        changes: [{ kind: 'updateColumn', columnKey: keyOf(table, 'region'), description: 'Sales region' }],
      }),
    );
    const csv = SALES_CSV.replace('id,region,amount,sold on', ' ID ,REGION,Amount,sold  on');
    const answer = await reimport(setup, csv);
    expect(answer.columns.map((c) => [c.displayName, c.columnKey, c.description])).toEqual([
      ['ID', keyOf(table, 'id'), null],
      ['REGION', keyOf(table, 'region'), 'Sales region'],
      ['Amount', keyOf(table, 'amount'), null],
      ['sold  on', keyOf(table, 'sold on'), null],
    ]);
    expect(answer.removedColumns).toEqual([]);
    expect((await modelRows(setup)).map((r) => r.Amount)).toEqual([100, 25.5, 10]);
  });

  it('shows a column missing from the file as removed in the model; no call on it answers 500', async () => {
    const setup = await tableWithModel();
    const { t, cookie, table, model } = setup;
    const amountKey = keyOf(table, 'amount');
    const answer = await reimport(setup, 'id,region,sold on\n1,North,Jan 5 2024\n2,South,Jan 6 2024\n');
    expect(answer.removedColumns).toEqual([{ columnKey: amountKey, displayName: 'amount' }]);
    expect(answer.columns.map((c) => c.columnKey)).toEqual([
      keyOf(table, 'id'),
      keyOf(table, 'region'),
      keyOf(table, 'sold on'),
    ]);

    const shown = ok(await api<Model>(t, cookie, 'GET', `/api/models/${model.id}`));
    expect(shown.errors.hasBreakingErrors).toBe(true);
    expect(shown.errors.texts).toContain(`${REMOVED} (${amountKey})`);
    const amount = shown.columns.find((c) => c.displayName === 'Amount');
    expect(amount?.error).toEqual({ message: `${REMOVED} (${amountKey})`, missingColumnKeys: [amountKey] });

    for (const [method, url, body] of modelCalls(setup)) {
      const res: CallResult = await api(t, cookie, method, url, body);
      expect(res.status, `${method} ${url}: ${JSON.stringify(res.body)}`).toBeLessThan(500);
      if (res.status >= 400) expect(expectError(res, res.status), url).not.toBe('');
    }
    // The data calls say why, in the spec's words.
    for (const url of [
      `/api/tables/ModelVersion/${model.versionId}/data/infinite-scroll`,
      `/api/tables/ModelVersion/${model.versionId}/data/count`,
      `/api/tables/ModelVersion/${model.versionId}/resources/pv01/Pivot/data/infinite-scroll`,
    ]) {
      expect(expectError(await api(t, cookie, 'POST', url, { page: 1 }), 400)).toContain(REMOVED);
    }
    for (const url of [
      `/api/models/versions/${model.versionId}/export?format=csv`,
      `/api/models/${model.id}/export/pivot?pivotKey=pv01&format=csv`,
    ]) {
      expect(expectError(await api(t, cookie, 'GET', url), 400)).toContain(REMOVED);
    }
    // The model can still be edited: the broken column removed, its dependents then name it as removed.
    ok(await api(t, cookie, 'PUT', `/api/models/${model.id}`, { name: 'Sales model 2' }));
    const without = ok(
      await api<Model>(t, cookie, 'DELETE', `/api/models/${model.id}/columns/${modelKey(model, 'Amount')}`),
    );
    expect(without.columns.find((c) => c.displayName === 'Doubled')?.error?.missingColumnKeys).toEqual([
      modelKey(model, 'Amount'),
    ]);
    // The grid of the table, with a filter on the column that is gone: a clear 400, not a 500.
    const stale = await infiniteScroll(t, cookie, table.id, {
      page: 1,
      pageSize: 10,
      filterGroups: [{ filters: [{ columnKey: amountKey, operator: 'GreaterThan', value: 1 }] }],
    });
    expect(expectError(stale, 400)).toBe(`Unknown column "${amountKey}"`);
  });

  it('answers a model reading the broken model with that model’s message, not a 500', async () => {
    const setup = await tableWithModel();
    const { t, cookie, model } = setup;
    const reader = await createModel(t, cookie, 'Reader');
    const readerModel = await addColumn(t, cookie, reader.id, {
      displayName: 'Region',
      sourceColumn: { sourceId: model.versionId, sourceType: 'ModelVersion', columnKey: modelKey(model, 'Region') },
    });
    const published = ok(await api<Model>(t, cookie, 'POST', `/api/models/${readerModel.id}/publish`));
    expect((await versionRows(t, cookie, published.versionId)).length).toBe(3);

    await reimport(setup, 'id,region,sold on\n1,North,Jan 5 2024\n');
    for (const versionId of [published.versionId]) {
      const res = await api(t, cookie, 'POST', `/api/tables/ModelVersion/${versionId}/data/infinite-scroll`, {});
      expect(expectError(res, 400)).toBe(`Sales model (v1): ${REMOVED} (${keyOf(setup.table, 'amount')})`);
    }
    const count = await api(t, cookie, 'POST', `/api/tables/ModelVersion/${published.versionId}/data/count`, {});
    expect(expectError(count, 400)).toContain(REMOVED);
  });

  it('treats a renamed column as removed and gives an added column a new key', async () => {
    const setup = await tableWithModel();
    const { t, cookie, table, model } = setup;
    const answer = await reimport(setup, 'id,region,Revenue,sold on,channel\n1,North,10,Jan 5 2024,web\n');
    const before = keysOf(table);
    const after = keysOf(await getTable(t, cookie, table.id));
    expect(after.id).toBe(before.id);
    expect(after.region).toBe(before.region);
    expect(after['sold on']).toBe(before['sold on']);
    expect(Object.values(before)).not.toContain(after.Revenue);
    expect(Object.values(before)).not.toContain(after.channel);
    expect(answer.removedColumns).toEqual([{ columnKey: before.amount, displayName: 'amount' }]);
    expect(answer.addedColumns.map((c) => c.displayName)).toEqual(['Revenue', 'channel']);
    const shown = ok(await api<Model>(t, cookie, 'GET', `/api/models/${model.id}`));
    expect(shown.errors.texts).toContain(`${REMOVED} (${before.amount})`);
    const rows = await api(t, cookie, 'POST', `/api/tables/ModelVersion/${model.versionId}/data/infinite-scroll`, {});
    expect(expectError(rows, 400)).toContain(REMOVED);
  });

  it('keeps a column’s type where the new values fit it, and says so when they do not', async () => {
    const setup = await tableWithModel();
    const { t, cookie, table } = setup;
    // Amounts that are whole numbers still read as a number.
    let answer = await reimport(setup, 'id,region,amount,sold on\n7,North,10,Jan 5 2024\n');
    expect(answer.columns.map((c) => c.type)).toEqual(['Number', 'Text', 'Number', 'Date']);
    expect(answer.notes).toEqual([]);
    // A Text column whose values now look like numbers stays Text, with the text exactly as written.
    answer = await reimport(setup, 'id,region,amount,sold on\n1,0042,10,Jan 5 2024\n');
    expect(answer.columns.map((c) => c.type)).toEqual(['Number', 'Text', 'Number', 'Date']);
    const rows = (await getTable(t, cookie, table.id)).rows;
    expect(rows.map((r) => r[keyOf(table, 'region')])).toEqual(['0042']);
    // ISO dates in a Date column stay dates; a Date column holding text becomes Text, with a note.
    answer = await reimport(setup, 'id,region,amount,sold on\n1,North,n/a,soon\n');
    expect(answer.columns.map((c) => [c.columnKey, c.type])).toEqual([
      [keyOf(table, 'id'), 'Number'],
      [keyOf(table, 'region'), 'Text'],
      [keyOf(table, 'amount'), 'Text'],
      [keyOf(table, 'sold on'), 'Text'],
    ]);
    expect(answer.notes).toEqual([
      {
        columnKey: keyOf(table, 'amount'),
        displayName: 'amount',
        message: 'It was Number and is now Text: not every value in the file is a number as written (such as "n/a").',
      },
      {
        columnKey: keyOf(table, 'sold on'),
        displayName: 'sold on',
        message: 'It was Date and is now Text: not every value in the file is a date as written (such as "soon").',
      },
    ]);
    // The model says which formula no longer fits, without a 500.
    const shown = await api<Model>(t, cookie, 'GET', `/api/models/${setup.model.id}`);
    expect(shown.status).toBe(200);
    const rowsCall = await api(
      t,
      cookie,
      'POST',
      `/api/tables/ModelVersion/${setup.model.versionId}/data/infinite-scroll`,
      {},
    );
    expect(rowsCall.status).toBeLessThan(500);
  });

  it('keeps every value as written: a Number column holding 007 becomes Text naming it, a Text column stays Text', async () => {
    const { t, team } = await appWithTeam();
    const cookie = team.owner.cookie;
    const table = await tableFromCsv(t, cookie, 'id,note,at\n1,plain,10:00:00\n2,text,11:00:00\n', 'Codes');
    expect(table.columns.map((c) => c.type)).toEqual(['Number', 'Text', 'Text']);
    // A time of day is Text, read as written: DuckDB's TIME would cut nanoseconds and respell 7:05.
    expect(table.rows.map((r) => r[keyOf(table, 'at')])).toEqual(['10:00:00', '11:00:00']);
    const answer = ok(
      await uploadCsv(t, cookie, table.id, 'id,note,at\n1,Jan 1 2000,10:00\n007,Feb 2 2000,7:05:00.123456789\n'),
    ) as CsvImportAnswer;
    expect(answer.columns.map((c) => c.type)).toEqual(['Text', 'Text', 'Text']);
    expect(answer.notes).toEqual([
      {
        columnKey: keyOf(table, 'id'),
        displayName: 'id',
        message: 'It was Number and is now Text: not every value in the file is a number as written (such as "007").',
      },
    ]);
    const after = await getTable(t, cookie, table.id);
    expect(after.rows.map((r) => [r[keyOf(table, 'id')], r[keyOf(table, 'note')], r[keyOf(table, 'at')]])).toEqual([
      ['1', 'Jan 1 2000', '10:00'],
      ['007', 'Feb 2 2000', '7:05:00.123456789'],
    ]);
  });

  it('gives a new table’s blank columns the types found in the file', async () => {
    const { t, team } = await appWithTeam();
    const cookie = team.owner.cookie;
    const blank = ok(
      await api<{ id: string }>(t, cookie, 'POST', '/api/static-tables', {
        name: 'T',
        columns: [{ displayName: 'A' }, { displayName: 'B' }],
        rows: [[null, null]],
      }),
      201,
    );
    const answer = ok(await uploadCsv(t, cookie, blank.id, 'A,B\n1,2024-01-05\n')) as CsvImportAnswer;
    expect(answer.columns.map((c) => [c.displayName, c.type])).toEqual([
      ['A', 'Number'],
      ['B', 'Date'],
    ]);
  });
});
