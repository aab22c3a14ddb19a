// What one statement costs PostgreSQL alone, without Node: pgbench runs the lookup's SELECT and the
// reference's SELECT as custom scripts, 10 clients (the pools' size), in the extended protocol
// with an unnamed statement (what node-postgres sends for a query without a name: parse, plan and
// execute every time) and with a named prepared statement (what the reference route sends).
import { writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { lookupStatement } from '../src/payments/payment-store.js';
import { admin } from './postgres.js';
import { run } from './processes.js';
import { pg, settings } from './settings.js';

export interface StatementCost {
  statement: string;
  database: string;
  /** Transactions per second by pgbench protocol mode. */
  tps: Record<'extended' | 'prepared', number>;
  /** EXPLAIN (ANALYZE, BUFFERS) of one execution, and the table's statistics state then. */
  plan?: string;
  table?: string;
}

export async function explain(database: string, sql: string, params: unknown[], table: string): Promise<{ plan: string; table: string }> {
  return admin(async (client) => {
    const plan = (await client.query(`EXPLAIN (ANALYZE, BUFFERS) ${sql}`, params)).rows.map((r) => r['QUERY PLAN']).join('\n');
    const [stats] = (
      await client.query(
        `SELECT n_live_tup, n_dead_tup, last_analyze, last_autoanalyze, pg_size_pretty(pg_total_relation_size(relid)) AS size
           FROM pg_stat_user_tables WHERE relname = $1`,
        [table],
      )
    ).rows;
    const when = (d: Date | null) => (d ? d.toISOString() : 'never');
    return {
      plan,
      table: stats ? `${table}: ${stats.n_live_tup} live rows, ${stats.n_dead_tup} dead, ${stats.size}, analyzed ${when(stats.last_analyze)}, auto-analyzed ${when(stats.last_autoanalyze)}` : table,
    };
  }, database);
}

async function pgbenchScript(pgbench: string, database: string, script: string, mode: 'extended' | 'prepared', defines: string[]): Promise<number> {
  const file = join(tmpdir(), `bhuktani-bench-${database}-${mode}.sql`);
  writeFileSync(file, script);
  const seconds = settings.quick ? 2 : 5;
  const out = await run(pgbench, ['-h', pg.host, '-p', String(pg.port), '-U', pg.user, '-n', '-c', '10', '-j', '2', '-T', String(seconds), '-M', mode, ...defines.flatMap((d) => ['-D', d]), '-f', file, database]);
  const tps = Number(/tps = ([\d.]+) \(without initial connection time\)/.exec(out.stdout)?.[1]);
  if (!Number.isFinite(tps)) throw new Error(`pgbench ${mode} on ${database} failed:\n${out.stdout}\n${out.stderr}`);
  return tps;
}

export async function statementCosts(pgbench: string, lookup: { pidx: string }): Promise<StatementCost[]> {
  // -D variables are sent as parameters, as the service sends them.
  const lookupSql = `${lookupStatement.replace('$1', ':pidx')};\n`;
  const referenceSql = `\\set id random(1, 10000)\nSELECT id, pidx, amount, status, created_at FROM reference_rows WHERE id = :id;\n`;
  const lookupDefines = [`pidx={${lookup.pidx}}`];
  const statements: { statement: string; database: string; script: string; defines: string[] }[] = [
    { statement: `lookup: ${lookupStatement}`, database: pg.serviceDb, script: lookupSql, defines: lookupDefines },
    { statement: 'reference: SELECT id, pidx, amount, status, created_at FROM reference_rows WHERE id = $1', database: pg.referenceDb, script: referenceSql, defines: [] },
  ];
  const tps = statements.map(() => ({ extended: NaN, prepared: NaN }));
  // Interleaved (each mode, then each statement), so that a change in the machine's load falls on both.
  for (const mode of ['extended', 'prepared'] as const) {
    for (const [i, s] of statements.entries()) tps[i][mode] = await pgbenchScript(pgbench, s.database, s.script, mode, s.defines);
  }
  const out: StatementCost[] = statements.map((s, i) => ({ statement: s.statement, database: s.database, tps: tps[i] }));
  Object.assign(out[0], await explain(pg.serviceDb, lookupStatement, [[lookup.pidx]], 'payments'));
  Object.assign(out[1], await explain(pg.referenceDb, 'SELECT id, pidx, amount, status, created_at FROM reference_rows WHERE id = $1', [42], 'reference_rows'));
  return out;
}
