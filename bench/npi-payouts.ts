// 10,000 scheduled payouts through NCHL's NPI against the bank file's export of the same payouts, in
// one process on one store (the embedded default, PGlite, as the sandbox runs; or DATABASE_URL's
// PostgreSQL). 10,000 approved merchants, each with a settlement account at NCHL bank 0401 and a
// daily schedule, are paid Rs 1,000 in each environment (set-based SQL that keeps `ledger verify`
// whole). The schedules' run requests both environments' payouts (timed on its own, common to both).
// Then, one after the other (each touches only its environment's payouts):
//   - the bank file: live's payouts exported as the bulk-transfer CSV (the reference);
//   - NPI: test's payouts through the sandbox's NPI simulator, over its HTTP protocol in process,
//     sent in NCHL-IPS batches (`--send batches`): every account validated, one batch of 10,000
//     posted, asked of NPI's report until NCHL-IPS credits it, and the day reconciled.
// Each side's wall time and the process's peak RSS over it; the figure is NPI's time over the file's.
// `BENCH_ONLY=payouts npm run bench` writes its section of docs/benchmarks.md; `npx tsx
// bench/npi-payouts.ts` prints the figures (`NPI_BENCH_MERCHANTS` for another count).
import { writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { buildApp } from '../src/app.js';
import { CLI_ACTOR } from '../src/audit/audit-entry.js';
import { ManualClock, cryptoIds } from '../src/clock.js';
import { loadConfig } from '../src/config.js';
import type { AppContext } from '../src/context.js';
import type { Db } from '../src/db/db.js';
import { initialDump } from '../src/db/initial-store.js';
import { migrate } from '../src/db/migrate.js';
import { openPglite } from '../src/db/pglite.js';
import { openPostgres } from '../src/db/postgres.js';
import { createLogger } from '../src/http/logger.js';
import { createMetrics } from '../src/http/metrics.js';
import { memoryRateLimiter } from '../src/http/rate-limiter.js';
import { runPayoutRails } from '../src/jobs/payout-rails-job.js';
import { verifyLedger } from '../src/ledger/verify-ledger.js';
import { createMailer } from '../src/mail/mailer.js';
import { usePasswordCost, hashPassword } from '../src/people/password.js';
import { providerPaymentsPort } from '../src/provider-payments/port.js';
import { bankTransferCsv } from '../src/settlements/bank-transfer-csv.js';
import { exportPayouts } from '../src/settlements/export-payouts.js';
import { sandboxNpiSetup, setPayoutRail } from '../src/settlements/payout-rail-setup.js';
import { reconcilePayouts } from '../src/settlements/reconcile-payouts.js';
import { runPayoutSchedules } from '../src/settlements/run-payout-schedules.js';

export interface NpiPayoutsResult {
  merchants: number;
  store: string;
  seedSeconds: number;
  scheduleSeconds: number;
  file: { seconds: number; peakRssMb: number; payouts: number };
  npi: { seconds: number; peakRssMb: number; paid: number; runs: number; validations: number; batches: number; postings: number; reconciled: { matched: number; differences: number } };
  ratio: number;
  ledgerHolds: boolean;
}

const AMOUNT = 100_000;

/** The peak RSS while `work` runs, sampled every 20 ms, in MiB. */
async function measured<T>(work: () => Promise<T>): Promise<{ value: T; seconds: number; peakRssMb: number }> {
  let peak = process.memoryUsage().rss;
  const timer = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 20);
  const started = performance.now();
  try {
    const value = await work();
    return { value, seconds: (performance.now() - started) / 1000, peakRssMb: Math.round(Math.max(peak, process.memoryUsage().rss) / 1048576) };
  } finally {
    clearInterval(timer);
  }
}

/** `merchants` approved merchants with an account at bank 0401 and a daily schedule, each paid AMOUNT in both environments. */
async function seed(db: Db, merchants: number): Promise<void> {
  const hash = await hashPassword('bench-merchant-password');
  await db.transaction(async (tx) => {
    await tx.query(
      `INSERT INTO merchants (idx, name, email, password_hash, fee_bps, created_at, status, status_changed_at)
       SELECT 'npibench' || lpad(g::text, 8, '0'), 'Bench Shop ' || g, 'npi-bench-' || g || '@example.com', $1, 300, now() - interval '30 days', 'approved', now() - interval '30 days'
         FROM generate_series(1, $2::int) g`,
      [hash, merchants],
    );
    await tx.query(
      `CREATE TEMP TABLE bench_merchants ON COMMIT DROP AS
       SELECT id, (substr(idx, 9))::int AS n FROM merchants WHERE idx LIKE 'npibench%'`,
    );
    await tx.query(
      `INSERT INTO merchant_bank_accounts (merchant_id, bank_name, branch, account_name, account_number, bank_code, branch_code, updated_at)
       SELECT id, 'Nepal Bank Ltd.', 'New Road', 'Bench Shop ' || n, '0123' || lpad(n::text, 6, '0') || '0001', '0401', '81', now() - interval '30 days' FROM bench_merchants`,
    );
    for (const environment of ['test', 'live']) {
      const e = environment[0];
      await tx.query(
        `INSERT INTO wallets (idx, environment, mobile, name, mpin_hash, sandbox, created_at)
         VALUES ($1, $2, $3, 'Bench Payer', $4, false, now() - interval '30 days')`,
        [`npibench-payer-${environment}`, environment, environment === 'test' ? '9799999001' : '9799999002', hash],
      );
      await tx.query(
        `INSERT INTO ledger_accounts (environment, kind, owner_id, balance)
         SELECT $1, 'wallet', id, 0 FROM wallets WHERE idx = $2
         UNION ALL SELECT $1, 'merchant', id, NULL FROM bench_merchants
         UNION ALL SELECT $1, 'fee', 0, NULL UNION ALL SELECT $1, 'funding', 0, NULL
         ON CONFLICT (environment, kind, owner_id) DO NOTHING`,
        [environment, `npibench-payer-${environment}`],
      );
      await tx.query(
        `INSERT INTO payments (pidx, merchant_id, environment, purchase_order_id, purchase_order_name, amount, fee, return_url, website_url,
           customer_info, merchant_fields, status, transaction_id, payer_mobile, refunded_amount, created_at, expires_at, updated_at)
         SELECT 'npib${e}' || lpad(n::text, 10, '0'), id, $1, 'order-' || n, 'Bench order ' || n, $2::bigint, $2::bigint * 300 / 10000,
                'https://shop.example.com/return', 'https://shop.example.com', NULL, '{}', 'Completed', 'npibtx${e}' || lpad(n::text, 10, '0'),
                (SELECT mobile FROM wallets WHERE idx = $3), 0, now() - interval '3 days', now() - interval '3 days' + interval '1 hour', now() - interval '3 days'
           FROM bench_merchants`,
        [environment, AMOUNT, `npibench-payer-${environment}`],
      );
      await tx.query(
        `INSERT INTO transactions (idx, merchant_id, environment, type, state, pidx, purchase_order_id, amount, fee_amount, refunded, payer_idx, payer_mobile, payer_name, created_at)
         SELECT pay.transaction_id, pay.merchant_id, $1, 'Wallet payment', 'Completed', pay.pidx, pay.purchase_order_id, pay.amount, pay.fee, false, w.idx, w.mobile, w.name, pay.created_at
           FROM payments pay JOIN wallets w ON w.idx = $2 WHERE pay.pidx LIKE 'npib${e}%'`,
        [environment, `npibench-payer-${environment}`],
      );
      await tx.query(
        `WITH journal AS (
           INSERT INTO journals (environment, kind, pidx, created_at)
           SELECT $1, 'payment', pidx, created_at FROM payments WHERE pidx LIKE 'npib${e}%' RETURNING id, pidx
         )
         INSERT INTO postings (journal_id, account_id, amount)
         SELECT journal.id, x.account_id, x.amount
           FROM journal JOIN payments pay ON pay.pidx = journal.pidx
           CROSS JOIN LATERAL (VALUES
             ((SELECT a.id FROM ledger_accounts a JOIN wallets w ON a.owner_id = w.id WHERE w.idx = $2 AND a.environment = $1 AND a.kind = 'wallet'), -pay.amount),
             ((SELECT id FROM ledger_accounts WHERE environment = $1 AND kind = 'merchant' AND owner_id = pay.merchant_id), pay.amount - pay.fee),
             ((SELECT id FROM ledger_accounts WHERE environment = $1 AND kind = 'fee' AND owner_id = 0), pay.fee)) x (account_id, amount)`,
        [environment, `npibench-payer-${environment}`],
      );
      // The payer was topped up with what it paid, before it paid.
      await tx.query(
        `WITH wallet AS (SELECT a.id FROM ledger_accounts a JOIN wallets w ON a.owner_id = w.id WHERE w.idx = $2 AND a.environment = $1 AND a.kind = 'wallet'),
              journal AS (INSERT INTO journals (environment, kind, pidx, created_at) VALUES ($1, 'topup', NULL, now() - interval '29 days') RETURNING id)
         INSERT INTO postings (journal_id, account_id, amount)
         SELECT journal.id, x.account_id, x.amount FROM journal CROSS JOIN LATERAL (VALUES
           ((SELECT id FROM ledger_accounts WHERE environment = $1 AND kind = 'funding' AND owner_id = 0), -$3::bigint),
           ((SELECT id FROM wallet), $3::bigint)) x (account_id, amount)`,
        [environment, `npibench-payer-${environment}`, AMOUNT * merchants],
      );
      await tx.query(
        `INSERT INTO payout_schedules (merchant_id, environment, frequency, weekday, minimum_amount, starts_on, updated_at)
         SELECT id, $1, 'daily', NULL, 0, (now() - interval '3 days')::date, now() - interval '3 days' FROM bench_merchants`,
        [environment],
      );
    }
  });
}

export async function npiPayoutsRun(log: (line: string) => void, merchants = Number(process.env.NPI_BENCH_MERCHANTS ?? 10_000)): Promise<NpiPayoutsResult> {
  usePasswordCost('tests');
  const url = process.env.DATABASE_URL;
  const db: Db = url?.startsWith('postgres') ? openPostgres(url, { max: 10 }) : await openPglite({ loadDataDir: initialDump() });
  if (url?.startsWith('postgres')) await db.exec('DROP SCHEMA IF EXISTS public CASCADE; CREATE SCHEMA public;');
  await migrate(db);
  const config = { ...loadConfig({ PUBLIC_URL: 'http://bhuktani.bench', LOG_LEVEL: 'warn', KEY_CACHE_SECONDS: '0', SETTLEMENT_HOLD_HOURS: '24' }) };
  const clock = new ManualClock();
  const logger = createLogger(config, new Writable({ write: (_c, _e, done) => done() }));
  const ctx: AppContext = {
    db,
    clock,
    ids: cryptoIds,
    config,
    otp: { async send() {} },
    metrics: createMetrics(db),
    limiter: memoryRateLimiter(() => clock.now().getTime()),
    mailer: createMailer(config, logger),
    providerPayments: providerPaymentsPort,
  };
  const app = await buildApp(ctx, { logger });
  await app.ready();
  try {
    const seeded = await measured(() => seed(db, merchants));
    log(`  npi payouts: seeded ${merchants} merchants in both environments (${seeded.seconds.toFixed(1)} s)`);
    // The operator sends test's payouts in NCHL-IPS batches, as the sandbox's member.
    const sandbox = await sandboxNpiSetup(ctx);
    await setPayoutRail(ctx, { actor: CLI_ACTOR, environment: 'test', rail: 'npi', values: { ...sandbox.settings, ...sandbox.credentials, send: 'batches' } });
    const scheduled = await measured(() => runPayoutSchedules(ctx, (id, error) => log(`  npi payouts: merchant ${id} refused: ${String(error)}`)));
    log(`  npi payouts: the schedules requested ${scheduled.value} payouts (${scheduled.seconds.toFixed(1)} s)`);
    const count = async (environment: string, state: string) => Number((await db.query<{ n: number }>('SELECT count(*) AS n FROM payouts WHERE environment = $1 AND state = $2', [environment, state]))[0].n);

    const file = await measured(async () => {
      const out = join(tmpdir(), `bhuktani-bench-payouts-${process.pid}.csv`);
      const exported = await exportPayouts(ctx, { actor: CLI_ACTOR, deliver: async (rows) => writeFileSync(out, bankTransferCsv(rows), { mode: 0o600 }) });
      return exported.length;
    });
    log(`  npi payouts: bank file of ${file.value} live payouts (${file.seconds.toFixed(1)} s, peak RSS ${file.peakRssMb} MiB)`);

    let runs = 0;
    const npi = await measured(async () => {
      const day = new Date(clock.now().getTime() + 345 * 60_000).toISOString().slice(0, 10);
      while ((await count('test', 'Requested')) + (await count('test', 'Processing')) > 0 && runs < 30) {
        await runPayoutRails(ctx);
        runs++;
        // NCHL-IPS's sessions, a second each in the sandbox; the reports are asked again after their back-off.
        clock.advance(10);
      }
      return reconcilePayouts(ctx, { environment: 'test', date: day });
    });
    const paid = await count('test', 'Paid');
    const [calls] = await db.query<{ validations: number; batches: number; postings: number }>(
      `SELECT (SELECT count(*) FROM account_checks WHERE environment = 'test') AS validations,
              (SELECT count(DISTINCT batch_id) FROM npi_transfers WHERE environment = 'test') AS batches,
              (SELECT coalesce(sum(posts), 0) FROM npi_transfers WHERE environment = 'test') AS postings`,
    );
    log(`  npi payouts: NPI paid ${paid} test payouts in ${runs} runs, reconciled ${npi.value.matched} (${npi.value.differences.length} differences) (${npi.seconds.toFixed(1)} s, peak RSS ${npi.peakRssMb} MiB)`);
    const holds = (await verifyLedger(db)).every((r) => r.holds);
    return {
      merchants,
      store: url?.startsWith('postgres') ? 'PostgreSQL' : 'PGlite',
      seedSeconds: seeded.seconds,
      scheduleSeconds: scheduled.seconds,
      file: { seconds: file.seconds, peakRssMb: file.peakRssMb, payouts: file.value },
      npi: {
        seconds: npi.seconds,
        peakRssMb: npi.peakRssMb,
        paid,
        runs,
        validations: Number(calls.validations),
        batches: Number(calls.batches),
        postings: Number(calls.postings),
        reconciled: { matched: npi.value.matched, differences: npi.value.differences.length },
      },
      ratio: npi.seconds / file.seconds,
      ledgerHolds: holds,
    };
  } finally {
    await app.close();
    await ctx.mailer.close();
    await db.close();
  }
}

const n1 = (x: number) => x.toFixed(1);

/** The section of docs/benchmarks.md (bench/report.ts puts it between its markers). */
export function npiPayoutsText(p: NpiPayoutsResult, runLine: string): string {
  const n = p.merchants.toLocaleString('en');
  return [
    `## Payouts through NCHL's NPI: ${n} scheduled payouts against the bank file`,
    '',
    runLine,
    '',
    '| figure | measured | reference (same run) | ratio | target | result |',
    '|---|---|---|---|---|---|',
    `| ${n} payouts through NPI (the sandbox's simulator, in NCHL-IPS batches): accounts validated, batch posted, asked until credited, the day reconciled | ${n1(p.npi.seconds)} s, peak RSS ${p.npi.peakRssMb} MiB; ${p.npi.paid.toLocaleString('en')} Paid in ${p.npi.runs} runs of the job, ${p.npi.validations.toLocaleString('en')} validations, ${p.npi.batches} batch${p.npi.batches === 1 ? '' : 'es'}, ${p.npi.postings.toLocaleString('en')} transactions posted; reconciled ${p.npi.reconciled.matched.toLocaleString('en')}, ${p.npi.reconciled.differences} differences | the bank file's export of the same ${p.file.payouts.toLocaleString('en')} payouts in live: ${n1(p.file.seconds)} s, peak RSS ${p.file.peakRssMb} MiB | ${p.ratio.toFixed(2)} | — | measured |`,
    '',
    `- **The payouts** (\`bench/npi-payouts.ts\`, in one process on ${p.store}): ${n} approved merchants, each with an account at NCHL bank 0401 and a daily schedule, paid Rs 1,000 three days before in each environment (set-based SQL, ${n1(p.seedSeconds)} s); the schedules' run requested both environments' payouts in ${n1(p.scheduleSeconds)} s (common to both sides, not in the ratio). \`ledger verify\` after the run: ${p.ledgerHolds ? 'holds' : '**broken**'}.`,
    `- **The reference**: \`exportPayouts\` (what \`bhuktani payout export\` and the console run) of the live payouts, the CSV written to a file: each payout moved to Processing with its audit entry, in one transaction.`,
    `- **NPI**: the test environment set up to send in batches (\`--send batches\`, the sandbox's member), then the payout rails' job run until no payout is Requested or Processing, the clock moved 10 s between runs (NCHL-IPS's sessions are a second each in the sandbox): every account validated over NPI's protocol, the payouts given their ids and moved to Processing, one batch posted and signed, NPI's report by batch asked until every credit was final, each payout Paid in the transaction that records it; then \`reconcilePayouts\` of the day (NPI's reports by date on both rails against the payouts). The simulator is served in process, so the figure is Bhuktani's and the simulator's work together, without a network.`,
  ].join('\n');
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const result = await npiPayoutsRun((line) => console.log(line));
  console.log(JSON.stringify(result, null, 2));
}
