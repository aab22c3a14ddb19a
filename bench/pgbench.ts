// Ledger ceiling: pgbench's built-in TPC-B-like script at scale 1 (one branch row every transaction
// updates: the textbook hot account), 32 clients, on the same PostgreSQL. Initialised once, then run
// in rounds, each just before a round of the completion run, so both see the machine alike.
import { recreateDatabase, waitSampler, type WaitProfile } from './postgres.js';
import { cpuWindow, run, startProcess, type CpuSplit } from './processes.js';
import { pg, settings } from './settings.js';

export interface PgbenchResult {
  tps: number;
  latencyMs: number;
  clients: number;
  seconds: number;
  command: string;
  waits: WaitProfile;
  cpu: CpuSplit;
  failed: number;
}

/** Creates and initialises pgbench's database; each call of the answer runs one measured round. */
export async function preparePgbench(pgbench: string): Promise<() => Promise<PgbenchResult>> {
  await recreateDatabase(pg.pgbenchDb);
  const conn = ['-h', pg.host, '-p', String(pg.port), '-U', pg.user];
  const init = await run(pgbench, [...conn, '-i', '-s', '1', '-q', pg.pgbenchDb]);
  if (init.code !== 0) throw new Error(`pgbench -i failed: ${init.stderr}`);
  const args = ['-c', String(settings.payers), '-j', '2', '-T', String(settings.pgbenchSeconds), '-b', 'tpcb-like'];
  return async () => {
    const sampler = waitSampler(pg.pgbenchDb);
    const proc = startProcess(pgbench, [...conn, ...args, pg.pgbenchDb], {});
    const cpu = cpuWindow({ 'pgbench (client)': proc.pid }, pg.pgbenchDb, () => sampler.backendPids());
    const code = await proc.exited;
    const cpuSplit = cpu.stop();
    const waits = await sampler.stop();
    const output = proc.output();
    if (code !== 0) throw new Error(`pgbench failed (${code}):\n${output}`);
    const tps = Number(/tps = ([\d.]+) \(without initial connection time\)/.exec(output)?.[1]);
    const latencyMs = Number(/latency average = ([\d.]+) ms/.exec(output)?.[1]);
    const failed = Number(/number of failed transactions: (\d+)/.exec(output)?.[1] ?? 0);
    if (!Number.isFinite(tps)) throw new Error(`no tps in pgbench output:\n${output}`);
    return { tps, latencyMs, clients: settings.payers, seconds: settings.pgbenchSeconds, command: `pgbench ${args.join(' ')} (after pgbench -i -s 1)`, waits, cpu: cpuSplit, failed };
  };
}
