// The completion scenario on the synchronous cluster: the topology of deploy/ built on
// this machine by test/ha/cluster.ts (etcd, three PostgreSQL 15 nodes under Patroni in synchronous
// mode, HAProxy), and this harness run again as a child with BENCH_ONLY=completion against
// HAProxy's primary port, so the service and pgbench TPC-B-like both commit through the same
// synchronous standby in the same run. The figure is the ratio of their median rounds.
import { readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { canBuildCluster, Cluster, installPackages } from '../test/ha/cluster.js';
import { run } from './processes.js';
import type { Results } from './report.js';
import { medianRun } from './load.js';
import { ROOT } from './settings.js';

export interface HaResult {
  completionRps: number;
  pgbenchTps: number;
  ratio: number;
  /** Patroni's view of the cluster during the run: one leader, a synchronous standby, a replica. */
  members: string;
  errors: string[];
}

export async function haRun(log: (line: string) => void): Promise<HaResult> {
  if (!canBuildCluster()) throw new Error('the HA scenario builds a cluster as root with PostgreSQL 15 installed');
  installPackages();
  const cluster = new Cluster();
  try {
    log('  building the cluster (etcd, Patroni ×3, HAProxy)');
    await cluster.start();
    const members = (await cluster.members()).map((m) => `${m.name} ${m.role} ${m.state}`).join(', ');
    log(`  cluster: ${members}`);
    const report = join(tmpdir(), 'bhuktani-benchmarks-ha.md');
    const child = await run(process.execPath, ['--import', 'tsx', 'bench/run.ts'], {
      cwd: ROOT,
      env: { BENCH_ONLY: 'completion', BENCH_EVIDENCE: '0', BENCH_BUILT: '1', BENCH_PG_PORT: String(cluster.primaryPort), BENCH_REPORT: report },
    });
    if (child.code !== 0 && !child.stdout.includes('wrote')) throw new Error(`the completion run on the cluster failed:\n${child.stdout.slice(-3000)}\n${child.stderr.slice(-2000)}`);
    const r = JSON.parse(readFileSync(join(tmpdir(), 'bhuktani-benchmarks-partial.json'), 'utf8')) as Results;
    const completionRps = r.completion?.rps ?? NaN;
    const pgbenchTps = medianRun(r.pgbenchRounds, (p) => p.tps)?.tps ?? NaN;
    return { completionRps, pgbenchTps, ratio: completionRps / pgbenchTps, members, errors: r.errors };
  } finally {
    await cluster.stop();
  }
}
