/**
 * Filters on PostgreSQL columns the grid shows as Text compare the text the grid shows (the tables
 * API's values): intervals as ISO 8601 durations, bytea as base64, times with a zone with their full
 * offset. Every operator is checked against the same comparison made on the API's own values.
 */
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Paged } from '../../../../src/shared/tables';
import { makeApp, signIn } from '../../helpers';
import { api, expectCompleted, ok, selectDatasets, syncNow, type Integration } from '../helpers';
import { adminClient, findPostgresBin, startPostgres, type PostgresPeer } from '../peers/postgres';
import { postgresIntegration } from './postgres-integration';
import { apiRows, type Row } from './exports';

const bin = findPostgresBin();

const COLUMNS = ['span', 'raw', 'ttz', 't', 'uid'] as const;

describe.skipIf(!bin)('filters on PostgreSQL columns shown as text', () => {
  let peer: PostgresPeer;
  let admin: pg.Client;

  beforeAll(async () => {
    peer = await startPostgres();
    admin = await adminClient(peer);
    await admin.query(`
      CREATE TABLE shown_text (id int PRIMARY KEY, span interval, raw bytea, ttz timetz, t time, uid uuid);
      INSERT INTO shown_text VALUES
        (1, '1 day', '\\x00ff10', '10:00:00+05', '10:00:00', 'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11'),
        (2, '1 year 2 mons 3 days 04:05:06.789', '\\x', '10:00:00+05:30', '24:00:00', '00000000-0000-0000-0000-000000000001'),
        (3, '-1 days +00:00:01', '\\x616263', '23:59:59.999999-15:59', '00:00:00.000001', NULL),
        (4, '0', NULL, '00:00:00+00', NULL, 'ffffffff-ffff-ffff-ffff-ffffffffffff'),
        (5, NULL, '\\xfbff', NULL, '12:30:00.5', '00000000-0000-0000-0000-000000000002'),
        (6, '-178000000 years', '\\x00', '12:00:00-03', '23:59:59.999999', NULL);`);
  }, 120_000);

  afterAll(async () => {
    await admin?.end();
    await peer?.stop();
  });

  it('every operator compares the text the grid shows', async () => {
    const t = await makeApp({ CONNECTOR_PRIVATE_NETWORKS: 'true' });
    const cookie = await signIn(t, 'owner@example.com');
    const created = await postgresIntegration(t, cookie, peer, { name: 'shown' });
    await selectDatasets(t, cookie, created.id, {
      shown_text: { syncType: 'FullRefresh', dataIngestionType: 'Overwrite' },
    });
    expectCompleted(await syncNow(t, cookie, created.id));
    const detail = ok(await api<Integration>(t, cookie, 'GET', `/api/integrations/${created.id}`));
    const datasetId = detail.datasets.find((d) => d.name === 'shown_text')!.id;
    const rows = await apiRows(t, cookie, datasetId, 'id');
    expect(rows.map((r) => r.span)).toEqual(['P1D', 'P1Y2M3DT4H5M6.789S', 'P-1DT1S', 'PT0S', null, 'P-178000000Y']);

    const filtered = async (columnKey: string, operator: string, value: string) => {
      const answer = ok(
        await api<Paged<Row>>(t, cookie, 'POST', `/api/tables/IntegrationDataset/${datasetId}/data/infinite-scroll`, {
          page: 1,
          pageSize: 100,
          sorting: [{ columnKey: 'id', direction: 'Ascending' }],
          filterGroups: [{ filters: [{ columnKey, operator, value }] }],
        }),
      );
      return answer.data.map((r) => r.id);
    };
    const ids = (keep: (shown: string | null) => boolean) =>
      rows.filter((r) => keep(r[column] as string | null)).map((r) => r.id);
    let column: (typeof COLUMNS)[number] = 'span';
    for (column of COLUMNS) {
      for (const row of rows) {
        const shown = row[column] as string | null;
        if (shown === null || shown === '') continue;
        const where = `${column} ${shown}`;
        expect(await filtered(column, 'Equals', shown), `${where} Equals`).toEqual(ids((v) => v === shown));
        expect(await filtered(column, 'NotEquals', shown), `${where} NotEquals`).toEqual(ids((v) => v !== shown));
        expect(await filtered(column, 'GreaterThan', shown), `${where} GreaterThan`).toEqual(
          ids((v) => v !== null && v > shown),
        );
        expect(await filtered(column, 'LessThanOrEquals', shown), `${where} LessThanOrEquals`).toEqual(
          ids((v) => v !== null && v <= shown),
        );
        if (column === 'uid') {
          // PostgreSQL reads a uuid in any case: one typed or pasted in upper case finds its row.
          const upper = shown.toUpperCase();
          expect(await filtered(column, 'Equals', upper), `${where} Equals in upper case`).toEqual(
            ids((v) => v === shown),
          );
          expect(await filtered(column, 'GreaterThan', upper), `${where} GreaterThan in upper case`).toEqual(
            ids((v) => v !== null && v > shown),
          );
        }
        const part = shown.slice(1, 4);
        expect(await filtered(column, 'Contains', part), `${column} Contains ${part}`).toEqual(
          ids((v) => v !== null && v.toLowerCase().includes(part.toLowerCase())),
        );
        expect(await filtered(column, 'NotContains', part), `${column} NotContains ${part}`).toEqual(
          ids((v) => v === null || !v.toLowerCase().includes(part.toLowerCase())),
        );
      }
    }
  });
});
