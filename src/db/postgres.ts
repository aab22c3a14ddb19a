import pg from 'pg';
import type { Db, Queryable } from './db.js';
import { isUnavailable, withRetry } from './db.js';
import { storeBatches } from './batcher.js';
import { parsers } from './parsers.js';

const types = {
  getTypeParser: ((oid: number, format?: string) => parsers[oid] ?? pg.types.getTypeParser(oid, format as 'text')) as typeof pg.types.getTypeParser,
};

/** Statements are prepared once per connection and reused; beyond this many distinct texts, unnamed. */
const MAX_PREPARED = 1000;

/**
 * Every parameterised statement gets a name, so each connection parses and plans it once instead of
 * on every call (planning costs more than running most of the service's statements). The texts are
 * the code's own SQL, a bounded set; the cap only guards against a text built from data by mistake.
 * Named statements pin their result columns: they select explicit columns, never `*`, so a column
 * added by a newer instance's migration cannot break an older instance's prepared statements.
 */
function preparedStatements() {
  const names = new Map<string, string>();
  return (text: string, values: unknown[]): pg.QueryConfig => {
    let name = names.get(text);
    if (name === undefined && names.size < MAX_PREPARED) names.set(text, (name = `bhuktani_${names.size}`));
    return { name, text, values };
  };
}

/**
 * `queryTimeoutMs`: a statement not answered by then fails (and its connection is dropped), so a
 * database that hangs turns into 503s instead of requests that never end. Unset: no limit.
 */
function openPool(url: string, max: number, queryTimeoutMs: number | undefined, onConnect?: (client: pg.ClientBase) => Promise<unknown>): pg.Pool {
  const pool = new pg.Pool({
    onConnect,
    connectionString: url,
    max,
    types,
    connectionTimeoutMillis: 3000,
    idleTimeoutMillis: 30_000,
    query_timeout: queryTimeoutMs,
  });
  // An idle client losing its connection (the server restarting) must not crash the process.
  pool.on('error', () => {});
  return pool;
}

/**
 * One connection per batch statement that can be in flight: four kinds use `batchedPerStore`
 * (lookup, initiate, the hosted page's read, completion), each with `storeBatches.inFlight`. Fewer,
 * and a batch would wait for a connection and fail after the connect timeout as if the store were down.
 */
const BATCH_CONNECTIONS = 4 * storeBatches.inFlight;

/**
 * The batch connections' settings. They keep one generic plan per statement: PostgreSQL's default
 * plans each execution again while a plan for the actual values looks cheaper than the generic one,
 * which for a short array it always does, and planning these statements costs more than running
 * them. A generic plan is made at a statement's first run on a connection, from the statistics of
 * that moment, and kept until the table is next analyzed: on a new store, a sequential scan of an
 * empty table, kept while the table grows (measured: lookups fell from 13,000 to 1,100 a second
 * after a burst of initiates). Every batch statement reads and writes by keys, so sequential scans
 * are off for them: their plans use the indexes whatever the statistics said when they were made.
 */
export const BATCH_SESSION = 'SET plan_cache_mode = force_generic_plan; SET enable_seqscan = off';

export function openPostgres(url: string, options: { max?: number; queryTimeoutMs?: number } = {}): Db & { pools: pg.Pool[] } {
  const pool = openPool(url, options.max ?? 10, options.queryTimeoutMs);
  // The batch statements (their parameters are arrays, mostly short) run on connections of their
  // own, with BATCH_SESSION's settings. Everything else keeps the default: a range in a list query
  // needs the plan for its actual bounds. A SET, so it passes a session-mode pooler too; the pool
  // hands the connection out once it has answered (a connection where it fails is dropped, and the
  // statement waiting for it fails with the error).
  const batchPool = openPool(url, BATCH_CONNECTIONS, options.queryTimeoutMs, (client) => client.query(BATCH_SESSION));
  const statement = preparedStatements();
  // Statements on a pool, or on the one connection of a transaction.
  const on = (target: pg.Pool | pg.PoolClient): Queryable => ({
    query: async (sql, params = []) => (await target.query(statement(sql, params))).rows,
    exec: async (sql) => {
      await target.query(sql);
    },
  });
  return {
    kind: 'postgres',
    pools: [pool, batchPool],
    ...on(pool),
    batches: on(batchPool),
    transaction: (work) =>
      withRetry(async () => {
        const client = await pool.connect();
        let broken: Error | undefined;
        // A connection lost between two statements is reported as an 'error' event, not to a query;
        // with no listener on a checked-out client it would crash the process.
        const onLost = (error: Error) => {
          broken = error;
        };
        client.on('error', onLost);
        try {
          await client.query('BEGIN');
          const result = await work(on(client));
          await client.query('COMMIT');
          return result;
        } catch (error) {
          // On a lost or hung connection a ROLLBACK would only wait too; dropping it rolls back.
          if (isUnavailable(error)) broken ??= error as Error;
          if (!broken) {
            await client.query('ROLLBACK').catch((rollbackError: Error) => {
              broken = rollbackError;
            });
          }
          throw error;
        } finally {
          // A client whose rollback failed has lost its connection: destroy it rather than reuse it.
          client.off('error', onLost);
          client.release(broken);
        }
      }),
    close: async () => {
      await Promise.all([pool.end(), batchPool.end()]);
    },
  };
}
