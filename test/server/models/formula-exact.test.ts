/**
 * Function columns over exact numbers and dates through the models API: a BIGINT past 2^53 and a
 * DECIMAL(38,6) keep every digit through NULL branches, rounding and literals; DATE_DIFF counts weeks.
 */
import { describe, expect, it } from 'vitest';
import { appWithTeam, tableFromCsv } from '../static-tables/helpers';
import { addColumn, createModel, modelKey, rawColumn, versionRows } from './helpers';

const CSV =
  'id,big,dec,d\n1,9007199254740993,99999999999999.999999,2024-01-07\n2,9223372036854775807,0.1,2023-12-31\n' +
  '3,-9223372036854775808,0.2,2000-01-01\n4,1,0.3,2024-01-08\n';

/** Each formula's value per row id, from one model holding them all as function columns. */
async function evaluate(formulas: Record<string, string>): Promise<Record<string, Record<number, unknown>>> {
  const { t, team } = await appWithTeam();
  const cookie = team.owner.cookie;
  const table = await tableFromCsv(t, cookie, CSV, 'Exact');
  const created = await createModel(t, cookie, 'Exact');
  for (const name of ['id', 'big', 'dec', 'd']) await addColumn(t, cookie, created.id, rawColumn(table, name));
  let model = created;
  for (const [displayName, formula] of Object.entries(formulas)) {
    model = await addColumn(t, cookie, created.id, { displayName, function: formula });
  }
  const rows = await versionRows(t, cookie, model.versionId!);
  const id = modelKey(model, 'id');
  return Object.fromEntries(
    Object.keys(formulas).map((name) => {
      const key = modelKey(model, name);
      return [name, Object.fromEntries(rows.map((row) => [Number(row[id]), row[key]]))];
    }),
  );
}

describe('exact numbers in function columns', () => {
  it('keep every digit through NULL, rounding, literals and week counts', async () => {
    const values = await evaluate({
      coalesce: 'COALESCE([big], NULL)',
      ifNull: 'IF(ISBLANK([big]), NULL, [big])',
      decimal: 'COALESCE(NULL, [dec])',
      floor: 'FLOOR([big])',
      ceil: 'CEIL([big])',
      round: 'ROUND([big], -1)',
      minus: '[big] - 9007199254740992',
      text: 'TO_TEXT(9007199254740993)',
      above: '[dec] > 99999999999999.99999',
      mod: 'TO_TEXT(MOD([dec], 0.1))',
      weeks: "DATE_DIFF('week', [d], DATE(2024, 1, 8))",
    });
    expect(values['coalesce']![1]).toBe('9007199254740993');
    expect(values['ifNull']![1]).toBe('9007199254740993');
    expect(values['decimal']![1]).toBe('99999999999999.999999');
    expect(values['floor']![1]).toBe('9007199254740993');
    expect(values['ceil']![1]).toBe('9007199254740993');
    // Safe integers come back as JSON numbers, larger ones as text.
    expect(Object.values(values['round']!).map(String)).toEqual([
      '9007199254740990',
      '9223372036854775810',
      '-9223372036854775810',
      '0',
    ]);
    expect(String(values['minus']![1])).toBe('1');
    expect(values['text']![1]).toBe('9007199254740993');
    expect(values['above']).toEqual({ 1: true, 2: false, 3: false, 4: false });
    expect(values['mod']).toEqual({ 1: '0.099999', 2: '0', 3: '0', 4: '0' });
    expect(values['weeks']).toEqual({ 1: 1, 2: 2, 3: 1254, 4: 0 });
  });

  it('read a UTC offset and an era from text', async () => {
    const values = await evaluate({
      offset: "TO_DATETIME('2024-01-01T10:00:00+05:00')",
      finer: "TO_DATETIME('2024-01-01T10:00:00.1234567')",
      era: "TO_DATE('0044-03-15 BC')",
    });
    expect(values['offset']![1]).toBe('2024-01-01T05:00:00.000Z');
    expect(values['finer']![1]).toBeNull();
    expect(values['era']![1]).toBe('-000043-03-15');
  });

  it('convert a Text column (castTo) as TO_DATETIME, TO_DATE and TO_NUMBER read it', async () => {
    const { t, team } = await appWithTeam();
    const cookie = team.owner.cookie;
    const table = await tableFromCsv(
      t,
      cookie,
      'id,at,day,n\n1,2024-01-01T10:00:00+05:00,0044-03-15 BC,1_000\n2,2024-01-01 10:00:00,2024-01-01,12.5\n3,soon,someday,x\n',
      'Texts',
    );
    const created = await createModel(t, cookie, 'Casts');
    await addColumn(t, cookie, created.id, rawColumn(table, 'id'));
    // Text columns: a word among the dates and numbers keeps each as text.
    await addColumn(t, cookie, created.id, { ...rawColumn(table, 'at'), castTo: 'DateTime' });
    await addColumn(t, cookie, created.id, { ...rawColumn(table, 'day'), castTo: 'Date' });
    const model = await addColumn(t, cookie, created.id, { ...rawColumn(table, 'n'), castTo: 'Number' });
    const rows = await versionRows(t, cookie, model.versionId!);
    const cells = rows.map((row) => ['id', 'at', 'day', 'n'].map((name) => row[modelKey(model, name)]));
    expect(cells).toEqual([
      [1, '2024-01-01T05:00:00.000Z', '-000043-03-15', null],
      [2, '2024-01-01T10:00:00.000Z', '2024-01-01', 12.5],
      [3, null, null, null],
    ]);
  });
});
