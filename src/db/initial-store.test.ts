// A first start copies the store `npm run build` prepared instead of running initdb.
import { existsSync, mkdirSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { tempDir } from '../../test/processes.js';
import { loadConfig } from '../config.js';
import { INITIAL_STORE, initialDump, refillSpare, seedDataDir, spareOf, writeInitialStore } from './initial-store.js';
import { migrate } from './migrate.js';
import { openDb } from './open.js';
import { openPglite } from './pglite.js';

const dir = tempDir('bhuktani-initial-store-');
afterAll(() => dir.remove());

describe('the initial store', () => {
  it('is written migrated, and seeds an empty data directory once, which opens with nothing left to migrate', async () => {
    const store = join(dir.path, 'initial-store');
    await writeInitialStore(store);
    const dataDir = join(dir.path, 'data', 'pglite');
    // The build leaves a spare copy beside it, which the first start takes whole.
    const files = (root: string) => readdirSync(root, { recursive: true, withFileTypes: true }).filter((e) => e.isFile()).map((e) => join(e.parentPath, e.name).slice(root.length)).sort();
    expect(files(spareOf(store))).toStrictEqual(files(store));
    expect(await seedDataDir(dataDir, store)).toBe(true);
    expect(existsSync(spareOf(store))).toBe(false);
    expect(existsSync(`${dataDir}.partial`)).toBe(false);
    // The prepared WAL segment keeps only its used part; the copy is a whole segment again.
    const segmentSize = (store: string) => readdirSync(join(store, 'pg_wal')).filter((name) => /^[0-9A-F]{24}$/.test(name)).map((name) => statSync(join(store, 'pg_wal', name)).size);
    expect(segmentSize(store)).toHaveLength(1);
    expect(segmentSize(store)[0]).toBeLessThan(16 * 1024 * 1024);
    expect(segmentSize(dataDir)).toStrictEqual([16 * 1024 * 1024]);
    const db = await openPglite({ dataDir });
    try {
      expect(await migrate(db)).toStrictEqual([]);
      // Written past the prepared part of the segment, and read back after a restart.
      await db.exec(`CREATE TABLE seeded (note text); INSERT INTO seeded SELECT repeat('x', 1000) FROM generate_series(1, 10000)`);
    } finally {
      await db.close();
    }
    const reopened = await openPglite({ dataDir });
    try {
      expect(await reopened.query('SELECT count(*)::int AS count FROM seeded')).toStrictEqual([{ count: 10000 }]);
    } finally {
      await reopened.close();
    }
    expect(await seedDataDir(dataDir, store)).toBe(false);
    expect(await seedDataDir(join(dir.path, 'other'), join(dir.path, 'missing'))).toBe(false);
    // The spare made again, past what a process that died midway left; without one a first start copies.
    const stale = `${spareOf(store)}.999999999.partial`;
    mkdirSync(stale);
    await refillSpare(store);
    expect(existsSync(stale)).toBe(false);
    expect(files(spareOf(store))).toStrictEqual(files(store));
    expect(await seedDataDir(join(dir.path, 'second'), store)).toBe(true);
    expect(existsSync(spareOf(store))).toBe(false);
    expect(await seedDataDir(join(dir.path, 'third'), store)).toBe(true);
    expect(files(join(dir.path, 'third'))).toStrictEqual(files(join(dir.path, 'second')));
    // The same store as a tarball, for an in-memory PGlite.
    const inMemory = await openPglite({ loadDataDir: initialDump(store) });
    try {
      expect(await migrate(inMemory)).toStrictEqual([]);
    } finally {
      await inMemory.close();
    }
    expect(initialDump(join(dir.path, 'missing'))).toBeUndefined();
  }, 120_000);

  it.skipIf(!existsSync(INITIAL_STORE)).each([
    ['a first start on an empty DATA_DIR', { DATA_DIR: join(dir.path, 'first') }],
    ['DATABASE_URL=memory:', { DATABASE_URL: 'memory:' }],
  ])('is what %s opens, once built', async (_, env) => {
    const before = new Date();
    const db = await openDb(loadConfig(env, false), 'command');
    try {
      const [{ applied_at }] = await db.query<{ applied_at: Date }>('SELECT min(applied_at) AS applied_at FROM schema_migrations');
      expect(applied_at.getTime()).toBeLessThan(before.getTime());
    } finally {
      await db.close();
    }
  }, 120_000);
});
