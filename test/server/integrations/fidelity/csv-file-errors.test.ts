/**
 * CSV files users make (SFTP files, e-mail attachments) that DuckDB cannot read: the run log and the
 * discovery say why in the words a static table's import uses (csv-errors.ts), not DuckDB's first
 * line ("CSV Error on Line: 2") or a claim that the file is not CSV as written. A Latin-1 file is
 * the common case (Excel's "CSV" on Windows).
 */
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeApp, signIn, type TestApp } from '../../helpers';
import {
  api,
  createIntegration,
  definitionNamed,
  logsOf,
  ok,
  selectDatasets,
  syncNow,
  type Integration,
  type Job,
} from '../helpers';
import { startSftp, type SftpPeer } from '../peers/sftp';
import { sftpIntegration } from './sftp-integration';

const NOT_UTF8 = (line: number) =>
  `The file is not UTF-8 encoded (invalid characters on line ${line}). Save it as UTF-8 CSV and try again.`;
/** Rows past what discovery's sniffer samples, so only the load meets the Latin-1 one. */
const LATER = 25_000;

describe('CSV files that cannot be read say why', () => {
  let peer: SftpPeer;

  beforeAll(async () => {
    peer = await startSftp();
    for (const folder of ['early', 'late']) await mkdir(path.join(peer.root, folder));
    await writeFile(path.join(peer.root, 'early', 'people.csv'), Buffer.from('id,name\n1,Jos\xe9\n', 'latin1'));
    const rows = Array.from({ length: LATER }, (_, i) => `${i + 1},Name ${i + 1}`);
    await writeFile(
      path.join(peer.root, 'late', 'people.csv'),
      Buffer.concat([Buffer.from(`id,name\n${rows.join('\n')}\n`), Buffer.from(`${LATER + 1},M\xfcller\n`, 'latin1')]),
    );
  });
  afterAll(() => peer?.close());

  async function sftp(t: TestApp, cookie: string, folder: string): Promise<Integration> {
    const created = await sftpIntegration(t, cookie, peer, {
      name: folder,
      folder: `/${folder}`,
      pattern: '*.csv',
      format: 'csv',
    });
    return ok(await api<Integration>(t, cookie, 'GET', `/api/integrations/${created.id}`));
  }

  it('SFTP: a file not UTF-8 in its first rows fails discovery, saying so', async () => {
    const t = await makeApp({ CONNECTOR_PRIVATE_NETWORKS: 'true' });
    const cookie = await signIn(t, 'owner@example.com');
    const integration = await sftp(t, cookie, 'early');
    expect(integration.discovery).toEqual({
      status: 'Error',
      message: `Failed to discover datasets: people.csv is not readable as csv: ${NOT_UTF8(2)}`,
    });
  });

  it('SFTP: a file not UTF-8 after the rows discovery read fails the sync, saying so', async () => {
    const t = await makeApp({ CONNECTOR_PRIVATE_NETWORKS: 'true' });
    const cookie = await signIn(t, 'owner@example.com');
    const integration = await sftp(t, cookie, 'late');
    await selectDatasets(t, cookie, integration.id, {
      people: { syncType: 'FullRefresh', dataIngestionType: 'Overwrite' },
    });
    const run = await syncNow(t, cookie, integration.id);
    expect(run.status).toBe('Failed');
    expect(run.logs).toContain(
      `[ERROR] people: ConfigError: A file could not be read: ${NOT_UTF8(LATER + 2)} Its previous data is unchanged.`,
    );
  });

  it('e-mail: an attachment not UTF-8 is refused, saying so', async () => {
    const t = await makeApp();
    const cookie = await signIn(t, 'owner@example.com');
    const definition = await definitionNamed(t, cookie, 'Incoming e-mail');
    const inbox = ok(
      await createIntegration(t, cookie, { integrationDefinitionId: definition.id, name: 'in', schemaName: 'inbox' }),
      201,
    );
    const file = path.join(t.dataDir, 'people.csv');
    await writeFile(file, Buffer.from('id,name\n1,Jos\xe9\n', 'latin1'));
    const answer = await t.services.integrations.receiveAttachment({
      address: inbox.emailAddress!,
      fileName: 'people.csv',
      contentType: 'text/csv',
      path: file,
    });
    expect(answer).toEqual({ stored: false, reason: NOT_UTF8(2) });
    const jobs = ok(await api<{ data: Job[] }>(t, cookie, 'GET', `/api/integrations/${inbox.id}/jobs`)).data;
    const lines = (await logsOf(t, cookie, inbox.id, jobs[0]!.id)).map((l) => l.line);
    expect(lines).toContain(
      `[ERROR] people.csv: could not be loaded: ${NOT_UTF8(2)} The dataset's previous data is unchanged.`,
    );
  });
});
