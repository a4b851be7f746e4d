/**
 * Synonyms users add (tRPC queries.addSynonym/synonyms/removeSynonym) reach the grammar: a word for
 * a table or a column is understood in the next question. Read-only members cannot add them, and a
 * table of another account cannot be named.
 */
import { describe, expect, it } from 'vitest';
import { answerQuestion } from '../../../src/server/modules/queries/answer';
import { makeApp, makeTeam } from '../helpers';
import { createTable, keyOf, mutation, query } from '../static-tables/helpers';
import type { CallResult } from '../helpers';

const TODAY = new Date('2026-03-04T10:00:00Z');

describe('query synonyms', () => {
  it('a word added for a table and for a column is understood; read-only members cannot add', async () => {
    const t = await makeApp();
    const team = await makeTeam(t);
    const table = await createTable(t, team.owner.cookie, {
      name: 'invoices',
      columns: [{ displayName: 'customer' }, { displayName: 'state' }],
      rows: [
        ['Acme', 'paid'],
        ['Globex', 'open'],
      ],
    });
    const user = await t.deps.db
      .selectFrom('users')
      .selectAll()
      .where('id', '=', team.owner.userId)
      .executeTakeFirstOrThrow();
    const env = { deps: t.deps, services: t.services, ctx: { user, accountId: team.accountId, roles: ['owner'] } };

    expect((await answerQuestion(env, 'how many bills', { today: TODAY })).result).toBeNull();
    const refused = (await mutation(
      t,
      'queries.addSynonym',
      { word: 'bills', tableType: 'StaticTable', tableId: table.id },
      team.readOnly.cookie,
    )) as CallResult;
    expect(refused.status).toBe(403);

    const added = (await mutation(
      t,
      'queries.addSynonym',
      { word: 'bills', tableType: 'StaticTable', tableId: table.id },
      team.owner.cookie,
    )) as CallResult;
    expect(added.status).toBe(200);
    await mutation(
      t,
      'queries.addSynonym',
      { word: 'client', tableType: 'StaticTable', tableId: table.id, columnKey: keyOf(table, 'customer') },
      team.owner.cookie,
    );

    const bills = await answerQuestion(env, 'how many bills', { today: TODAY });
    expect(bills.reading).toBe('Count of invoices, from invoices');
    const clients = await answerQuestion(env, 'bills by client', { today: TODAY });
    expect(clients.reading).toBe('Count of invoices by customer, from invoices');

    const listed = (await query(t, 'queries.synonyms', undefined, team.readOnly.cookie)) as CallResult<{
      result: { data: { word: string }[] };
    }>;
    expect(listed.body.result.data.map((s) => s.word)).toEqual(['bills', 'client']);
  });

  it('a table of another account cannot be named', async () => {
    const t = await makeApp();
    const team = await makeTeam(t);
    const res = (await mutation(
      t,
      'queries.addSynonym',
      { word: 'bills', tableType: 'StaticTable', tableId: 'not-mine' },
      team.owner.cookie,
    )) as CallResult;
    expect(res.status).toBe(404);
  });
});
