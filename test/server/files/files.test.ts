import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { FILE_MESSAGES, type FileInfo, type FilePage, type SharedLink } from '../../../src/shared/files';
import { call, expectError, makeApp, makeTeam, trpcMutation, trpcQuery, type Team, type TestApp } from '../helpers';

const DAY = 24 * 60 * 60_000;

async function setup(): Promise<{ t: TestApp; team: Team }> {
  const t = await makeApp({ SIGNUP: 'open' });
  return { t, team: await makeTeam(t) };
}

/** A Ready report made through the service, as Save as report does. */
async function report(
  t: TestApp,
  team: Team,
  name = 'Sales.csv',
  contents: Buffer = Buffer.from('a,b\n1,2\n'),
  origin: 'Model' | 'StaticTable' | 'Automation' = 'Model',
): Promise<string> {
  const { id } = await t.services.files.createReport({
    accountId: team.accountId,
    userId: team.owner.userId,
    name,
    contentType: 'text/csv',
    originEntityType: origin,
    originEntityTypeId: 'm1',
  });
  expect(await t.services.files.completeReport(id, Readable.from([contents]))).toBe(true);
  return id;
}

async function share(t: TestApp, cookie: string, id: string, expiresAt: unknown): Promise<SharedLink> {
  const res = await call<SharedLink>(t.server, 'POST', `/api/files/${id}/shared`, { cookie, body: { expiresAt } });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body;
}

function tokenOf(link: SharedLink): string {
  return new URL(link.downloadUrl).pathname.split('/').pop()!;
}

const publicDownload = (t: TestApp, token: string) =>
  call(t.server, 'GET', `/api/public/files/shared/${token}/download`, { headers: { origin: '' } });

describe('files: list', () => {
  it('lists reports newest first, pages of 25 by default, filtered by origin and name', async () => {
    const { t, team } = await setup();
    for (let i = 0; i < 27; i++) {
      await report(
        t,
        team,
        `Report ${String(i).padStart(2, '0')}.csv`,
        Buffer.from(`${i}`),
        i % 3 === 0 ? 'StaticTable' : 'Model',
      );
      t.clock.advance(1000);
    }
    await report(t, team, '100%_done.csv');
    const cookie = team.readOnly.cookie;
    const first = await call<FilePage>(t.server, 'GET', '/api/files?type=Report', { cookie });
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ page: 1, pageSize: 25, count: 28, totalPages: 2, hasMore: true });
    expect(first.body.data[0]).toMatchObject({
      name: '100%_done.csv',
      fileSize: 8,
      originEntityType: 'Model',
      originEntityTypeId: 'm1',
      shared: false,
      sharedExpiresAt: null,
      status: 'Ready',
    });
    expect(first.body.data[1]?.name).toBe('Report 26.csv');
    const second = await call<FilePage>(t.server, 'GET', '/api/files?type=Report&Page=2&PageSize=25', { cookie });
    expect(second.body.data.map((f) => f.name)).toEqual(['Report 02.csv', 'Report 01.csv', 'Report 00.csv']);

    const statics = await call<FilePage>(t.server, 'GET', '/api/files?type=Report&EntityType=StaticTable', { cookie });
    expect(statics.body.count).toBe(9);
    expect(statics.body.data.every((f) => f.originEntityType === 'StaticTable')).toBe(true);

    const byName = await call<FilePage>(t.server, 'GET', '/api/files?type=Report&Query=report%2012', { cookie });
    expect(byName.body.data.map((f) => f.name)).toEqual(['Report 12.csv']);
    // LIKE's wildcards in the query match only themselves.
    const wild = await call<FilePage>(t.server, 'GET', '/api/files?Query=%25_', { cookie });
    expect(wild.body.data.map((f) => f.name)).toEqual(['100%_done.csv']);

    const trpc = await trpcQuery<{ result: { data: FilePage } }>(
      t,
      'files.list',
      { query: 'report 0', pageSize: 5 },
      cookie,
    );
    expect(trpc.body.result.data).toMatchObject({ count: 10, pageSize: 5, totalPages: 2 });

    expectError(await call(t.server, 'GET', '/api/files?EntityType=Pivot', { cookie }), 400);
    expectError(await call(t.server, 'GET', '/api/files'), 401);
  });
});

describe('files: downloads and deletion', () => {
  it('downloads with Content-Length and Content-Disposition; deletes contents and links', async () => {
    const { t, team } = await setup();
    const contents = Buffer.from('x,y\n"é",2\n');
    const id = await report(t, team, 'Ventes é.csv', contents);
    const res = await call(t.server, 'GET', `/api/files/${id}/download`, { cookie: team.readOnly.cookie });
    expect(res.status).toBe(200);
    expect(res.raw.rawPayload).toEqual(contents);
    expect(res.headers['content-length']).toBe(String(contents.length));
    expect(res.headers['content-type']).toBe('text/csv');
    expect(res.headers['content-disposition']).toBe(
      `attachment; filename="Ventes _.csv"; filename*=UTF-8''Ventes%20%C3%A9.csv`,
    );

    const link = await share(t, team.owner.cookie, id, null);
    const del = await call(t.server, 'DELETE', `/api/files/${id}`, { cookie: team.admin.cookie });
    expect(del.status).toBe(204);
    expect(await t.deps.files.get(id)).toBeNull();
    expect(
      expectError(await call(t.server, 'GET', `/api/files/${id}/download`, { cookie: team.owner.cookie }), 404),
    ).toBe(FILE_MESSAGES.notFound);
    expectError(await publicDownload(t, tokenOf(link)), 404);
    expectError(await call(t.server, 'DELETE', `/api/files/${id}`, { cookie: team.owner.cookie }), 404);
  });

  it('a Pending report cannot be downloaded or shared; it shows progress, then Ready or Failed', async () => {
    const { t, team } = await setup();
    const { id } = await t.services.files.createReport({
      accountId: team.accountId,
      userId: team.owner.userId,
      name: 'Big.pdf',
      contentType: 'application/pdf',
      originEntityType: 'Automation',
      originEntityTypeId: null,
    });
    await t.services.files.setProgress(id, 42.4);
    const got = await trpcQuery<{ result: { data: FileInfo } }>(t, 'files.get', { id }, team.owner.cookie);
    expect(got.body.result.data).toMatchObject({ status: 'Pending', progress: 42, fileSize: 0 });
    expectError(await call(t.server, 'GET', `/api/files/${id}/download`, { cookie: team.owner.cookie }), 409);
    expectError(await call(t.server, 'POST', `/api/files/${id}/shared`, { cookie: team.owner.cookie, body: {} }), 409);
    await t.services.files.failReport(id, 'Could not draw the chart.');
    expect(
      await t.services.files.get(
        { user: { id: team.owner.userId } as never, accountId: team.accountId, roles: ['owner'] },
        id,
      ),
    ).toMatchObject({
      status: 'Failed',
      error: 'Could not draw the chart.',
    });
  });

  it('a report deleted while it was generated keeps no contents', async () => {
    const { t, team } = await setup();
    const { id } = await t.services.files.createReport({
      accountId: team.accountId,
      userId: null,
      name: 'Gone.csv',
      contentType: 'text/csv',
      originEntityType: 'Automation',
      originEntityTypeId: 'a1',
    });
    expect((await call(t.server, 'DELETE', `/api/files/${id}`, { cookie: team.owner.cookie })).status).toBe(204);
    expect(await t.services.files.completeReport(id, Readable.from([Buffer.from('late')]))).toBe(false);
    expect(await t.deps.files.keys()).toEqual([]);
  });

  it('at start, a Pending report becomes Failed and contents without a row are removed', async () => {
    const { t, team } = await setup();
    const { id } = await t.services.files.createReport({
      accountId: team.accountId,
      userId: team.owner.userId,
      name: 'Interrupted.csv',
      contentType: 'text/csv',
      originEntityType: 'Model',
      originEntityTypeId: 'm1',
    });
    await t.deps.files.put('orphan', Readable.from([Buffer.from('left by a crash')]));
    const kept = await report(t, team);
    await t.services.files.recoverAfterRestart();
    const list = await call<FilePage>(t.server, 'GET', '/api/files', { cookie: team.owner.cookie });
    expect(list.body.data.find((f) => f.id === id)).toMatchObject({
      status: 'Failed',
      error: expect.stringContaining('restarted'),
    });
    expect((await t.deps.files.keys()).sort()).toEqual([kept]);
  });
});

describe('files: public links', () => {
  it('shares for 1 day: downloads signed out, counts each use, and stops after the day', async () => {
    const { t, team } = await setup();
    const contents = Buffer.from('p,q\n3,4\n');
    const id = await report(t, team, 'Shared.csv', contents);
    const now = t.clock.now().getTime();
    const link = await share(t, team.owner.cookie, id, new Date(now + DAY + 5 * 60_000).toISOString());
    // Counted on the server's clock, not the sender's.
    expect(link).toMatchObject({ expiresAt: new Date(now + DAY).toISOString(), downloadCount: 0, lastUsedAt: null });
    expect(link.downloadUrl).toMatch(/^http:\/\/localhost:3000\/download\/[A-Za-z0-9_-]{32}$/);

    const first = await publicDownload(t, tokenOf(link));
    expect(first.status).toBe(200);
    expect(first.raw.rawPayload).toEqual(contents);
    expect(first.headers['content-length']).toBe(String(contents.length));
    expect(first.headers['content-disposition']).toContain('filename="Shared.csv"');
    t.clock.advance(60_000);
    expect((await publicDownload(t, tokenOf(link))).status).toBe(200);

    const head = await t.server.inject({ method: 'HEAD', url: `/api/public/files/shared/${tokenOf(link)}/download` });
    expect(head.statusCode).toBe(200);
    expect(head.headers['content-length']).toBe(String(contents.length));
    const seen = await call<SharedLink>(t.server, 'GET', `/api/files/${id}/shared`, { cookie: team.readOnly.cookie });
    expect(seen.body).toMatchObject({ downloadCount: 2, lastUsedAt: new Date(now + 60_000).toISOString() });
    const listed = await call<FilePage>(t.server, 'GET', '/api/files', { cookie: team.owner.cookie });
    expect(listed.body.data[0]).toMatchObject({
      shared: true,
      sharedExpiresAt: link.expiresAt,
      downloadUrl: link.downloadUrl,
      downloadCount: 2,
    });
    const info = await trpcQuery<{ result: { data: unknown } }>(t, 'files.publicFile', { id: tokenOf(link) });
    expect(info.body.result.data).toEqual({ name: 'Shared.csv', fileSize: contents.length });

    t.clock.advance(DAY - 60_000 - 1);
    expect((await publicDownload(t, tokenOf(link))).status).toBe(200);
    t.clock.advance(1);
    expect(expectError(await publicDownload(t, tokenOf(link)), 404)).toBe(FILE_MESSAGES.notFound);
    expect((await trpcQuery(t, 'files.publicFile', { id: tokenOf(link) })).status).toBe(404);
    expectError(await call(t.server, 'GET', `/api/files/${id}/shared`, { cookie: team.owner.cookie }), 404);
    const after = await call<FilePage>(t.server, 'GET', '/api/files', { cookie: team.owner.cookie });
    expect(after.body.data[0]).toMatchObject({ shared: false, sharedExpiresAt: null, downloadUrl: null });
  });

  it.each([
    [1, DAY],
    [7, 7 * DAY],
    [30, 30 * DAY],
    [365, 365 * DAY],
  ])('expiry of %d days (as a day count) ends the link after exactly that long', async (days, ms) => {
    const { t, team } = await setup();
    const id = await report(t, team);
    const link = await share(t, team.owner.cookie, id, days);
    t.clock.advance(ms - 1);
    expect((await publicDownload(t, tokenOf(link))).status).toBe(200);
    t.clock.advance(1);
    expectError(await publicDownload(t, tokenOf(link)), 404);
  });

  it('a link that never expires still works years later; other expiries are refused', async () => {
    const { t, team } = await setup();
    const id = await report(t, team);
    const now = t.clock.now().getTime();
    for (const bad of [
      2,
      0,
      -1,
      new Date(now + 3 * DAY).toISOString(),
      new Date(now + DAY + 2 * 60 * 60_000).toISOString(),
      'tomorrow',
    ]) {
      const res = await call(t.server, 'POST', `/api/files/${id}/shared`, {
        cookie: team.owner.cookie,
        body: { expiresAt: bad },
      });
      expectError(res, 400);
    }
    const link = await share(t, team.owner.cookie, id, null);
    expect(link.expiresAt).toBeNull();
    t.clock.advance(10 * 365 * DAY);
    expect((await publicDownload(t, tokenOf(link))).status).toBe(200);
  });

  it('revoking stops the address at once; sharing again gives a new address', async () => {
    const { t, team } = await setup();
    const id = await report(t, team);
    const link = await share(t, team.owner.cookie, id, 7);
    expect((await call(t.server, 'DELETE', `/api/files/${id}/shared`, { cookie: team.admin.cookie })).status).toBe(204);
    expect(expectError(await publicDownload(t, tokenOf(link)), 404)).toBe(FILE_MESSAGES.notFound);
    expectError(await call(t.server, 'GET', `/api/files/${id}/shared`, { cookie: team.owner.cookie }), 404);

    const again = await share(t, team.owner.cookie, id, null);
    expect(tokenOf(again)).not.toBe(tokenOf(link));
    expect((await publicDownload(t, tokenOf(again))).status).toBe(200);
    expectError(await publicDownload(t, tokenOf(link)), 404);
    // Sharing while shared replaces the address too.
    const third = await share(t, team.owner.cookie, id, 30);
    expectError(await publicDownload(t, tokenOf(again)), 404);
    expect((await publicDownload(t, tokenOf(third))).status).toBe(200);
    expectError(await publicDownload(t, 'not-a-real-token-at-all-000000000'), 404);
  });

  it("the first use of a link notifies the report's creator, once", async () => {
    const { t, team } = await setup();
    const id = await report(t, team, 'Told.csv');
    const link = await share(t, team.admin.cookie, id, 7);
    const notes = async (cookie: string) =>
      (
        await call<{ data: Array<{ kind: string; body: string; target: unknown }> }>(
          t.server,
          'GET',
          '/api/notifications',
          { cookie },
        )
      ).body.data.filter((n) => n.kind === 'PublicLinkFirstUsed');
    expect(await notes(team.owner.cookie)).toEqual([]);
    expect((await publicDownload(t, tokenOf(link))).status).toBe(200);
    expect((await publicDownload(t, tokenOf(link))).status).toBe(200);
    const got = await notes(team.owner.cookie);
    expect(got).toHaveLength(1);
    expect(got[0]).toMatchObject({ body: expect.stringContaining('"Told.csv"'), target: { type: 'File', id } });
    expect(await notes(team.admin.cookie)).toEqual([]);
  });

  it('tRPC shares and revokes the same way', async () => {
    const { t, team } = await setup();
    const id = await report(t, team);
    const made = await trpcMutation<{ result: { data: SharedLink } }>(
      t,
      'files.share',
      { id, expiresAt: 1 },
      team.owner.cookie,
    );
    const token = tokenOf(made.body.result.data);
    expect((await publicDownload(t, token)).status).toBe(200);
    expect((await trpcMutation(t, 'files.revoke', { id }, team.owner.cookie)).status).toBe(200);
    expectError(await publicDownload(t, token), 404);
  });
});

describe('files: accounts and roles', () => {
  it("another account's files answer 404 on every call", async () => {
    const { t, team } = await setup();
    const other = await makeTeam(t, 'other-');
    const id = await report(t, team);
    const cookie = other.owner.cookie;
    for (const [method, url, body] of [
      ['GET', `/api/files/${id}/download`, undefined],
      ['DELETE', `/api/files/${id}`, undefined],
      ['POST', `/api/files/${id}/shared`, { expiresAt: null }],
      ['DELETE', `/api/files/${id}/shared`, undefined],
      ['GET', `/api/files/${id}/shared`, undefined],
    ] as const) {
      expect(expectError(await call(t.server, method, url, { cookie, body }), 404)).toBe(FILE_MESSAGES.notFound);
    }
    expect((await trpcQuery(t, 'files.get', { id }, cookie)).status).toBe(404);
    const list = await call<FilePage>(t.server, 'GET', '/api/files', { cookie });
    expect(list.body.count).toBe(0);
    expect((await call(t.server, 'GET', `/api/files/${id}/download`, { cookie: team.owner.cookie })).status).toBe(200);
  });

  it('read_only members read and download but change nothing', async () => {
    const { t, team } = await setup();
    const id = await report(t, team);
    const link = await share(t, team.owner.cookie, id, 7);
    const cookie = team.readOnly.cookie;
    expect((await call(t.server, 'GET', `/api/files/${id}/download`, { cookie })).status).toBe(200);
    expect((await call(t.server, 'GET', `/api/files/${id}/shared`, { cookie })).status).toBe(200);
    expectError(await call(t.server, 'POST', `/api/files/${id}/shared`, { cookie, body: { expiresAt: null } }), 403);
    expectError(await call(t.server, 'DELETE', `/api/files/${id}/shared`, { cookie }), 403);
    expectError(await call(t.server, 'DELETE', `/api/files/${id}`, { cookie }), 403);
    expect((await trpcMutation(t, 'files.delete', { id }, cookie)).status).toBe(403);
    expect((await publicDownload(t, tokenOf(link))).status).toBe(200);
    expect((await call(t.server, 'GET', `/api/files/${id}/download`, { cookie: team.owner.cookie })).status).toBe(200);
  });
});
