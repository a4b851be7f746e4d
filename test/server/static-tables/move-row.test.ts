import { describe, expect, it } from 'vitest';
import { call, expectError, makeApp, signIn, type TestApp } from '../helpers';
import { appWithTeam, createTable, getTable, infiniteScroll, mutation, ok, trpcOk, type Row } from './helpers';

async function setup(rowCount: number) {
  const t = await makeApp();
  const cookie = await signIn(t, 'owner@example.com');
  const table = await createTable(t, cookie, {
    name: 'Ordered',
    columns: [{ displayName: 'Label', columnKey: 'label' }],
    rows: Array.from({ length: rowCount }, (_, i) => [`r${i + 1}`]),
  });
  return { t, cookie, table };
}

function postChanges(t: TestApp, cookie: string, id: string, changes: unknown[]) {
  return call(t.server, 'POST', `/api/static-tables/${id}/changes`, { cookie, body: { changes } });
}

/** Labels in row order, and each row's id, as GET answers them. */
async function order(t: TestApp, cookie: string, id: string): Promise<{ labels: unknown[]; ids: unknown[] }> {
  const { rows } = await getTable(t, cookie, id);
  return { labels: rows.map((r) => r.label), ids: rows.map((r) => r._row_id) };
}

describe('moveRow change', () => {
  it('moves a row up and down one place by taking the id of its neighbour', async () => {
    const { t, cookie, table } = await setup(4);
    ok(await postChanges(t, cookie, table.id, [{ kind: 'moveRow', rowId: 3, toRowId: 2 }]));
    expect(await order(t, cookie, table.id)).toEqual({ labels: ['r1', 'r3', 'r2', 'r4'], ids: [1, 2, 3, 4] });
    ok(await postChanges(t, cookie, table.id, [{ kind: 'moveRow', rowId: 1, toRowId: 2 }]));
    expect((await order(t, cookie, table.id)).labels).toEqual(['r3', 'r1', 'r2', 'r4']);
  });

  it('moves a row before a row far above it or after one far below, shifting the rows between', async () => {
    const { t, cookie, table } = await setup(6);
    ok(await postChanges(t, cookie, table.id, [{ kind: 'moveRow', rowId: 5, toRowId: 2 }]));
    expect((await order(t, cookie, table.id)).labels).toEqual(['r1', 'r5', 'r2', 'r3', 'r4', 'r6']);
    ok(await postChanges(t, cookie, table.id, [{ kind: 'moveRow', rowId: 1, toRowId: 6 }]));
    expect(await order(t, cookie, table.id)).toEqual({
      labels: ['r5', 'r2', 'r3', 'r4', 'r6', 'r1'],
      ids: [1, 2, 3, 4, 5, 6],
    });
  });

  it('is undone by the move back, and works across the gaps deleted rows leave', async () => {
    const { t, cookie, table } = await setup(6);
    ok(await postChanges(t, cookie, table.id, [{ kind: 'deleteRows', rowIds: [3, 4] }]));
    const before = await order(t, cookie, table.id);
    expect(before).toEqual({ labels: ['r1', 'r2', 'r5', 'r6'], ids: [1, 2, 5, 6] });
    // Up one place past the gap: r5 takes the id of r2, the row above it in the order.
    ok(await postChanges(t, cookie, table.id, [{ kind: 'moveRow', rowId: 5, toRowId: 2 }]));
    expect((await order(t, cookie, table.id)).labels).toEqual(['r1', 'r5', 'r2', 'r6']);
    ok(await postChanges(t, cookie, table.id, [{ kind: 'moveRow', rowId: 2, toRowId: 5 }]));
    expect(await order(t, cookie, table.id)).toEqual(before);
  });

  it('keeps pages exact after a move: every row once, in the new order', async () => {
    const { t, cookie, table } = await setup(120);
    ok(await postChanges(t, cookie, table.id, [{ kind: 'moveRow', rowId: 110, toRowId: 5 }]));
    const labels: unknown[] = [];
    for (let page = 1; page <= 3; page++) {
      const res = ok(await infiniteScroll(t, cookie, table.id, { page, pageSize: 50 }));
      labels.push(...res.data.map((r: Row) => r.label));
    }
    const expected = Array.from({ length: 120 }, (_, i) => `r${i + 1}`);
    expected.splice(109, 1);
    expected.splice(4, 0, 'r110');
    expect(labels).toEqual(expected);
  });

  it('runs in one transaction with other changes, also when a column is added', async () => {
    const { t, cookie, table } = await setup(3);
    const res = ok(
      await postChanges(t, cookie, table.id, [
        { kind: 'addColumn', column: { displayName: 'Note', columnKey: 'note' } },
        { kind: 'cells', edits: [{ rowId: 3, columnKey: 'note', value: 'was third' }] },
        { kind: 'moveRow', rowId: 3, toRowId: 1 },
      ]),
    );
    expect(res).toMatchObject({ rowCount: 3 });
    const { rows } = await getTable(t, cookie, table.id);
    expect(rows).toEqual([
      { _row_id: 1, label: 'r3', note: 'was third' },
      { _row_id: 2, label: 'r1', note: null },
      { _row_id: 3, label: 'r2', note: null },
    ]);
  });

  it('refuses a row that does not exist, changing nothing', async () => {
    const { t, cookie, table } = await setup(3);
    const message = expectError(
      await postChanges(t, cookie, table.id, [
        { kind: 'moveRow', rowId: 1, toRowId: 3 },
        { kind: 'moveRow', rowId: 9, toRowId: 1 },
      ]),
      400,
    );
    expect(message).toBe('Row 9 does not exist.');
    expect((await order(t, cookie, table.id)).labels).toEqual(['r1', 'r2', 'r3']);
    expectError(await postChanges(t, cookie, table.id, [{ kind: 'moveRow', rowId: 0, toRowId: 1 }]), 400);
  });

  it('is a write: refused to a read_only member, allowed through tRPC to a writer', async () => {
    const { t, team } = await appWithTeam();
    const table = await createTable(t, team.owner.cookie, {
      name: 'Team',
      columns: [{ displayName: 'Label', columnKey: 'label' }],
      rows: [['a'], ['b']],
    });
    const move = { id: table.id, changes: [{ kind: 'moveRow', rowId: 2, toRowId: 1 }] };
    const refused = await mutation(t, 'staticTables.change', move, team.readOnly.cookie);
    expect(refused.status).toBe(403);
    trpcOk(await mutation(t, 'staticTables.change', move, team.admin.cookie));
    expect((await getTable(t, team.owner.cookie, table.id)).rows.map((r) => r.label)).toEqual(['b', 'a']);
  });
});
