// Payment completion: 32 payers, each with a live wallet of its own, paying one merchant at once.
// The measured request is exactly the OTP-confirm step, POST /pay/:pidx/confirm, which moves the
// payment and writes its journal and transaction record in one statement.
//
// Everything before it is real and unmeasured: payments made through the API, and the wallet step
// (POST /pay/:pidx/wallet with the CSRF token of the hosted page, mobile and MPIN) on a second
// instance at LOG_LEVEL=info with OTP_SENDER=log-insecure, which writes each live OTP to its log,
// where the harness reads it. The measured instance runs at LOG_LEVEL=warn.
import { randomBytes } from 'node:crypto';
import autocannon, { type RawRequest } from 'autocannon';
import { cryptoIds, systemClock } from '../src/clock.js';
import type { AppContext } from '../src/context.js';
import { loadConfig } from '../src/config.js';
import { openPostgres } from '../src/db/postgres.js';
import { usePasswordCost } from '../src/people/password.js';
import { createWallet } from '../src/wallets/create-wallet.js';
import { topupWallet } from '../src/wallets/topup-wallet.js';
import { capturePostgresLog, startEvidenceService, statementsOf } from './evidence.js';
import { client, inParallel, type Client } from './http.js';
import { analyze, waitSampler, type WaitProfile } from './postgres.js';
import { cpuWindow, type CpuSplit } from './processes.js';
import { medianRun, percentile } from './load.js';
import { profileUnderLoad, type ProfileResult } from './profile.js';
import { initiateBody, poolSampler, startService, type BenchMerchant, type PoolProfile, type Service } from './service.js';
import { databaseUrl, pg, settings } from './settings.js';

const MPIN = '2580';
/** Wallet steps stop after this long, so that every prepared OTP (valid 300 s) is still valid when used. */
const PREPARE_SECONDS_MAX = 200;

interface Prepared {
  payer: number;
  pidx: string;
  csrf: string;
  token: string;
  otp: string;
}

interface Payer {
  mobile: string;
  /** The payer's browser: its CSRF cookie nonce. */
  nonce: string;
}

/** One measured window: the 32 payers confirming at once. */
export interface CompletionRound {
  /** Confirms answered 303 to return_url with status=Completed, per second of the window. */
  rps: number;
  completed: number;
  failed: number;
  failures: Record<string, number>;
  seconds: number;
  p50: number;
  p99: number;
  waits: WaitProfile;
  pool: PoolProfile;
  cpu: CpuSplit;
}

/** The median round (by confirms/s), every round, and what was measured once. */
export interface CompletionResult extends CompletionRound {
  payers: number;
  rounds: CompletionRound[];
  prepareSeconds: number;
  prepared: number;
  /** Statements one confirm sends to PostgreSQL, from the server's statement log. */
  statementsPerConfirm?: string[];
  /** Where the service's CPU goes while payers confirm (a short profiled run after the windows). */
  profile?: ProfileResult;
}

/**
 * Live wallets made and funded through the service's own use cases, as the CLI does, their MPINs
 * hashed at scrypt's test cost as the in-process suites hash them: a hash carries its parameters, so
 * the service checks each at that cost in the unmeasured wallet step (five thousand of them, which at
 * the production cost took three minutes of the run). The measured confirm never reads the MPIN.
 */
async function createPayers(): Promise<Payer[]> {
  usePasswordCost('tests');
  const config = loadConfig({ DATABASE_URL: databaseUrl(pg.serviceDb), LOG_LEVEL: 'warn' });
  const db = openPostgres(config.databaseUrl!);
  const ctx = { db, clock: systemClock, ids: cryptoIds, config } as unknown as AppContext;
  try {
    return await inParallel(Array.from({ length: settings.payers }, (_, i) => i), 4, async (i) => {
      const mobile = `98500000${String(i).padStart(2, '0')}`;
      await createWallet(ctx, { mobile, name: `Bench Payer ${i}`, mpin: MPIN, environment: 'live' });
      await topupWallet(ctx, { mobile, amount: 100_000_000, environment: 'live' });
      return { mobile, nonce: randomBytes(16).toString('base64url') };
    });
  } finally {
    await db.close();
  }
}

const form = (fields: Record<string, string>) => new URLSearchParams(fields).toString();

/** The hosted page, then the wallet step; the OTP comes from the instance's log. */
async function walletStep(api: Client, payer: Payer, payerIndex: number, pidx: string, otps: Map<string, (otp: string) => void>): Promise<Prepared> {
  const cookie = `bhuktani_csrf=${payer.nonce}`;
  const page = await api.send('GET', `/pay/${pidx}`, { headers: { cookie } });
  const csrf = /name="csrf_token" value="([^"]+)"/.exec(page.body)?.[1];
  if (page.status !== 200 || !csrf) throw new Error(`the hosted page of ${pidx} answered ${page.status} without a CSRF token`);
  const otp = new Promise<string>((resolve, reject) => {
    otps.set(pidx, resolve);
    setTimeout(() => reject(new Error(`no OTP logged for ${pidx}`)), 30_000).unref();
  });
  const answer = await api.send('POST', `/pay/${pidx}/wallet`, {
    headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' },
    body: form({ csrf_token: csrf, mobile: payer.mobile, mpin: MPIN }),
  });
  const token = new URL(String(answer.headers.location ?? ''), 'http://x.invalid').searchParams.get('attempt');
  if (answer.status !== 303 || !token) throw new Error(`the wallet step of ${pidx} answered ${answer.status}: ${answer.body.slice(0, 300)}`);
  return { payer: payerIndex, pidx, csrf, token, otp: await otp };
}

function confirmRequest(payer: Payer, p: Prepared) {
  return {
    method: 'POST',
    path: `/pay/${p.pidx}/confirm`,
    headers: { cookie: `bhuktani_csrf=${payer.nonce}`, 'content-type': 'application/x-www-form-urlencoded' },
    body: form({ csrf_token: p.csrf, attempt: p.token, otp: p.otp }),
  };
}

function confirm(api: Client, payer: Payer, p: Prepared) {
  const { method, path, ...options } = confirmRequest(payer, p);
  return api.send(method, path, options);
}

const completedAnswer = (status: number, location: unknown) => status === 303 && /[?&]status=Completed(&|$)/.test(String(location ?? ''));

/**
 * The confirms, driven by autocannon (the load generator of the other scenarios, lighter than a
 * Node HTTP client): one keep-alive connection per payer, each confirming its own payments in turn.
 * `close` runs once, the moment the window ends: autocannon takes a while to stop, and the payers'
 * connections ask for /health meanwhile, which is not what the window's samplers are to measure.
 */
async function confirmWindow(port: number, payers: Payer[], queues: Prepared[][], close: () => void) {
  const failures: Record<string, number> = {};
  /** Milliseconds from building each counted confirm to its answer. */
  const latencies: number[] = [];
  let completed = 0;
  let open = true;
  let assigned = 0;
  let ended = 0;
  const longest = Math.max(...queues.map((q) => q.length));
  const started = performance.now();
  const run = autocannon({
    url: `http://127.0.0.1:${port}`,
    connections: payers.length,
    duration: settings.completionSeconds,
    timeout: 30,
    // One entry per payment a payer may confirm: autocannon keeps a connection's context until it
    // wraps around its list, so each connection stays one payer's browser.
    requests: Array.from({ length: longest + 1 }, () => ({
      setupRequest: (request: RawRequest, context: Record<string, unknown>) => {
        context.payer ??= assigned++;
        const payer = context.payer as number;
        const next = queues[payer]?.shift();
        context.confirming = next !== undefined && open;
        context.sentAt = performance.now();
        if (next) return confirmRequest(payers[payer], next);
        // The first payer with nothing left ends the window; its connection asks for /health meanwhile.
        if (open) {
          open = false;
          ended = performance.now();
          close();
          setImmediate(() => run.stop());
        }
        return { ...request, method: 'GET', path: '/health', headers: {}, body: undefined };
      },
      onResponse: (status: number, body: string, context: Record<string, unknown>, headers: Record<string, string>) => {
        if (!context.confirming || !open) return;
        latencies.push(performance.now() - (context.sentAt as number));
        if (completedAnswer(status, headers.location)) completed++;
        else {
          const reason = `${status} ${status === 303 ? String(headers.location).replace(/.*[?&](status=[^&]*).*/, '$1') : body.replace(/<[^>]+>/g, ' ').replace(/\s+/g, ' ').slice(0, 120)}`;
          failures[reason] = (failures[reason] ?? 0) + 1;
        }
      },
    })),
  });
  await run;
  if (open) close(); // the time ran out before any payer's share did
  open = false;
  // autocannon's own duration is in whole seconds, and its latencies count the /health requests
  // after the window too: both are measured here, for the confirms in the window only.
  return { completed, failures, seconds: ((ended || performance.now()) - started) / 1000, p50: percentile(latencies, 50), p99: percentile(latencies, 99) };
}

export async function completionRun(service: Service, merchant: BenchMerchant, log: (line: string) => void, beforeEachRound: (round: number) => Promise<void>): Promise<CompletionResult> {
  const payers = await createPayers();
  const perPayer = settings.paymentsPerPayer;
  const api = client(service.port, 64);

  // Payments through the API: payer i pays payments i, i + 32, …; more each for the evidence runs.
  const extra = settings.evidence ? settings.profilePaymentsPerPayer + 2 : 0;
  const total = settings.payers * (perPayer + extra);
  const pidxs = await inParallel(Array.from({ length: total }, (_, i) => i), 8, async (i) => {
    const answer = await api.json('POST', '/api/v2/epayment/initiate/', merchant.liveKey, initiateBody(i, `completion-${i}`));
    if (answer.status !== 200) throw new Error(`initiate answered ${answer.status}: ${answer.body}`);
    return JSON.parse(answer.body).pidx as string;
  });

  await analyze(pg.serviceDb);

  // The wallet steps, on an instance that logs the OTPs.
  const prepStarted = performance.now();
  const prep = await startService({ LOG_LEVEL: 'info' });
  const otps = new Map<string, (otp: string) => void>();
  prep.proc.onLine((line) => {
    if (!line.includes('OTP for a live wallet payment')) return;
    const entry = JSON.parse(line) as { pidx: string; otp: string };
    otps.get(entry.pidx)?.(entry.otp);
  });
  const prepApi = client(prep.port, 16);
  let done = 0;
  // OTPs live five minutes: on a slow machine fewer payments are prepared rather than some expiring.
  const prepareUntil = prepStarted + PREPARE_SECONDS_MAX * 1000;
  const steps = await inParallel(pidxs, 8, async (pidx, i) => {
    if (performance.now() > prepareUntil) return undefined;
    const p = await walletStep(prepApi, payers[i % settings.payers], i % settings.payers, pidx, otps);
    if (++done % 1000 === 0) log(`  wallet steps: ${done}/${total}`);
    return p;
  });
  const prepared = steps.filter((p): p is Prepared => p !== undefined);
  prepApi.close();
  await prep.stop();
  const prepareSeconds = (performance.now() - prepStarted) / 1000;
  log(`  ${prepared.length} wallet steps in ${prepareSeconds.toFixed(0)} s (OTPs live for 300 s)`);

  const queues = payers.map((_, i) => prepared.filter((p) => p.payer === i));
  const reserved = queues.map((q) => q.splice(Math.max(0, q.length - extra)));

  // Warm-up: every payer confirms its first few, together.
  await Promise.all(
    payers.map(async (payer, i) => {
      for (const p of queues[i].splice(0, settings.warmupPaymentsPerPayer)) await confirm(api, payer, p);
    }),
  );

  // The measured windows, each after `beforeEachRound` (the reference's round): all 32 payers
  // confirming, until the time is up or the first payer has nothing left of the round's share
  // (so that exactly 32 pay at once throughout).
  const share = Math.floor(Math.min(...queues.map((q) => q.length)) / settings.rounds);
  const rounds: CompletionRound[] = [];
  for (let round = 0; round < settings.rounds; round++) {
    await beforeEachRound(round);
    const waits = waitSampler(pg.serviceDb);
    const pool = poolSampler(service.port);
    const cpu = cpuWindow({ service: service.proc.pid }, pg.serviceDb, () => waits.backendPids());
    let samples: { cpu: CpuSplit; waits: Promise<WaitProfile>; pool: Promise<PoolProfile> } | undefined;
    const window = await confirmWindow(service.port, payers, queues.map((q) => q.splice(0, share)), () => {
      samples = { cpu: cpu.stop(), waits: waits.stop(), pool: pool.stop() };
    });
    const failed = Object.values(window.failures).reduce((a, b) => a + b, 0);
    rounds.push({ ...window, rps: window.completed / window.seconds, failed, cpu: samples!.cpu, waits: await samples!.waits, pool: await samples!.pool });
    log(`  round ${round + 1}: ${rounds[round].rps.toFixed(0)} confirms/s over ${window.seconds.toFixed(1)} s (${window.completed} completed, ${failed} failed), p99 ${window.p99.toFixed(1)} ms`);
  }

  // Evidence: the statements of one confirm, from an instance whose sessions log them.
  let statementsPerConfirm: string[] | undefined;
  let profile: ProfileResult | undefined;
  if (settings.evidence) {
    const evidence = await startEvidenceService();
    const evidenceApi = client(evidence.port, 2);
    try {
      // The first confirm warms the instance (the payer's, merchant's and fee ledger accounts are
      // remembered after it, as on the measured instance); the second is captured.
      await confirm(evidenceApi, payers[0], reserved[0].pop()!);
      const { entries } = await capturePostgresLog(pg.serviceDb, () => confirm(evidenceApi, payers[0], reserved[0].pop()!));
      statementsPerConfirm = entries ? statementsOf(entries) : undefined;
    } finally {
      evidenceApi.close();
      await evidence.stop();
    }
    // A CPU profile of an instance while the 32 payers confirm the rest of their payments.
    profile = await profileUnderLoad(async (profiled) => {
      const profiledApi = client(profiled.port, 64);
      await Promise.all(payers.map(async (payer, i) => {
        for (const p of reserved[i]) await confirm(profiledApi, payer, p);
      }));
      profiledApi.close();
    });
  }
  api.close();

  return {
    ...medianRun(rounds)!,
    payers: settings.payers,
    rounds,
    prepareSeconds,
    prepared: prepared.length,
    statementsPerConfirm,
    profile,
  };
}
