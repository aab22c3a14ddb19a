// The background sweep persists `Expired`: each overdue payment once, never a
// paid one, and a confirm racing it ends in exactly one outcome.
//
// The sweep expires every overdue payment in the store, and on PostgreSQL the store is shared by all
// test files of a run. So this file's clock is set back to 1999: its sweeps only ever reach payments
// made at that time, which no other test makes, and leave everyone else's alone.
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { merchantApi, validInitiate } from '../../test/api-client.js';
import { callbackParams, payerBrowser } from '../../test/portal-client.js';
import { newMerchant, startTestApp, type TestApp } from '../../test/test-app.js';
import type { AppContext } from '../context.js';
import type { Db } from '../db/db.js';
import { verifyLedger } from '../ledger/verify-ledger.js';
import { expireOverdue } from '../payments/state-machine.js';
import { expirySweep } from './expiry-sweep.js';

const TTL = 3600;

let t: TestApp;
let api: ReturnType<typeof merchantApi>;

beforeAll(async () => {
  t = await startTestApp();
  t.clock.advance((Date.parse('1999-01-01T00:00:00Z') - t.clock.now().getTime()) / 1000);
  api = merchantApi(t.app, (await newMerchant(t.ctx)).test_secret_key);
});
afterAll(() => t.close());
afterEach(async () => {
  expect((await verifyLedger(t.db)).filter((r) => !r.holds)).toEqual([]);
});

const failOnError = (error: unknown) => {
  throw error;
};

async function initiateMany(n: number): Promise<string[]> {
  const pidxs: string[] = [];
  for (let i = 0; i < n; i++) {
    const { status, body } = await api.initiate(validInitiate());
    expect(status).toBe(200);
    pidxs.push(body.pidx);
  }
  return pidxs;
}

async function statuses(pidxs: string[]): Promise<Record<string, string>> {
  const rows = await t.db.query<{ pidx: string; status: string }>('SELECT pidx, status FROM payments WHERE pidx = ANY($1)', [pidxs]);
  return Object.fromEntries(rows.map((r) => [r.pidx, r.status]));
}

async function expireEvents(pidxs: string[]): Promise<Record<string, number>> {
  const rows = await t.db.query<{ pidx: string; n: number }>(
    `SELECT pidx, count(*)::int AS n FROM payment_events WHERE event = 'expire' AND pidx = ANY($1) GROUP BY pidx`,
    [pidxs],
  );
  return Object.fromEntries(rows.map((r) => [r.pidx, r.n]));
}

const each = <T>(pidxs: string[], value: T) => Object.fromEntries(pidxs.map((p) => [p, value]));

/** Expires whatever is overdue now, so a test starts from a store with nothing left to sweep. */
async function sweepLeftovers() {
  t.clock.advance(TTL + 1);
  await expirySweep(t.ctx, failOnError).runOnce();
}

describe('expirySweep', () => {
  it('persists Expired for overdue payments, with one expire event each, and leaves the others', async () => {
    await sweepLeftovers();
    const overdue = await initiateMany(3);
    t.clock.advance(TTL - 10);
    const young = await initiateMany(2);
    t.clock.advance(10);

    const job = expirySweep(t.ctx, failOnError);
    expect(await job.runOnce()).toBe(3);
    expect(await statuses([...overdue, ...young])).toEqual({ ...each(overdue, 'Expired'), ...each(young, 'Initiated') });
    expect(await expireEvents([...overdue, ...young])).toEqual(each(overdue, 1));
    const [row] = await t.db.query<{ updated_at: Date }>('SELECT updated_at FROM payments WHERE pidx = $1', [overdue[0]]);
    expect(row.updated_at).toEqual(t.clock.now());

    // A second sweep finds nothing new to do.
    expect(await job.runOnce()).toBe(0);
    expect(await expireEvents(overdue)).toEqual(each(overdue, 1));

    const lookup = await api.lookup(overdue[0]);
    expect(lookup.status).toBe(400);
    expect(lookup.body).toMatchObject({ status: 'Expired', transaction_id: null, refunded: false });
  });

  it('expires exactly at expires_at, not a millisecond before', async () => {
    await sweepLeftovers();
    const [pidx] = await initiateMany(1);
    t.clock.advance(TTL - 0.001);
    expect(await expirySweep(t.ctx, failOnError).runOnce()).toBe(0);
    t.clock.advance(0.001);
    expect(await expirySweep(t.ctx, failOnError).runOnce()).toBe(1);
    expect(await statuses([pidx])).toEqual({ [pidx]: 'Expired' });
  });

  it('sweeps at once on several instances expire each payment exactly once', async () => {
    await sweepLeftovers();
    const pidxs = await initiateMany(60);
    t.clock.advance(TTL + 1);

    const jobs = Array.from({ length: 3 }, () => expirySweep(t.ctx, failOnError));
    const counts = await Promise.all(jobs.map((job) => job.runOnce()));
    expect(counts.reduce((a, b) => a + b, 0)).toBe(60);
    expect(await statuses(pidxs)).toEqual(each(pidxs, 'Expired'));
    expect(await expireEvents(pidxs)).toEqual(each(pidxs, 1));
  });

  it('expireOverdue at once from several callers: the batches do not overlap and cover every payment', async () => {
    await sweepLeftovers();
    const pidxs = await initiateMany(40);
    t.clock.advance(TTL + 1);
    const now = t.clock.now();
    const batches = await Promise.all([expireOverdue(t.db, now, 25), expireOverdue(t.db, now, 25), expireOverdue(t.db, now, 25)]);
    const all = batches.flat();
    expect(new Set(all).size).toBe(all.length);
    expect(all.length).toBeLessThanOrEqual(40);
    // Whatever a batch skipped (its rows were locked by another) the next sweep takes.
    const rest = await expireOverdue(t.db, now, 100);
    expect([...all, ...rest].sort()).toEqual([...pidxs].sort());
    expect(await expireEvents(pidxs)).toEqual(each(pidxs, 1));
  });

  it('never expires a paid, held or canceled payment', async () => {
    await sweepLeftovers();
    const [completed, pending, canceled, unpaid] = await initiateMany(4);
    expect((await payerBrowser(t.app).pay(completed)).status).toBe(303);
    expect((await payerBrowser(t.app).pay(pending, '9800000007')).status).toBe(303);
    const browser = payerBrowser(t.app);
    await browser.open(canceled);
    expect((await browser.cancel(canceled)).status).toBe(303);
    t.clock.advance(TTL * 3);

    expect(await expirySweep(t.ctx, failOnError).runOnce()).toBe(1);
    expect(await statuses([completed, pending, canceled, unpaid])).toEqual({
      [completed]: 'Completed',
      [pending]: 'Pending',
      [canceled]: 'User canceled',
      [unpaid]: 'Expired',
    });
    expect(await expireEvents([completed, pending, canceled, unpaid])).toEqual({ [unpaid]: 1 });
    expect((await api.lookup(completed)).body.status).toBe('Completed');
    expect((await api.lookup(pending)).body.status).toBe('Pending');
  });

  it('a confirm racing the sweep ends in exactly one outcome', async () => {
    for (let round = 0; round < 6; round++) {
      await sweepLeftovers();
      const { body } = await api.initiate(validInitiate({ amount: 2000 }));
      const expiresAt = new Date(body.expires_at);
      const browser = payerBrowser(t.app);
      await browser.open(body.pidx);
      t.clock.advance(TTL - 240);
      await browser.wallet(body.pidx, '9800000001', '1111');
      t.clock.advance(240 - 0.001);
      // The sweep runs on another instance, whose clock has just passed the expiry.
      const sweep = expirySweep({ ...t.ctx, clock: { now: () => expiresAt } }, failOnError);
      const confirm = () => browser.otp(body.pidx, '987654');
      const [response, swept] =
        round % 2 === 0 ? await Promise.all([confirm(), sweep.runOnce()]) : await Promise.all([sweep.runOnce(), confirm()]).then(([s, c]) => [c, s] as const);

      const status = (await statuses([body.pidx]))[body.pidx];
      const [{ n: journals }] = await t.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM journals WHERE pidx = $1`, [body.pidx]);
      if (status === 'Completed') {
        expect(response.status).toBe(303);
        expect(callbackParams(response.location!).status).toBe('Completed');
        expect(swept).toBe(0);
        expect(journals).toBe(1);
        expect(await expireEvents([body.pidx])).toEqual({});
      } else {
        expect(status).toBe('Expired');
        expect(response.status).toBe(410);
        expect(swept).toBe(1);
        expect(journals).toBe(0);
        expect(await expireEvents([body.pidx])).toEqual({ [body.pidx]: 1 });
      }
    }
  });
});

describe('the sweep as a background job', () => {
  // The job's interval is the test's to pass (vi.advanceTimersByTimeAsync): no test waits on the wall
  // clock, and a slow machine fails nothing. Everything else (the store's promises) runs for real.
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  /** A few turns of the event loop: whatever was started has reached its next await of the store. */
  const settle = async () => {
    for (let i = 0; i < 20; i++) await new Promise((resolve) => setImmediate(resolve));
  };

  /** The store, with each sweep's statement counted, and a promise of the next one's end. */
  function countedDb(db: Db, failFirst = false) {
    let sweeps = 0;
    let waiting: (() => void)[] = [];
    const counted: Db = {
      ...db,
      async query(sql, params) {
        if (!sql.includes('FOR UPDATE SKIP LOCKED')) return db.query(sql, params);
        sweeps += 1;
        try {
          if (failFirst && sweeps === 1) throw new Error('database went away');
          return await db.query(sql, params);
        } finally {
          for (const done of waiting.splice(0)) done();
        }
      },
    };
    return {
      db: counted,
      get sweeps() {
        return sweeps;
      },
      /** Resolves once the next sweep's statement has answered. */
      next: () => new Promise<void>((resolve) => waiting.push(resolve)),
    };
  }

  /** The store, with the sweep's query held until `release()`. */
  function gatedDb(db: Db) {
    let release!: () => void;
    let entered!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const reached = new Promise<void>((resolve) => (entered = resolve));
    const gated: Db = {
      ...db,
      async query(sql, params) {
        if (sql.includes('FOR UPDATE SKIP LOCKED')) {
          entered();
          await gate;
        }
        return db.query(sql, params);
      },
    };
    return { db: gated, release, reached };
  }

  it('stop() waits for a sweep in progress, and no sweep runs after it', async () => {
    await sweepLeftovers();
    const [pidx] = await initiateMany(1);
    t.clock.advance(TTL + 1);
    const store = gatedDb(t.db);
    const counted = countedDb(store.db);
    const job = expirySweep({ ...t.ctx, db: counted.db, config: { ...t.ctx.config, sweepIntervalSeconds: 1 } }, failOnError);
    job.start();
    await store.reached;

    let stopped = false;
    const stopping = job.stop().then(() => (stopped = true));
    // However long the sweep takes, stop() waits for it.
    await settle();
    await vi.advanceTimersByTimeAsync(5000);
    expect(stopped).toBe(false);
    expect(await statuses([pidx])).toEqual({ [pidx]: 'Initiated' });

    store.release();
    await stopping;
    expect(await statuses([pidx])).toEqual({ [pidx]: 'Expired' });
    const after = counted.sweeps;
    await vi.advanceTimersByTimeAsync(10_000);
    await settle();
    expect(counted.sweeps).toBe(after);
  });

  it('stop() of an idle job returns at once, started or not, and leaves no sweep to come', async () => {
    const counted = countedDb(t.db);
    const job = expirySweep({ ...t.ctx, db: counted.db, config: { ...t.ctx.config, sweepIntervalSeconds: 1 } }, failOnError);
    await expect(job.stop()).resolves.toBeUndefined();
    job.start();
    await counted.next();
    await settle();
    await expect(job.stop()).resolves.toBeUndefined();
    const after = counted.sweeps;
    await vi.advanceTimersByTimeAsync(10_000);
    await settle();
    expect(counted.sweeps).toBe(after);
  });

  it('sweeps on start and then every SWEEP_INTERVAL_SECONDS', async () => {
    await sweepLeftovers();
    const [first] = await initiateMany(1);
    t.clock.advance(TTL + 1);
    const counted = countedDb(t.db);
    const job = expirySweep({ ...t.ctx, db: counted.db, config: { ...t.ctx.config, sweepIntervalSeconds: 1 } }, failOnError);
    const started = counted.next();
    job.start();
    try {
      await started;
      await settle();
      expect(await statuses([first])).toEqual({ [first]: 'Expired' });
      const [second] = await initiateMany(1);
      t.clock.advance(TTL + 1);
      // Not before the interval has passed.
      await vi.advanceTimersByTimeAsync(999);
      await settle();
      expect(await statuses([second])).toEqual({ [second]: 'Initiated' });
      const swept = counted.next();
      await vi.advanceTimersByTimeAsync(1);
      await swept;
      await settle();
      expect(await statuses([second])).toEqual({ [second]: 'Expired' });
    } finally {
      await job.stop();
    }
  });

  it('a failing sweep is reported to onError and the job keeps going', async () => {
    const errors: unknown[] = [];
    const counted = countedDb(t.db, true);
    const job = expirySweep({ ...t.ctx, db: counted.db, config: { ...t.ctx.config, sweepIntervalSeconds: 1 } }, (error) => errors.push(error));
    const first = counted.next();
    job.start();
    try {
      await first;
      await settle();
      const second = counted.next();
      await vi.advanceTimersByTimeAsync(1000);
      await second;
      expect(counted.sweeps).toBe(2);
      expect(errors).toHaveLength(1);
      expect((errors[0] as Error).message).toBe('database went away');
    } finally {
      await job.stop();
    }
  });
});
