import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { AdminAccountDetail } from '../../src/shared/admin';
import { call, expectError, makeApp, makeTeam, type TestApp } from './helpers';
import { sampleIntegration, selectDatasets, syncNow } from './integrations/helpers';
import { makeShop } from './models/helpers';
import { ok } from './static-tables/helpers';

/** Bytes of every file under `folder`, as `du` would add them up. */
function bytesUnder(folder: string): number {
  if (!fs.existsSync(folder)) return 0;
  return fs.readdirSync(folder, { withFileTypes: true }).reduce((sum, entry) => {
    const full = path.join(folder, entry.name);
    return sum + (entry.isDirectory() ? bytesUnder(full) : entry.isFile() ? fs.statSync(full).size : 0);
  }, 0);
}

const accountOf = (t: TestApp, cookie: string, accountId: string) =>
  call<AdminAccountDetail>(t.server, 'GET', `/api/admin/accounts/${accountId}`, { cookie });

describe('admin account detail', () => {
  it('lists members with roles, integrations, the size of the account folder and the last activity', async () => {
    const t = await makeApp();
    const team = await makeTeam(t);
    const start = t.clock.now().toISOString();

    const empty = ok(await accountOf(t, team.owner.cookie, team.accountId));
    expect(empty).toMatchObject({
      id: team.accountId,
      name: "Owner's account",
      createdAt: start,
      integrations: [],
      lastActivityAt: start,
    });
    expect(empty.members).toEqual([
      {
        id: team.admin.userId,
        email: 'admin@example.com',
        name: expect.any(String),
        roles: ['admin'],
        lastLoginAt: start,
      },
      { id: team.owner.userId, email: 'owner@example.com', name: 'Owner', roles: ['owner'], lastLoginAt: start },
      {
        id: team.readOnly.userId,
        email: 'reader@example.com',
        name: expect.any(String),
        roles: ['read_only'],
        lastLoginAt: start,
      },
    ]);

    // Data and a synced integration, later: the folder grows and the activity moves on.
    t.clock.advance(3_600_000);
    await makeShop(t, team.owner.cookie);
    const integration = await sampleIntegration(t, team.owner.cookie);
    await selectDatasets(t, team.owner.cookie, integration.id, { customers: {} });
    await syncNow(t, team.owner.cookie, integration.id);

    const detail = ok(await accountOf(t, team.owner.cookie, team.accountId));
    expect(detail.integrations).toEqual([
      {
        id: integration.id,
        name: 'Shop',
        definitionName: 'Sample data',
        type: 'Sample',
        syncStatus: integration.syncStatus,
        lastRunAt: t.clock.now().toISOString(),
        createdAt: t.clock.now().toISOString(),
      },
    ]);
    expect(detail.lastActivityAt).toBe(t.clock.now().toISOString());
    const folder = path.join(t.deps.config.dataDir, 'accounts', team.accountId);
    expect(detail.warehouseBytes).toBeGreaterThan(empty.warehouseBytes);
    expect(detail.warehouseBytes).toBeGreaterThan(100_000);
    // The size is what the folder holds (files may have moved since: within a few pages).
    expect(Math.abs(detail.warehouseBytes - bytesUnder(folder))).toBeLessThan(1_000_000);

    expect(expectError(await accountOf(t, team.owner.cookie, 'no-such-account'), 404)).toBe('Account not found.');
  });
});
