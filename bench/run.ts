// `npm run bench`: every reference and scenario end to end, then docs/benchmarks.md.
// Each figure is a ratio to a reference measured in this run on this machine. BENCH_QUICK=1 is a
// smoke run of the harness (short, small); BENCH_EVIDENCE=0 skips the profiles and plans;
// BENCH_ONLY=lookup,initiate,new-store,completion,provider,list,export,embedded,ha,backup,payouts runs only those scenarios (with their
// references) and writes its partial report to the temporary directory, not docs/; backup and payouts run only when named,
// and their sections of docs/benchmarks.md are replaced in place (bench/report.ts).
import { execSync } from 'node:child_process';
import { cpus, loadavg, totalmem } from 'node:os';
import { backupRun, embeddedBackupRun } from './backup.js';
import { npiPayoutsRun } from './npi-payouts.js';
import { completionRun } from './completion.js';
import { embeddedStart } from './embedded-start.js';
import { esewaFormRun, esewaStatusRun, prepareEsewaPayments } from './esewa.js';
import { exportRun } from './export.js';
import { haRun } from './ha.js';
import { client } from './http.js';
import { initiateRun } from './initiate.js';
import { listEvidence, listRun } from './list.js';
import { apiStatements, lookupRun, preparePayments } from './lookup.js';
import { newStoreRun } from './new-store.js';
import { providerPaymentRun } from './provider-payment.js';
import { preparePgbench } from './pgbench.js';
import { admin, analyze, ensurePgbench, ensurePostgres, postgresInfo, recreateDatabase } from './postgres.js';
import { run, runCli } from './processes.js';
import { profileUnderLoad } from './profile.js';
import { insertRoute, jsonRoute, selectRoute, startReferenceServer } from './references.js';
import { writeReport, type Results, type VerifyResult } from './report.js';
import { seedList } from './seed-list.js';
import { explain, statementCosts } from './statement-cost.js';
import { createMerchant, initiateBody, serviceCliEnv, startService, type BenchMerchant, type Service } from './service.js';
import { pg, ROOT, runs, settings } from './settings.js';
import { measureLoad } from './load.js';
import { lookupStatement } from '../src/payments/payment-store.js';

const began = performance.now();
const elapsed = () => `${((performance.now() - began) / 1000).toFixed(0)} s`;
const log = (line: string) => console.log(`[bench ${elapsed()}] ${line}`);

const results: Results = {
  meta: {
    date: new Date().toISOString(),
    command: [settings.quick ? 'BENCH_QUICK=1' : '', settings.only ? `BENCH_ONLY=${settings.only.join(',')}` : '', 'npm run bench'].filter(Boolean).join(' '),
    quick: settings.quick,
    node: process.version,
    nproc: cpus().length,
    cpuModel: cpus()[0]?.model ?? 'unknown',
    memoryGiB: totalmem() / 1024 ** 3,
    loadBefore: loadavg(),
    loadAfter: [],
    gitCommit: safe(() => execSync('git rev-parse --short HEAD', { cwd: ROOT }).toString().trim()),
    gitDirty: safe(() => execSync('git status --porcelain -- src', { cwd: ROOT }).toString().trim().length > 0),
    postgres: { version: '', settings: {} },
    postgresStart: '',
    totalSeconds: 0,
    settings,
  },
  errors: [],
  pgbenchRounds: [],
  http: [],
  select: [],
  lookup: [],
  insert: [],
  initiate: [],
};

function safe<T>(work: () => T): T | undefined {
  try {
    return work();
  } catch {
    return undefined;
  }
}

/** A scenario that fails is reported, and the others still run. */
async function step<T>(name: string, work: () => Promise<T>): Promise<T | undefined> {
  log(`${name} …`);
  try {
    const value = await work();
    log(`${name} done`);
    return value;
  } catch (error) {
    const message = error instanceof Error ? (error.stack ?? error.message) : String(error);
    log(`${name} FAILED: ${message}`);
    results.errors.push(`${name}: ${message.split('\n').slice(0, 6).join('\n')}`);
    return undefined;
  }
}

async function ledgerVerify(): Promise<VerifyResult> {
  const started = performance.now();
  const out = await runCli(['ledger', 'verify', '--json'], serviceCliEnv());
  const seconds = (performance.now() - started) / 1000;
  let parsed: { ok: boolean; invariants: { invariant: string; holds: boolean; violations: unknown[] }[] } | undefined;
  try {
    parsed = JSON.parse(out.stdout.trim().split('\n').at(-1)!);
  } catch {
    parsed = undefined;
  }
  return { exitCode: out.code, seconds, ok: parsed?.ok ?? false, invariants: parsed?.invariants ?? [], stderr: out.stderr.slice(-2000) };
}

const merchantId = (email: string) =>
  admin(async (c) => Number((await c.query('SELECT id FROM merchants WHERE email = $1', [email])).rows[0].id), pg.serviceDb);

async function main() {
  log(`${results.meta.command}: ${results.meta.nproc} cores, load average ${results.meta.loadBefore.map((l) => l.toFixed(2)).join(' ')}`);
  results.meta.postgresStart = await ensurePostgres(log);
  results.meta.postgres = await postgresInfo();
  const pgbench = await ensurePgbench(log);

  // The cluster's run (bench/ha.ts) is a child of a run that has just built.
  if (process.env.BENCH_BUILT !== '1') {
    log('npm run build …');
    const build = await run('npm', ['run', 'build']);
    if (build.code !== 0) throw new Error(`npm run build failed:\n${build.stdout}\n${build.stderr}`);
  }

  await recreateDatabase(pg.serviceDb);
  await recreateDatabase(pg.referenceDb);
  const reference = await startReferenceServer();
  let service: Service | undefined = await startService();
  try {
    const apiMerchant = await createMerchant('Bench API Shop', merchantId);
    let lookupPidx: string | undefined;

    // eSewa's door is measured beside the v2 API, in the same rounds against the same references:
    // its targets are the ratios lookup and initiate reach, and the machine's pace drifts between steps
    // (the same reference's CPU per request moved by a fifth from one step to the next on 2026-11-27).
    const door = runs('esewa');
    const esewaPair = apiMerchant.esewa.live;
    if (door) results.esewa = { insert: results.insert, form: [], select: results.select, status: [] };
    /** `runs` in turn, the first going first in even rounds and last in odd ones, so neither always follows the reference. */
    const inTurn = async (round: number, runs: (() => Promise<unknown>)[]) => {
      for (const run of round % 2 === 0 ? runs : [...runs].reverse()) await run();
    };

    if (runs('lookup') || door) await step(`lookup and its references (HTTP ceiling, one-query SELECT)${door ? ", with eSewa's status check beside it" : ''}`, async () => {
      const api = client(service!.port, 8);
      const pidxs = await preparePayments(api, apiMerchant.liveKey, 1000);
      const esewaPayments = door ? await prepareEsewaPayments(api, esewaPair, 1000) : [];
      api.close();
      // The lookup's plan on the fresh table, then statistics as a running installation has them.
      results.lookupPlanBeforeAnalyze = await explain(pg.serviceDb, lookupStatement, [[pidxs[0]]], 'payments');
      await analyze(pg.serviceDb);
      for (let round = 0; round < settings.rounds; round++) {
        // The HTTP ceiling is context, not a target: once is enough.
        if (round === 0) results.http.push(await jsonRoute(reference));
        results.select.push(await selectRoute(reference));
        await inTurn(round, [
          async () => void results.lookup.push(await lookupRun(service!, apiMerchant.liveKey, pidxs)),
          ...(door ? [async () => void results.esewa!.status.push(await esewaStatusRun(service!, esewaPair, esewaPayments))] : []),
        ]);
        const [s, l] = [results.select.at(-1)!, results.lookup.at(-1)!];
        const status = door ? `; eSewa status ${results.esewa!.status.at(-1)!.rps.toFixed(0)}/s` : '';
        log(`  round ${round + 1}: select ${s.rps.toFixed(0)}/s p99 ${s.p99} ms; lookup ${l.rps.toFixed(0)}/s p99 ${l.p99} ms, RSS ${(l.maxRssBytes / 2 ** 20).toFixed(0)} MB${status}`);
      }
      lookupPidx = pidxs[0];
    });

    if (settings.evidence && pgbench && lookupPidx) {
      results.statementCosts = await step('statement cost in PostgreSQL alone (pgbench, unnamed vs prepared)', async () => {
        const costs = await statementCosts(pgbench, { pidx: lookupPidx! });
        for (const c of costs) log(`  ${c.statement.slice(0, 40)}…: extended ${c.tps.extended.toFixed(0)} tps, prepared ${c.tps.prepared.toFixed(0)} tps`);
        return costs;
      });
    }

    if (runs('initiate') || door) await step(`initiate and its reference (one-query INSERT)${door ? ", with eSewa's form POST beside it" : ''}`, async () => {
      for (let round = 0; round < settings.rounds; round++) {
        results.insert.push(await insertRoute(reference));
        await inTurn(round, [
          async () => void results.initiate.push(await initiateRun(service!, apiMerchant.liveKey, round)),
          ...(door ? [async () => void results.esewa!.form.push(await esewaFormRun(service!, esewaPair, round))] : []),
        ]);
        const form = door ? `; eSewa form ${results.esewa!.form.at(-1)!.rps.toFixed(0)}/s` : '';
        log(`  round ${round + 1}: insert ${results.insert.at(-1)!.rps.toFixed(0)}/s; initiate ${results.initiate.at(-1)!.rps.toFixed(0)}/s${form}`);
      }
    });
    if (runs('new-store')) results.newStore = await step('lookups on a new store, before and after a burst of initiates, three pairs with a SELECT reference run on each side', () => newStoreRun(reference, log));
    await reference.stop();

    if (runs('completion')) results.completion = await step('payment completion, 32 payers, one merchant, each round after a pgbench TPC-B-like round', async () => {
      if (!pgbench) throw new Error('pgbench is not installed and could not be installed (apt-get install postgresql-client)');
      const pgbenchRound = await preparePgbench(pgbench);
      const merchant = await createMerchant('Bench Popular Shop', merchantId);
      return completionRun(service!, merchant, log, async (round) => {
        const p = await pgbenchRound();
        results.pgbenchRounds.push(p);
        log(`  round ${round + 1}: pgbench ${p.tps.toFixed(0)} tps, latency ${p.latencyMs} ms`);
      });
    });
    if (runs('provider')) results.providerPayment = await step("payments through a provider (Khalti's page, Fonepay's QR) against a wallet payment, end to end on the hosted page", async () =>
      providerPaymentRun(service!, await createMerchant('Bench Provider Shop', merchantId), log),
    );
    if (runs('completion')) results.verifyAfterCompletion = await step('bhuktani ledger verify (after the completion run)', ledgerVerify);

    // The merchant with a year of history, seeded once for the list and the export.
    let busyShop: BenchMerchant | undefined;
    const seededShop = async () => {
      if (busyShop) return busyShop;
      const merchant = await createMerchant('Bench Busy Shop', merchantId);
      const seed = await seedList(merchant.id, settings.listRows, log);
      results.listSeed = { rows: settings.listRows, seconds: seed.seconds };
      return (busyShop = merchant);
    };

    if (runs('list')) await step('transaction list, one merchant with a year of history', async () => {
      const merchant = await seededShop();
      results.list = await listRun(service!, merchant.liveKey);
      for (const v of results.list) log(`  ${v.name}: p50 ${v.p50.toFixed(1)} ms, p99 ${v.p99.toFixed(1)} ms (${v.samples} requests)`);
      results.listEvidence = (await listEvidence(merchant.liveKey)) ?? undefined;
    });

    if (runs('export')) results.export = await step('CSV export of the whole history from the dashboard, with lookups running', async () => {
      const e = await exportRun(service!, await seededShop(), settings.listRows);
      const mib = (bytes: number) => (bytes / 2 ** 20).toFixed(0);
      log(`  ${e.rows} rows in ${e.seconds.toFixed(1)} s (${e.rowsPerSecond.toFixed(0)} rows/s), RSS ${mib(e.rssBeforeBytes)} → max ${mib(e.maxRssBytes)} MB`);
      log(`  lookup p50/p99 ${e.lookupAlone.p50.toFixed(1)}/${e.lookupAlone.p99.toFixed(1)} ms alone, ${e.lookupDuring.p50.toFixed(1)}/${e.lookupDuring.p99.toFixed(1)} ms during`);
      return e;
    });
    results.verifyFinal = await step('bhuktani ledger verify (whole store, seeded history included)', ledgerVerify);

    await service.stop();
    service = undefined;

    if (runs('ha')) results.ha = await step('payment completion on the synchronous cluster, against pgbench on it', async () => {
      const h = await haRun(log);
      log(`  ${h.completionRps.toFixed(0)} confirms/s against pgbench ${h.pgbenchTps.toFixed(0)} tps: ${h.ratio.toFixed(2)} ×`);
      if (h.errors.length) throw new Error(h.errors.join('\n'));
      return h;
    });

    if (runs('backup')) results.backup = await step("backup and restore to a point in time of a million-record history on the Patroni cluster (pgBackRest), against pg_basebackup and a plain restore; then the embedded store's backup against tar", async () => {
      const b = await backupRun(log);
      await embeddedBackupRun(log).then(
        (e) => {
          b.embedded = e;
          log(`  embedded: bhuktani backup ${e.backup.seconds.toFixed(1)} s, ${e.backupRatio.toFixed(2)} × tar -czf; restore ${e.restore.seconds.toFixed(1)} s, ${e.restoreRatio.toFixed(2)} × tar -xzf`);
        },
        (error: Error) => {
          b.embeddedError = error.stack ?? error.message;
          results.errors.push(`the embedded store's backup: ${b.embeddedError.split('\n').slice(0, 6).join('\n')}`);
          log(`  the embedded store's backup FAILED: ${b.embeddedError}`);
        },
      );
      log(`  full backup ${b.backup.seconds.toFixed(1)} s, ${b.backupRatio.toFixed(2)} × pg_basebackup; restore to T ${b.restore.seconds.toFixed(1)} s, ${b.restoreRatio.toFixed(2)} × a plain restore; records lost before T: ${b.lost}`);
      return b;
    });

    if (runs('payouts')) results.npiPayouts = await step('10,000 scheduled payouts through NPI (validated, posted in NCHL-IPS batches, reconciled) against the bank file of the same', async () => {
      const p = await npiPayoutsRun(log);
      log(`  NPI ${p.npi.seconds.toFixed(1)} s (${p.npi.paid} Paid, peak RSS ${p.npi.peakRssMb} MiB) against the bank file ${p.file.seconds.toFixed(1)} s: ${p.ratio.toFixed(2)} ×`);
      if (p.npi.paid !== p.merchants || p.npi.reconciled.differences > 0 || !p.ledgerHolds) throw new Error(`NPI paid ${p.npi.paid} of ${p.merchants}, ${p.npi.reconciled.differences} differences, ledger ${p.ledgerHolds ? 'holds' : 'broken'}`);
      return p;
    });

    if (runs('embedded')) results.embedded = await step("embedded start (PGlite): restart against a plain PGlite open, first start against restart", async () => {
      const r = await embeddedStart(log);
      log(`  restart ${r.median.toFixed(2)} s, ${r.restartRatio.toFixed(2)} × a plain PGlite open (${r.plainMedian.toFixed(2)} s), ${r.tunedRatio.toFixed(2)} × the store's tuned open (${r.floorMedian.toFixed(2)} s); first start ${r.firstMedian.toFixed(2)} s, ${r.firstRatio.toFixed(2)} × restart`);
      return r;
    });

    if (settings.evidence && lookupPidx) {
      results.apiStatements = await step('statements per lookup and initiate (statement log)', () => apiStatements(apiMerchant.liveKey, lookupPidx!));
    }

    if (settings.evidence && (runs('lookup') || runs('initiate') || runs('esewa'))) {
      await step("CPU profiles of the service (lookup, initiate, eSewa's form)", async () => {
        results.profiles = {};
        if (runs('lookup')) results.profiles.lookup = await profileUnderLoad(async (s) => {
          const c = client(s.port, 8);
          const pidxs = await preparePayments(c, apiMerchant.liveKey, 200);
          c.close();
          let i = 0;
          await measureLoad({
            port: s.port,
            method: 'POST',
            path: '/api/v2/epayment/lookup/',
            headers: { authorization: `Key ${apiMerchant.liveKey}`, 'content-type': 'application/json' },
            body: () => `{"pidx":"${pidxs[i++ % pidxs.length]}"}`,
          });
        });
        if (runs('initiate')) results.profiles.initiate = await profileUnderLoad(async (s) => {
          let i = 50_000_000;
          await measureLoad({
            port: s.port,
            method: 'POST',
            path: '/api/v2/epayment/initiate/',
            headers: { authorization: `Key ${apiMerchant.liveKey}`, 'content-type': 'application/json' },
            body: () => JSON.stringify(initiateBody(i++)),
          });
        });
        if (runs('esewa')) results.profiles.esewaForm = await profileUnderLoad((s) => esewaFormRun(s, apiMerchant.esewa.live, 99));
      });
    }
  } finally {
    await service?.stop();
    await reference.stop();
  }
}

try {
  await main();
} catch (error) {
  results.errors.push(`harness: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
  console.error(error);
}
results.meta.loadAfter = loadavg();
// Up to the report: writing it takes no time worth counting.
results.meta.totalSeconds = (performance.now() - began) / 1000;
const path = writeReport(results);
log(`wrote ${path} (${results.meta.totalSeconds.toFixed(0)} s in all)`);
process.exit(results.errors.length ? 1 : 0);
