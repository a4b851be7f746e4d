import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { makeWarehouse, scratchOf, sql } from './helpers';

const A = '11111111-1111-4111-8111-111111111111';
const B = '22222222-2222-4222-8222-222222222222';

/**
 * Nothing exploits the warehouse today, but a future injection would inherit whatever a connection
 * may do: each of these runs on a real account connection and must be refused.
 */
describe('a locked-down account warehouse', () => {
  it('reads no file outside its own folders', async () => {
    const { warehouse, dataDir } = makeWarehouse();
    const a = warehouse.forAccount(A);
    const b = warehouse.forAccount(B);
    await b.run('CREATE TABLE secret AS SELECT 1 AS x');
    fs.writeFileSync(path.join(dataDir, 'app.db'), 'metadata');

    for (const file of [
      '/etc/passwd',
      path.join(dataDir, 'app.db'),
      path.join(dataDir, 'accounts', B, 'warehouse.duckdb'),
      // Climbing out of an allowed folder is the same as naming the file outright.
      path.join(scratchOf(a), '..', '..', B, 'warehouse.duckdb'),
    ]) {
      await expect(a.all(sql('SELECT * FROM read_csv($1)', file)), file).rejects.toThrow(/Permission Error/);
      await expect(a.all(sql('SELECT * FROM read_text($1)', file)), file).rejects.toThrow(/Permission Error/);
    }
    await expect(a.all(sql("SELECT * FROM glob('/etc/*')"))).rejects.toThrow(/Permission Error/);
  });

  it('writes no file outside its own folders', async () => {
    const { warehouse, dataDir } = makeWarehouse();
    const a = warehouse.forAccount(A);
    const outside = path.join(dataDir, 'written.csv');
    await expect(a.run(`COPY (SELECT 1 AS x) TO '${outside}'`)).rejects.toThrow(/Permission Error/);
    await expect(a.run("COPY (SELECT 1 AS x) TO '/tmp/ws-lockdown-probe.csv'")).rejects.toThrow(/Permission Error/);
    expect(fs.existsSync(outside)).toBe(false);
    expect(fs.existsSync('/tmp/ws-lockdown-probe.csv')).toBe(false);
  });

  it('still reads and writes files in its own scratch folder, which the app hands to it', async () => {
    const { warehouse } = makeWarehouse();
    const a = warehouse.forAccount(A);
    const file = path.join(scratchOf(a), 'own.csv');
    await a.run(`COPY (SELECT 42 AS answer) TO '${file}'`);
    expect(await a.all(sql('SELECT * FROM read_csv($1)', file))).toEqual([{ answer: 42 }]);
  });

  it('attaches no database, installs or loads no extension, and changes no setting', async () => {
    const { warehouse, dataDir } = makeWarehouse();
    const a = warehouse.forAccount(A);
    await a.run('SELECT 1');
    await warehouse.forAccount(B).run('CREATE TABLE secret AS SELECT 1 AS x');
    // Every database file that holds anyone's data: another account's, the metadata store, and the
    // account's own ordered copies (attached by the server before the lock; never by a statement).
    for (const file of [
      path.join(dataDir, 'accounts', B, 'warehouse.duckdb'),
      path.join(dataDir, 'app.db'),
      path.join(dataDir, 'accounts', A, 'ordered-copies.duckdb'),
      path.join(dataDir, 'accounts', A, 'elsewhere.duckdb'),
    ]) {
      await expect(a.run(`ATTACH '${file}' AS other`), file).rejects.toThrow(/Permission Error|already attached/);
    }
    expect(fs.existsSync(path.join(dataDir, 'accounts', A, 'elsewhere.duckdb'))).toBe(false);
    await expect(a.run('INSTALL httpfs')).rejects.toThrow();
    await expect(a.run('LOAD httpfs')).rejects.toThrow();
    await expect(a.run("SELECT * FROM read_csv('https://example.com/x.csv')")).rejects.toThrow();
    await expect(a.run("CREATE PERSISTENT SECRET s (TYPE s3, KEY_ID 'k', SECRET 'v')")).rejects.toThrow();
    await expect(a.run("EXPORT DATABASE '/tmp/ws-lockdown-export'")).rejects.toThrow(/Permission Error/);
    for (const statement of [
      'SET enable_external_access = true',
      "SET allowed_directories = ['/']",
      'SET autoinstall_known_extensions = true',
      'SET autoload_known_extensions = true',
      "SET memory_limit = '100GB'",
      'SET lock_configuration = false',
      'RESET enable_external_access',
      "SET profiling_output = '/tmp/ws-lockdown-profile.json'",
      "SET disabled_filesystems = ''",
      'SET allow_community_extensions = true',
    ]) {
      await expect(a.run(statement), statement).rejects.toThrow(/configuration has been locked|locked/i);
    }
    const [settings] = await a.all(
      sql(
        "SELECT current_setting('enable_external_access') AS external, current_setting('lock_configuration') AS locked, " +
          "current_setting('autoinstall_known_extensions') AS autoinstall, current_setting('autoload_known_extensions') AS autoload",
      ),
    );
    expect(settings).toEqual({ external: false, locked: true, autoinstall: false, autoload: false });
  });

  it('is locked again when it reopens after being idle', async () => {
    const { warehouse } = makeWarehouse({ idleMs: 50 });
    const a = warehouse.forAccount(A);
    await a.run('SELECT 1');
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(warehouse.isOpen(A)).toBe(false);
    await expect(a.all(sql("SELECT * FROM read_csv('/etc/passwd')"))).rejects.toThrow(/Permission Error/);
    await expect(a.run('SET enable_external_access = true')).rejects.toThrow(/locked/i);
  });
});
