import { describe, expect, it } from 'vitest';
import { LIMITS, WEBHOOK_LIMITS } from '../../../src/shared/limits';
import { listen, type TestApp } from '../helpers';
import { appWithTeam } from '../static-tables/helpers';
import { api, createIntegration, datasetRows, definitionNamed, ok, type Integration } from './helpers';

/** A Webhook integration whose 'records' dataset holds two rows with the columns id and name. */
async function hookWithData(t: TestApp, cookie: string) {
  const definition = await definitionNamed(t, cookie, 'Webhook');
  const hook = ok(
    await createIntegration(t, cookie, { integrationDefinitionId: definition.id, name: 'Hooks', schemaName: 'hooks' }),
    201,
  );
  const base = await listen(t);
  const post = async (body: string) => {
    const res = await fetch(`${base}${hook.webhookUrl}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body,
    });
    return { status: res.status, message: ((await res.json()) as { message?: string }).message };
  };
  expect(
    (
      await post(
        JSON.stringify([
          { id: 1, name: 'a' },
          { id: 2, name: 'b' },
        ]),
      )
    ).status,
  ).toBe(200);
  const dataset = async () => {
    const detail = ok(await api<Integration>(t, cookie, 'GET', `/api/integrations/${hook.id}`));
    const records = detail.datasets.find((d) => d.name === 'records')!;
    const rows = await datasetRows(t, cookie, records.id, { sorting: [] });
    const described = ok(
      await api<{ columns: { columnKey: string }[] }>(t, cookie, 'GET', `/api/tables/IntegrationDataset/${records.id}`),
    );
    return { rows, columns: described.columns.map((c) => c.columnKey) };
  };
  return {
    hook,
    post,
    dataset,
    accountId: (
      await t.deps.db
        .selectFrom('integrations')
        .select('account_id')
        .where('id', '=', hook.id)
        .executeTakeFirstOrThrow()
    ).account_id,
  };
}

const fields = (count: number, prefix = 'k') =>
  Object.fromEntries(Array.from({ length: count }, (_, i) => [`${prefix}${i}`, i]));
/** A record whose objects nest `levels` deep (the record itself is level 1). */
const nested = (levels: number): unknown => {
  let value: unknown = 1;
  for (let i = 0; i < levels; i += 1) value = { a: value };
  return value;
};

describe('webhook limits', () => {
  const over: Array<[string, () => unknown, RegExp]> = [
    [
      'too many records',
      () => Array.from({ length: WEBHOOK_LIMITS.maxRecords + 1 }, (_, i) => ({ id: i })),
      /^The body holds 10001 records; a webhook call can carry at most 10000\./,
    ],
    [
      'too many fields in a record',
      () => fields(LIMITS.maxColumns + 1),
      /^Record 1 has 501 fields; a record can have at most 500\.$/,
    ],
    [
      'too many different fields in the call',
      () => [fields(300, 'a'), fields(300, 'b')],
      /^The records have more than 500 different fields; a dataset can have at most 500 columns\.$/,
    ],
    [
      'more new fields than the dataset has room for',
      () => fields(LIMITS.maxColumns - 1),
      /^The records add 499 new fields to the 2 columns of the dataset; a dataset can have at most 500 columns\.$/,
    ],
    [
      'a field name too long',
      () => ({ ['x'.repeat(256)]: 1 }),
      /^Record 1 has a field name of 256 characters; field names can be at most 255\.$/,
    ],
    ['a field without a name', () => [{ id: 3 }, { '': 1 }], /^Record 2 has a field without a name\.$/],
    [
      'two fields of one record differing only in case',
      () => [{ id: 3 }, { id: 4, Name: 'x', name: 'y' }],
      /^Record 2 has the fields "Name" and "name", which name the same column: column names do not differ by case\.$/,
    ],
    [
      'nesting deeper than the webhook limit',
      () => nested(WEBHOOK_LIMITS.maxDepth + 1),
      /^Record 1 is nested too deeply; records can be nested at most 16 levels\.$/,
    ],
    [
      'a text value too long',
      () => ({ id: 3, note: 'x'.repeat(WEBHOOK_LIMITS.maxStringLength + 1) }),
      /^Record 1 has a text value of 65537 characters; values can be at most 65536 characters\.$/,
    ],
  ];

  it.each(over)(
    'refuses %s with a 400 naming the limit, without the lock, leaving the dataset as it was',
    async (_, body, message) => {
      const { t, team } = await appWithTeam();
      const cookie = team.owner.cookie;
      const { post, dataset, accountId } = await hookWithData(t, cookie);
      const before = await dataset();
      // The dataset's lock is held by someone else: a refused body must not wait for it.
      let release = () => {};
      const held = new Promise<void>((resolve) => (release = resolve));
      const holding = t.deps.warehouse.forAccount(accountId).exclusive('table:hooks.records', () => held);
      const started = Date.now();
      const refused = await post(JSON.stringify(body()));
      expect(refused.status).toBe(400);
      expect(refused.message).toMatch(message);
      expect(Date.now() - started).toBeLessThan(2_000);
      release();
      await holding;
      // Nothing changed, and a valid call right after is stored promptly.
      expect(await dataset()).toEqual(before);
      const at = Date.now();
      expect((await post(JSON.stringify({ id: 3, name: 'c' }))).status).toBe(200);
      expect(Date.now() - at).toBeLessThan(2_000);
      expect((await dataset()).rows.map((r) => r.id)).toEqual([1, 2, 3]);
    },
  );

  it("stores fields that differ from a column only in case in that column, and new ones under the call's first spelling", async () => {
    const { t, team } = await appWithTeam();
    const { post, dataset } = await hookWithData(t, team.owner.cookie);
    expect(
      (
        await post(
          JSON.stringify([
            { ID: 3, Name: 'c', Note: 'first' },
            { id: 4, NAME: 'd', note: 'second' },
          ]),
        )
      ).status,
    ).toBe(200);
    const { rows, columns } = await dataset();
    expect(columns).toEqual(['id', 'name', 'Note']);
    expect(rows.map((r) => [r.id, r.name, r.Note])).toEqual([
      [1, 'a', null],
      [2, 'b', null],
      [3, 'c', 'first'],
      [4, 'd', 'second'],
    ]);
  });

  it('takes a call that fills the dataset to exactly the column limit', async () => {
    const { t, team } = await appWithTeam();
    const { post, dataset } = await hookWithData(t, team.owner.cookie);
    const started = Date.now();
    expect((await post(JSON.stringify(fields(LIMITS.maxColumns - 2)))).status).toBe(200);
    expect(Date.now() - started).toBeLessThan(10_000);
    expect((await dataset()).columns).toHaveLength(LIMITS.maxColumns);
    expect(await post(JSON.stringify({ one: 'more' }))).toEqual({
      status: 400,
      message:
        'The records add 1 new fields to the 500 columns of the dataset; a dataset can have at most 500 columns.',
    });
    expect((await dataset()).rows).toHaveLength(3);
  });

  it('refuses a body over its size limit with a 413 naming it, and any JSON nested past the app limit', async () => {
    const { t, team } = await appWithTeam();
    const { post, dataset } = await hookWithData(t, team.owner.cookie);
    const before = await dataset();
    const big = JSON.stringify(Array.from({ length: 20 }, (_, i) => ({ id: i, note: 'x'.repeat(60_000) })));
    expect(await post(big)).toEqual({
      status: 413,
      message: 'The body is over the limit of 1 MB for one webhook call. Send the records in several calls.',
    });
    const deep = `{"a":${'['.repeat(100_000)}${']'.repeat(100_000)}}`;
    expect(await post(deep)).toEqual({
      status: 400,
      message: `The JSON body is nested more than ${LIMITS.jsonMaxDepth} levels deep.`,
    });
    expect(await dataset()).toEqual(before);
    // Up to the limits is fine: a record nested exactly as deep as allowed, a text value exactly as long.
    const deepest = { id: 3, tree: nested(WEBHOOK_LIMITS.maxDepth - 1) };
    expect((await post(JSON.stringify(deepest))).status).toBe(200);
    expect((await post(JSON.stringify({ id: 4, note: 'x'.repeat(WEBHOOK_LIMITS.maxStringLength) }))).status).toBe(200);
  });
});
