/**
 * PostgreSQL tables whose schema or table names hold dots or quotes: each is its own dataset under
 * a name no other table has (`"a.b".c` and `a."b.c"`, the public `"x.y"` and `x.y` of schema x),
 * and each dataset reads its own table's rows. A dataset discovered under the former name (`v1.2`,
 * which no other table had) keeps its selection, state and rows when discovery names it anew.
 */
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeApp, signIn, type TestApp } from '../../helpers';
import { api, expectCompleted, ok, selectDatasets, syncNow, type DatasetsResponse, type Integration } from '../helpers';
import { adminClient, findPostgresBin, startPostgres, type PostgresPeer } from '../peers/postgres';
import { postgresIntegration } from './postgres-integration';
import { apiRows } from './exports';

const bin = findPostgresBin();

describe.skipIf(!bin)('PostgreSQL schema and table names with dots and quotes', () => {
  let peer: PostgresPeer;
  let admin: pg.Client;

  beforeAll(async () => {
    peer = await startPostgres();
    admin = await adminClient(peer);
    await admin.query(`
      CREATE SCHEMA "a.b"; CREATE TABLE "a.b".c (id int PRIMARY KEY, src text);
      INSERT INTO "a.b".c VALUES (1, 'schema a.b, table c');
      CREATE SCHEMA a; CREATE TABLE a."b.c" (id int PRIMARY KEY, src text);
      INSERT INTO a."b.c" VALUES (2, 'schema a, table b.c');
      CREATE SCHEMA x; CREATE TABLE x.y (id int PRIMARY KEY, src text);
      INSERT INTO x.y VALUES (3, 'schema x, table y');
      CREATE TABLE public."x.y" (id int PRIMARY KEY, src text);
      INSERT INTO public."x.y" VALUES (4, 'public, table x.y');
      CREATE SCHEMA "q""s"; CREATE TABLE "q""s"."t ""1""" (id int PRIMARY KEY, src text);
      INSERT INTO "q""s"."t ""1""" VALUES (5, 'schema q"s, table t "1"');
      CREATE TABLE plain (id int PRIMARY KEY, src text);
      INSERT INTO plain VALUES (6, 'public, table plain');
      CREATE TABLE "v1.2" (id int PRIMARY KEY, src text);
      INSERT INTO "v1.2" VALUES (7, 'public, table v1.2');`);
  }, 120_000);

  afterAll(async () => {
    await admin?.end();
    await peer?.stop();
  });

  async function integration(t: TestApp, cookie: string) {
    const created = await postgresIntegration(t, cookie, peer, { name: 'names' });
    return created;
  }

  const NAMES: Record<string, string> = {
    '"a.b".c': 'schema a.b, table c',
    'a."b.c"': 'schema a, table b.c',
    'x.y': 'schema x, table y',
    '"x.y"': 'public, table x.y',
    '"q""s"."t ""1"""': 'schema q"s, table t "1"',
    plain: 'public, table plain',
    '"v1.2"': 'public, table v1.2',
  };

  it('each table is a dataset of its own name, and reads its own rows', async () => {
    const t = await makeApp({ CONNECTOR_PRIVATE_NETWORKS: 'true' });
    const cookie = await signIn(t, 'owner@example.com');
    const created = await integration(t, cookie);
    const found = ok(await api<DatasetsResponse>(t, cookie, 'GET', `/api/integrations/${created.id}/datasets`));
    expect(found.status, String(found.message)).toBe('Loaded');
    expect(found.datasets.map((d) => d.name).sort()).toEqual(Object.keys(NAMES).sort());
    await selectDatasets(
      t,
      cookie,
      created.id,
      Object.fromEntries(
        Object.keys(NAMES).map((name) => [name, { syncType: 'FullRefresh', dataIngestionType: 'Overwrite' }]),
      ),
    );
    expectCompleted(await syncNow(t, cookie, created.id));
    const detail = ok(await api<Integration>(t, cookie, 'GET', `/api/integrations/${created.id}`));
    for (const [name, src] of Object.entries(NAMES)) {
      const dataset = detail.datasets.find((d) => d.name === name);
      expect(dataset, name).toBeDefined();
      expect(
        (await apiRows(t, cookie, dataset!.id, 'id')).map((r) => r.src),
        name,
      ).toEqual([src]);
    }
  });

  it('a dataset discovered under the former name keeps its choices when discovery names it anew', async () => {
    const t = await makeApp({ CONNECTOR_PRIVATE_NETWORKS: 'true' });
    const cookie = await signIn(t, 'owner@example.com');
    const created = await integration(t, cookie);
    await selectDatasets(t, cookie, created.id, {
      '"v1.2"': { syncType: 'FullRefresh', dataIngestionType: 'AppendDedup' },
    });
    expectCompleted(await syncNow(t, cookie, created.id));
    // As discovered before names were quoted.
    await t.deps.db
      .updateTable('integration_datasets')
      .set({ name: 'v1.2' })
      .where('integration_id', '=', created.id)
      .where('name', '=', '"v1.2"')
      .execute();
    ok(await api<DatasetsResponse>(t, cookie, 'POST', `/api/integrations/${created.id}/refresh-dataset`));
    await t.services.integrations.idle();
    const found = ok(await api<DatasetsResponse>(t, cookie, 'GET', `/api/integrations/${created.id}/datasets`));
    expect(found.status, String(found.message)).toBe('Loaded');
    const renamed = found.datasets.find((d) => d.name === '"v1.2"');
    expect(renamed).toMatchObject({ isSelected: true, dataIngestionType: 'AppendDedup' });
    expect(found.datasets.some((d) => d.name === 'v1.2')).toBe(false);
    expect((await apiRows(t, cookie, renamed!.id, 'id')).map((r) => r.src)).toEqual(['public, table v1.2']);
    expectCompleted(await syncNow(t, cookie, created.id));
    expect((await apiRows(t, cookie, renamed!.id, 'id')).map((r) => r.src)).toEqual(['public, table v1.2']);
  });
});
