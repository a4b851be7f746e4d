import { describe, expect, it } from 'vitest';
import { formulaForDisplay } from '../../../src/shared/formula-text';
import type { Model, ValidateFunctionResult } from '../../../src/shared/models';
import { expectError } from '../helpers';
import { appWithTeam, ok } from '../static-tables/helpers';
import { addColumn, api, joinedModel, makeShop, modelKey, named, versionRows } from './helpers';

describe('formulas by column name', () => {
  it('adds a column written with display names, stores keys, and survives a rename', async () => {
    const { t, team } = await appWithTeam();
    const cookie = team.owner.cookie;
    const model = await joinedModel(t, cookie, await makeShop(t, cookie));
    const amount = modelKey(model, 'Amount');

    const withTax = await addColumn(t, cookie, model.id, {
      displayName: 'With tax',
      function: 'ROUND([Amount] * 1.2, 2)',
    });
    const column = withTax.columns.find((c) => c.displayName === 'With tax')!;
    expect(column.function).toBe(`ROUND([${amount}] * 1.2, 2)`);
    expect(column.dependentColumnKeys).toEqual([amount]);
    const rows = named(
      withTax,
      await versionRows(t, cookie, withTax.versionId, { sorting: [{ columnKey: modelKey(model, 'Order') }] }),
    );
    expect(rows.map((r) => r['With tax'])).toEqual([30.6, 12, 5.4, 120]);

    const renamed = ok(
      await api<Model>(t, cookie, 'PUT', `/api/models/${model.id}/columns/${amount}`, { displayName: 'Net amount' }),
    );
    const after = renamed.columns.find((c) => c.displayName === 'With tax')!;
    expect(after.function).toBe(column.function);
    expect(after.error).toBeNull();
    expect(formulaForDisplay(after.function!, renamed.columns)).toBe('ROUND([Net amount] * 1.2, 2)');
    const again = named(
      renamed,
      await versionRows(t, cookie, renamed.versionId, { sorting: [{ columnKey: modelKey(model, 'Order') }] }),
    );
    expect(again.map((r) => r['With tax'])).toEqual([30.6, 12, 5.4, 120]);

    // Editing with the new name keeps the stored form.
    const edited = ok(
      await api<Model>(t, cookie, 'PUT', `/api/models/${model.id}/columns/${column.columnKey}`, {
        function: 'ROUND([net AMOUNT] * 1.5, 1)',
      }),
    );
    expect(edited.columns.find((c) => c.columnKey === column.columnKey)?.function).toBe(`ROUND([${amount}] * 1.5, 1)`);
  });

  it('refuses an unknown or ambiguous name with one message naming it and its position', async () => {
    const { t, team } = await appWithTeam();
    const cookie = team.owner.cookie;
    const model = await joinedModel(t, cookie, await makeShop(t, cookie));
    expect(
      expectError(
        await api(t, cookie, 'POST', `/api/models/${model.id}/columns`, {
          displayName: 'X',
          function: 'ROUND([amout] * 1.2, 2)',
        }),
        400,
      ),
    ).toBe('Unknown column [amout] at position 7');

    const check = async (formula: string) =>
      ok(
        await api<ValidateFunctionResult>(t, cookie, 'POST', `/api/models/${model.versionId}/validate-function`, {
          function: formula,
        }),
      );
    expect(await check('ROUND([amout] * 1.2, 2)')).toMatchObject({
      valid: false,
      message: 'Unknown column [amout] at position 7',
      start: 6,
      end: 13,
    });
    // A type error found in the stored form points into the text as typed.
    expect(await check('[Customer] * 2')).toMatchObject({ valid: false, start: 0, end: 14 });
    expect(await check('[Amount] * 2')).toMatchObject({ valid: true, type: 'Number' });

    // Two columns named alike: the name is ambiguous until one is renamed.
    await addColumn(t, cookie, model.id, { displayName: 'Amount', function: '[Order] + 0' });
    expect(await check('[Amount] * 2')).toMatchObject({
      valid: false,
      message:
        'The name [Amount] at position 1 is ambiguous: 2 columns are named Amount. Rename one of them under Edit existing columns.',
    });
  });
});

describe('draft steps', () => {
  it('undoes the draft one change at a time, redoes, and the first undo after publish goes back to it', async () => {
    const { t, team } = await appWithTeam();
    const cookie = team.owner.cookie;
    const model = await joinedModel(t, cookie, await makeShop(t, cookie));
    expect(model.undoLabel).toBe('Add column Doubled');
    const published = ok(await api<Model>(t, cookie, 'POST', `/api/models/${model.id}/publish`));
    expect(published.undoLabel).toBeNull();

    const customer = modelKey(model, 'Customer');
    const renamed = ok(
      await api<Model>(t, cookie, 'PUT', `/api/models/${model.id}/columns/${customer}`, { displayName: 'Buyer' }),
    );
    expect(renamed.undoLabel).toBe('Rename column Customer to Buyer');
    const removed = ok(
      await api<Model>(t, cookie, 'DELETE', `/api/models/${model.id}/columns/${modelKey(model, 'Order')}`),
    );
    expect(removed.undoLabel).toBe('Remove column Order');
    expect(removed.columns.map((c) => c.displayName)).toEqual(['Amount', 'Buyer', 'Doubled']);

    const undone = ok(await api<Model>(t, cookie, 'POST', `/api/models/${model.id}/undo`));
    expect(undone.columns.map((c) => c.displayName)).toEqual(['Order', 'Amount', 'Buyer', 'Doubled']);
    expect(undone.undoLabel).toBe('Rename column Customer to Buyer');
    expect(undone.redoLabel).toBe('Remove column Order');
    // The history is the server's: a reload reads the same.
    const reloaded = ok(await api<Model>(t, cookie, 'GET', `/api/models/${model.id}?draft=true`));
    expect([reloaded.undoLabel, reloaded.redoLabel]).toEqual([undone.undoLabel, undone.redoLabel]);

    const redone = ok(await api<Model>(t, cookie, 'POST', `/api/models/${model.id}/redo`));
    expect(redone.columns.map((c) => c.displayName)).toEqual(['Amount', 'Buyer', 'Doubled']);
    const back = ok(await api<Model>(t, cookie, 'POST', `/api/models/${model.id}/undo`));
    expect(back.redoLabel).toBe('Remove column Order');

    // A new change clears what could be redone.
    const sorted = ok(
      await api<Model>(t, cookie, 'PUT', `/api/models/${model.id}/sort`, { sort: [{ columnKey: customer }] }),
    );
    expect([sorted.undoLabel, sorted.redoLabel]).toEqual(['Change sort', null]);
    ok(await api<Model>(t, cookie, 'POST', `/api/models/${model.id}/undo`));

    // Undoing the change that made the draft discards it: back to the published version.
    const clean = ok(await api<Model>(t, cookie, 'POST', `/api/models/${model.id}/undo`));
    expect(clean.hasUnpublishedChanges).toBe(false);
    expect(clean.status).toBe('Active');
    expect(clean.columns.map((c) => c.displayName)).toEqual(['Order', 'Amount', 'Customer', 'Doubled']);
    expect(expectError(await api(t, cookie, 'POST', `/api/models/${model.id}/undo`), 400)).toBe(
      'There is no change to undo.',
    );
    expectError(await api(t, team.readOnly.cookie, 'POST', `/api/models/${model.id}/undo`), 403);
  });

  it('shows SQL with display names, while the published view keeps keys', async () => {
    const { t, team } = await appWithTeam();
    const cookie = team.owner.cookie;
    const model = await joinedModel(t, cookie, await makeShop(t, cookie));
    expect(model.viewSql).toContain('AS "Amount"');
    expect(model.viewSql).toContain('AS "Doubled"');
    expect(model.viewSql).not.toContain(`AS "${modelKey(model, 'Amount')}"`);
    const published = ok(await api<Model>(t, cookie, 'POST', `/api/models/${model.id}/publish`));
    const rows = await versionRows(t, cookie, published.versionId);
    expect(Object.keys(rows[0]!)).toEqual(expect.arrayContaining([modelKey(model, 'Amount')]));
  });
});
