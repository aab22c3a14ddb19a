import pg from 'pg';
import type { Db, Queryable } from './db.js';
import { isUnavailable, withRetry } from './db.js';
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
export function openPostgres(url: string, options: { max?: number; queryTimeoutMs?: number } = {}): Db & { pool: pg.Pool } {
  const pool = new pg.Pool({
    connectionString: url,
    max: options.max ?? 10,
    types,
    connectionTimeoutMillis: 3000,
    idleTimeoutMillis: 30_000,
    query_timeout: options.queryTimeoutMs,
  });
  // An idle client losing its connection (the server restarting) must not crash the process.
  pool.on('error', () => {});
  // A prepared statement is planned once, too. PostgreSQL's default plans each execution again while
  // a plan for the actual values looks cheaper than the generic one, and for the batch statements
  // (their parameters are arrays, mostly short) it always does: planning them cost more than running
  // them. Every statement here is written for its indexes, so the generic plan is the plan. Queued
  // before any other statement on the connection; a SET, so it passes a session-mode pooler too.
  pool.on('connect', (client) => {
    client.query('SET plan_cache_mode = force_generic_plan').catch(() => {});
  });
  const statement = preparedStatements();
  const query: Queryable['query'] = async (sql, params = []) => (await pool.query(statement(sql, params))).rows;
  return {
    kind: 'postgres',
    pool,
    query,
    exec: async (sql) => {
      await pool.query(sql);
    },
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
          const result = await work({
            query: async (sql, params = []) => (await client.query(statement(sql, params))).rows,
            exec: async (sql) => {
              await client.query(sql);
            },
          });
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
    close: () => pool.end(),
  };
}
