import { PGlite } from '@electric-sql/pglite';
import type { Db, Queryable } from './db.js';
import { withRetry } from './db.js';
import { parsers } from './parsers.js';

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

/** `dataDir` undefined: in memory. `loadDataDir`: start from a dump instead of running initdb. */
export async function openPglite(options: { dataDir?: string; loadDataDir?: Blob } = {}): Promise<PgliteDb> {
  const pg = await PGlite.create({ dataDir: options.dataDir, loadDataDir: options.loadDataDir, parsers });
  return pgliteDb(pg);
}
