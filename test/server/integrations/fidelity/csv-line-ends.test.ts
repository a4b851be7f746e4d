/**
 * CSV files users make whose rows end in more than one way (CRLF rows and a last row ending in LF,
 * as an export appended to by another tool leaves them): an SFTP file and an e-mail attachment land
 * whole, as a static table's import reads them (csv-line-ends.ts). A line break inside a quoted
 * value keeps its own bytes, and "" stays an empty text apart from an empty field (null).
 */
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeApp, signIn } from '../../helpers';
import {
  api,
  createIntegration,
  definitionNamed,
  expectCompleted,
  ok,
  selectDatasets,
  syncNow,
  type Integration,
} from '../helpers';
import { startSftp, type SftpPeer } from '../peers/sftp';
import { sftpIntegration } from './sftp-integration';
import { apiRows } from './exports';

const CONTENT = 'id,name,note\r\n1,a,""\r\n2,"two\r\nlines",\r\n3,c,x\n';
const ROWS = [
  [1, 'a', ''],
  [2, 'two\r\nlines', null],
  [3, 'c', 'x'],
];

describe('CSV files with mixed row ends', () => {
  let peer: SftpPeer;

  beforeAll(async () => {
    peer = await startSftp();
    await mkdir(path.join(peer.root, 'data'));
    await writeFile(path.join(peer.root, 'data', 'mixed.csv'), CONTENT);
  });
  afterAll(() => peer?.close());

  it('SFTP: every row lands with its values as written', async () => {
    const t = await makeApp({ CONNECTOR_PRIVATE_NETWORKS: 'true' });
    const cookie = await signIn(t, 'owner@example.com');
    const created = await sftpIntegration(t, cookie, peer, {
      name: 'mixed',
      folder: '/data',
      pattern: '*.csv',
      format: 'csv',
    });
    await selectDatasets(t, cookie, created.id, { mixed: { syncType: 'FullRefresh', dataIngestionType: 'Overwrite' } });
    expectCompleted(await syncNow(t, cookie, created.id));
    const detail = ok(await api<Integration>(t, cookie, 'GET', `/api/integrations/${created.id}`));
    const rows = await apiRows(t, cookie, detail.datasets[0]!.id, 'id');
    expect(rows.map((r) => [r.id, r.name, r.note])).toEqual(ROWS);
  });

  it('e-mail: the attachment lands with its values as written', async () => {
    const t = await makeApp();
    const cookie = await signIn(t, 'owner@example.com');
    const definition = await definitionNamed(t, cookie, 'Incoming e-mail');
    const inbox = ok(
      await createIntegration(t, cookie, { integrationDefinitionId: definition.id, name: 'in', schemaName: 'inbox' }),
      201,
    );
    const file = path.join(t.dataDir, 'mixed.csv');
    await writeFile(file, CONTENT);
    expect(
      await t.services.integrations.receiveAttachment({
        address: inbox.emailAddress!,
        fileName: 'mixed.csv',
        contentType: 'text/csv',
        path: file,
      }),
    ).toEqual({ stored: true, dataset: 'mixed', rows: 3 });
    const detail = ok(await api<Integration>(t, cookie, 'GET', `/api/integrations/${inbox.id}`));
    const rows = await apiRows(t, cookie, detail.datasets[0]!.id, 'id');
    expect(rows.map((r) => [r.id, r.name, r.note])).toEqual(ROWS);
  });
});
