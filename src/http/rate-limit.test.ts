import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { merchantApi, validInitiate } from '../../test/api-client.js';
import { payerBrowser } from '../../test/portal-client.js';
import { newMerchant, startTestApp, type TestApp } from '../../test/test-app.js';
import { memoryRateLimiter, redisRateLimiter } from './rate-limiter.js';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ config: { rateLimitTest: 5, rateLimitLive: 8, payerAttemptsPerMinute: 3 } });
});
afterAll(() => t.close());

describe('per-key API limits', () => {
  it('answer 429 with Retry-After past the test key limit, per key', async () => {
    const merchant = await newMerchant(t.ctx);
    const send = () => t.app.inject({ method: 'POST', url: '/api/v2/epayment/lookup/', headers: { authorization: `Key ${merchant.test_secret_key}` }, payload: { pidx: 'x' } });
    const responses = await Promise.all(Array.from({ length: 20 }, send));
    const statuses = responses.map((r) => r.statusCode);
    // A burst of 20 spans at most two one-second windows: between 5 and 10 pass, the rest are refused.
    const passed = statuses.filter((s) => s === 404).length;
    expect(passed).toBeGreaterThanOrEqual(5);
    expect(passed).toBeLessThanOrEqual(10);
    expect(statuses.filter((s) => s === 429).length).toBe(20 - passed);
    const limited = responses.find((r) => r.statusCode === 429)!;
    expect(limited.json()).toEqual({ detail: 'Request was throttled.', status_code: 429 });
    expect(Number(limited.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    // Another key has its own budget.
    const other = merchantApi(t.app, (await newMerchant(t.ctx)).test_secret_key);
    expect((await other.initiate(validInitiate())).status).toBe(200);
  });
});

describe('per-IP limits on MPIN and OTP posts', () => {
  it('answer 429 after the configured attempts per minute', async () => {
    const api = merchantApi(t.app, (await newMerchant(t.ctx)).test_secret_key);
    const { body } = await api.initiate();
    const browser = payerBrowser(t.app);
    await browser.open(body.pidx);
    const statuses = [];
    // One budget, whichever address the form is posted to.
    for (const url of [`/pay/wallet?pidx=${body.pidx}`, `/pay/${body.pidx}/wallet`, `/pay/wallet?pidx=${body.pidx}`, `/pay/${body.pidx}/wallet`, `/pay/wallet?pidx=${body.pidx}`]) {
      statuses.push((await browser.post(url, { mobile: '9800000001', mpin: '0000' })).status);
    }
    expect(statuses).toEqual([400, 400, 400, 429, 429]);
    // A post answered 429 goes no further: its MPIN is not checked, and the right one starts nothing.
    expect((await browser.post(`/pay/wallet?pidx=${body.pidx}`, { mobile: '9800000001', mpin: '1111' })).status).toBe(429);
    const events = await t.db.query<{ event: string }>('SELECT event FROM payment_events WHERE pidx = $1', [body.pidx]);
    expect(events.map((e) => e.event)).toEqual(['wrong_mpin', 'wrong_mpin', 'wrong_mpin']);
    expect(t.sentOtps.filter((m) => m.pidx === body.pidx)).toEqual([]);
    expect(t.logs.filter((line) => line.includes('FST_ERR_REP_ALREADY_SENT'))).toEqual([]);
  });
});

describe('the limiters', () => {
  it('count in fixed windows in memory', async () => {
    let now = 10_000;
    const limiter = memoryRateLimiter(() => now);
    const results = [];
    for (let i = 0; i < 4; i++) results.push((await limiter.hit('k', 3, 1000)).allowed);
    expect(results).toEqual([true, true, true, false]);
    now += 1000;
    expect((await limiter.hit('k', 3, 1000)).allowed).toBe(true);
  });

  it('share one count across instances through Redis', async () => {
    const now = () => 1_000_000;
    const a = redisRateLimiter(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379', now);
    const b = redisRateLimiter(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379', now);
    const key = `test-${process.pid}-${Math.random()}`;
    try {
      const results = [];
      for (let i = 0; i < 3; i++) results.push((await a.hit(key, 4, 60_000)).allowed, (await b.hit(key, 4, 60_000)).allowed);
      expect(results).toEqual([true, true, true, true, false, false]);
    } finally {
      await a.close();
      await b.close();
    }
  });
});
