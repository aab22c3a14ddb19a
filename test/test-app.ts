// One running app per test file, on a database prepared once per run (see global-setup.ts).
import { readFileSync } from 'node:fs';
import { Writable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { inject } from 'vitest';
import { buildApp } from '../src/app.js';
import { cryptoIds, ManualClock } from '../src/clock.js';
import { loadConfig, type Config } from '../src/config.js';
import type { AppContext } from '../src/context.js';
import type { Db } from '../src/db/db.js';
import { openPglite } from '../src/db/pglite.js';
import { openPostgres } from '../src/db/postgres.js';
import { createLogger } from '../src/http/logger.js';
import { createMetrics } from '../src/http/metrics.js';
import { rateLimiter } from '../src/http/rate-limiter.js';
import { createMailer } from '../src/mail/mailer.js';
import { createMerchant } from '../src/merchants/create-merchant.js';
import type { Log, OtpSender } from '../src/wallets/otp-sender.js';
import { watchMail } from './mailbox.js';
import { ownPostgresSchema } from './postgres-schema.js';
import { providerPaymentsPort } from '../src/provider-payments/port.js';

type SentOtp = Parameters<OtpSender['send']>[0];

export interface TestApp {
  app: FastifyInstance;
  ctx: AppContext;
  db: Db;
  clock: ManualClock;
  /** Everything the app logged, one JSON line each. */
  logs: string[];
  /** OTPs sent to live wallets, newest last. */
  sentOtps: SentOtp[];
  close(): Promise<void>;
}

const freshPglite = () => openPglite({ loadDataDir: new Blob([readFileSync(inject('pgliteDump'))]) });

/** One PGlite per worker process: its test files run one after another and share it (loaded once). */
let workerPglite: Promise<Db> | undefined;

/**
 * The test store, shared by the test files as they share one PostgreSQL database: every test makes
 * its own merchants, so tests never see each other's data. Closing it only lets go of this handle.
 */
export async function openTestDb(): Promise<Db> {
  const url = process.env.DATABASE_URL;
  if (url?.startsWith('postgres')) return openPostgres(url, { max: 20 });
  workerPglite ??= freshPglite();
  return { ...(await workerPglite), close: async () => {} };
}

export function testConfig(overrides: Partial<Config> = {}): Config {
  // Limits high enough for the suites' bursts; the rate-limit tests set their own.
  return {
    ...loadConfig({ PUBLIC_URL: 'http://bhuktani.test', LOG_LEVEL: 'info', LOG_FORMAT: 'json', KEY_CACHE_SECONDS: '0', RATE_LIMIT_TEST: '100000', RATE_LIMIT_LIVE: '100000', PAYER_ATTEMPTS_PER_MINUTE: '100000', SETTLEMENT_HOLD_HOURS: '0' }),
    ...overrides,
  };
}

/**
 * A database of this test file's own. On PGlite every file has one anyway; on PostgreSQL the files
 * share one, so a file whose background jobs act on the whole store (the expiry sweep, the webhook
 * sender) gets a schema of its own, migrated like the shared one and dropped at the end.
 */
export async function ownTestDb(): Promise<{ db: Db; drop(): Promise<void> }> {
  const url = process.env.DATABASE_URL;
  if (!url?.startsWith('postgres')) {
    const db = await freshPglite();
    return { db, drop: () => db.close() };
  }
  return ownPostgresSchema(url, 'own', 20);
}

/** `otp`: the sender to use instead of the recording one, given the app's logger (so its lines are in `logs`). */
export async function startTestApp(options: { config?: Partial<Config>; db?: Db; ownDb?: boolean; otp?: (log: Log) => OtpSender } = {}): Promise<TestApp> {
  const own = options.ownDb ? await ownTestDb() : undefined;
  const db = options.db ?? own?.db ?? (await openTestDb());
  const clock = new ManualClock();
  const logs: string[] = [];
  const forgetMail = watchMail({ logs });
  const sentOtps: SentOtp[] = [];
  const logStream = new Writable({
    write(chunk, _encoding, done) {
      logs.push(String(chunk));
      done();
    },
  });
  const config = testConfig(options.config);
  const logger = createLogger(config, logStream);
  const otp: OtpSender = options.otp?.(logger) ?? {
    async send(message) {
      sentOtps.push(message);
    },
  };
  const ctx: AppContext = { db, clock, ids: cryptoIds, config, otp, metrics: createMetrics(db), limiter: rateLimiter(config), mailer: createMailer(config, logger), providerPayments: providerPaymentsPort };
  const app = await buildApp(ctx, { logger });
  await app.ready();
  return {
    app,
    ctx,
    db,
    clock,
    logs,
    sentOtps,
    async close() {
      forgetMail();
      await app.close();
      await ctx.limiter.close();
      await ctx.mailer.close();
      if (own) await own.drop();
      else if (!options.db) await db.close();
    },
  };
}

let counter = 0;

/** A new merchant with its keys; every test makes its own, so tests never see each other's data. */
export async function newMerchant(ctx: AppContext, overrides: { fee_bps?: number; name?: string } = {}) {
  counter += 1;
  const unique = `${process.pid}-${Date.now()}-${counter}`;
  return createMerchant(ctx, {
    name: overrides.name ?? `Shop ${unique}`,
    email: `shop-${unique}@example.com`,
    password: 'correct horse battery',
    fee_bps: overrides.fee_bps,
  });
}
