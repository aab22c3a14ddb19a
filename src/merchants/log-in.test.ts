// The log-in use case: password check, and the slow-down counted in the database, so it holds on
// every instance of the service at once.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, newMerchant, type TestApp } from '../../test/test-app.js';
import { FORGET_FAILURES_AFTER_SECONDS, lockSeconds } from '../people/sign-in-throttle.js';
import { EMAIL_FAILURES_BEFORE_LOCK, logIn, LogInError } from './log-in.js';

describe('lockSeconds', () => {
  it('locks from the threshold on, doubling from 30 seconds up to an hour', () => {
    expect([1, 4].map((n) => lockSeconds(n, 5))).toEqual([0, 0]);
    expect([5, 6, 7, 8].map((n) => lockSeconds(n, 5))).toEqual([30, 60, 120, 240]);
    expect(lockSeconds(12, 5)).toBe(3600);
    expect(lockSeconds(1000, 5)).toBe(3600);
  });
});

describe('logIn', () => {
  let a: TestApp;
  let b: TestApp;

  beforeAll(async () => {
    a = await startTestApp();
    // A second instance of the service on the same database.
    b = await startTestApp({ db: a.db });
  });
  afterAll(async () => {
    await b.close();
    await a.close();
  });

  const failure = async (app: TestApp, email: string, ip: string) => {
    try {
      await logIn(app.ctx, { email, password: 'wrong password', ip });
    } catch (error) {
      return error as LogInError;
    }
    throw new Error('logged in with a wrong password');
  };

  it('returns the person as the user of their business, without the password hash', async () => {
    const created = await newMerchant(a.ctx);
    const found = await logIn(a.ctx, { email: ` ${created.merchant.email.toUpperCase()} `, password: 'correct horse battery', ip: '10.9.0.1' });
    expect(found.user).toEqual(created.owner);
    expect(found.user.merchant_id).toBe(created.merchant.id);
    expect(found.user.role).toBe('owner');
    expect(JSON.stringify(found)).not.toMatch(/password|scrypt/);
  });

  it('counts failures on every instance: four on one and the fifth on another lock both', async () => {
    const { merchant } = await newMerchant(a.ctx);
    for (let i = 1; i < EMAIL_FAILURES_BEFORE_LOCK; i++) expect((await failure(a, merchant.email, `10.9.1.${i}`)).code).toBe('wrong_credentials');
    const fifth = await failure(b, merchant.email, '10.9.1.9');
    expect(fifth.code).toBe('locked');
    expect(fifth.message).toBe('Too many failed log-ins. Try again in 30 seconds.');
    await expect(logIn(a.ctx, { email: merchant.email, password: 'correct horse battery', ip: '10.9.1.10' })).rejects.toMatchObject({ code: 'locked' });
  });

  it('forgets old failures after a day without one', async () => {
    const { merchant } = await newMerchant(a.ctx);
    for (let i = 1; i < EMAIL_FAILURES_BEFORE_LOCK; i++) await failure(a, merchant.email, `10.9.2.${i}`);
    a.clock.advance(FORGET_FAILURES_AFTER_SECONDS + 1);
    b.clock.advance(FORGET_FAILURES_AFTER_SECONDS + 1);
    expect((await failure(a, merchant.email, '10.9.2.9')).code).toBe('wrong_credentials');
  });

  it('counts concurrent failures, none lost', async () => {
    // Eight at once from one address on both instances, below its lock: each one counted.
    const emails = await Promise.all(Array.from({ length: 8 }, async () => (await newMerchant(a.ctx)).merchant.email));
    const results = await Promise.all(emails.map((email, i) => failure(i % 2 ? a : b, email, '10.9.3.1')));
    expect(results.map((r) => r.code)).toEqual(Array(8).fill('wrong_credentials'));
    const [ip] = await a.db.query<{ failures: number }>('SELECT failures FROM login_failures WHERE scope = $1', ['ip:10.9.3.1']);
    expect(ip.failures).toBe(8);
  });

  it('locks one e-mail under concurrent failures: no more than four answered as a wrong password', async () => {
    const { merchant } = await newMerchant(a.ctx);
    const results = await Promise.all(Array.from({ length: 8 }, (_, i) => failure(i % 2 ? a : b, merchant.email, `10.9.4.${i}`)));
    expect(results.filter((r) => r.code === 'locked').length).toBeGreaterThanOrEqual(8 - (EMAIL_FAILURES_BEFORE_LOCK - 1));
    // Those that came once it was locked were refused before their password was checked, uncounted.
    const [row] = await a.db.query<{ failures: number }>('SELECT failures FROM login_failures WHERE scope = $1', [`email:${merchant.email.toLowerCase()}`]);
    expect(row.failures).toBeGreaterThanOrEqual(EMAIL_FAILURES_BEFORE_LOCK);
    expect(row.failures).toBeLessThanOrEqual(8);
  });
});
