import type { PGlite } from '@electric-sql/pglite';
import type { StoreCopy } from './store-thread-protocol.js';
import type { Db, Queryable } from './db.js';
import { withRetry } from './db.js';
import { parsers } from './parsers.js';
import { pgliteModule, storeCode } from './pglite-code.js';

export type PgliteDb = Db & { dump(): Promise<Blob> };

export function pgliteDb(pg: PGlite): PgliteDb {
  const queryable = (q: Pick<PGlite, 'query' | 'exec'>): Queryable => ({
    async query<T>(sql: string, params: unknown[] = []) {
      const result = await q.query<T>(sql, params);
      return result.rows;
    },
    async exec(sql: string) {
      await q.exec(sql);
    },
  });
  return {
    kind: 'pglite',
    ...queryable(pg),
    transaction: (work) => withRetry(() => pg.transaction((tx) => work(queryable(tx)))),
    close: () => pg.close(),
    /** The whole data directory as a tarball, to start another database from it without initdb. */
    dump: async () => (await pg.dumpDataDir('none')) as Blob,
  };
}

/**
 * A consistent copy of the store: its data directory, gzipped, taken between two statements (PGlite
 * runs one at a time), after a checkpoint. What a transaction left open had written is in the copy as
 * a crash leaves it, and a store opened from it replays its log and rolls that back.
 */
export async function copyOfStore(pg: PGlite): Promise<StoreCopy> {
  await pg.exec('CHECKPOINT');
  const [{ schema }] = (await pg.query<{ schema: string }>('SELECT max(name) AS schema FROM schema_migrations')).rows;
  const tarball = new Uint8Array(await ((await pg.dumpDataDir('gzip')) as Blob).arrayBuffer());
  return { tarball, schema };
}

/*
 * Opening the embedded store is most of `npm start`. Two settings halve what it costs: measured in
 * alternating runs on the 2-core machine, `npm start` on an existing data directory answered
 * /health in 2.12–2.27 s without them and 1.42–1.48 s with them.
 *
 * Shared buffers of 16MB instead of PostgreSQL's default 128MB. They are set up on every start, in
 * proportion to their size (PGlite alone opened a data directory in about 1.0 s with 128MB, 0.65 s
 * with 16MB), and the process keeps 112 MB less. One process's sandbox data is far smaller than
 * 16MB's 2,048 pages, and what falls out of them is still in the operating system's file cache.
 */
const SHARED_BUFFERS = ['-c', 'shared_buffers=16MB'];

/** `dataDir` undefined: in memory. `loadDataDir`: start from a dump instead of running initdb. */
export async function openPglite(options: { dataDir?: string; loadDataDir?: Blob } = {}): Promise<PgliteDb> {
  return pgliteDb(await createPglite(options));
}

/**
 * PGlite itself, with the store's code, parsers and settings (the store's thread holds one:
 * store-thread-worker.ts). Its JavaScript is loaded here, after storeCode has set its WebAssembly
 * compiling on other threads.
 */
export async function createPglite(options: { dataDir?: string; loadDataDir?: Blob } = {}): Promise<PGlite> {
  const code = storeCode();
  const { PGlite } = pgliteModule();
  const startParams = [...PGlite.defaultStartParams, ...SHARED_BUFFERS];
  return PGlite.create({ ...(await code), dataDir: options.dataDir, loadDataDir: options.loadDataDir, parsers, startParams });
}
