// A merchant's live key and live hosted pages work only while it is approved;
// test keys work in every status. By HTTP, as the merchant's server and a payer's browser see it.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { merchantApi, validInitiate } from '../../test/api-client.js';
import { merchantIn } from '../../test/merchant-approval.js';
import { operatorWallet, otpSentFor, payerBrowser, walletBalanceOf } from '../../test/portal-client.js';
import { startTestApp, type TestApp } from '../../test/test-app.js';
import { CLI_ACTOR } from '../audit/audit-entry.js';
import { verifyLedger } from '../ledger/verify-ledger.js';
import { reactivateMerchant, suspendMerchant } from './decide-merchant.js';
import { approvalStatuses } from './merchant.js';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());
afterEach(async () => {
  expect((await verifyLedger(t.db)).filter((r) => !r.holds)).toEqual([]);
});

const forbidden = (why: string) => ({ status: 403, body: { detail: expect.stringContaining(why), status_code: 403 } });

describe('live API calls by approval status', () => {
  const refusals = {
    new: 'Your live account is not approved yet',
    applied: 'Your live account is not approved yet',
    rejected: 'Your live account was not approved',
    suspended: 'This merchant is suspended',
  } as const;

  it.each(approvalStatuses)('%s: live as the status allows, test always', async (status) => {
    const { live_secret_key, test_secret_key } = await merchantIn(t.ctx, status);
    const live = merchantApi(t.app, live_secret_key);
    if (status === 'approved') {
      expect((await live.initiate()).status).toBe(200);
      expect((await live.transactions()).status).toBe(200);
    } else {
      const why = refusals[status];
      expect(await live.initiate()).toEqual(forbidden(why));
      expect(await live.lookup('anything')).toEqual(forbidden(why));
      expect(await live.transactions()).toEqual(forbidden(why));
    }
    // The sandbox stays open, suspended too, so an integration can be worked on meanwhile.
    expect((await merchantApi(t.app, test_secret_key).initiate()).status).toBe(200);
  });

  it('a suspension takes effect within KEY_CACHE_SECONDS, a reactivation likewise', async () => {
    const cached = await startTestApp({ db: t.db, config: { keyCacheSeconds: 1 } });
    try {
      const { merchant, live_secret_key } = await merchantIn(cached.ctx, 'approved');
      const live = merchantApi(cached.app, live_secret_key);
      expect((await live.initiate()).status).toBe(200);
      await suspendMerchant(cached.ctx, { actor: CLI_ACTOR, merchantIdx: merchant.idx, reason: 'Chargebacks.' });
      await expect.poll(async () => (await live.initiate()).status, { timeout: 1500, interval: 100 }).toBe(403);
      await reactivateMerchant(cached.ctx, { actor: CLI_ACTOR, merchantIdx: merchant.idx });
      await expect.poll(async () => (await live.initiate()).status, { timeout: 1500, interval: 100 }).toBe(200);
    } finally {
      await cached.close();
    }
  });
});

describe("a suspended merchant's live hosted page", () => {
  it('shows a notice instead of the pay form, refuses the OTP without moving money, and pays again once reactivated', async () => {
    const { merchant, live_secret_key, test_secret_key } = await merchantIn(t.ctx, 'approved');
    const payer = await operatorWallet(t.ctx, { balance: 50_000 });
    const { body: payment } = await merchantApi(t.app, live_secret_key).initiate(validInitiate({ amount: 12_300 }));
    const browser = payerBrowser(t.app);
    expect((await browser.open(payment.pidx)).body).toContain('name="mpin"');
    const otpStep = await browser.wallet(payment.pidx, payer.mobile, payer.mpin);
    expect(otpStep.body).toContain('name="otp"');

    await suspendMerchant(t.ctx, { actor: CLI_ACTOR, merchantIdx: merchant.idx, reason: 'Chargebacks.' });

    const refused = await browser.otp(payment.pidx, otpSentFor(t.sentOtps, payment.pidx));
    expect(refused.status).toBe(403);
    expect(refused.body).toContain('Payments unavailable');
    expect(refused.body).toContain('cannot take payments at the moment. You have not been charged.');
    expect(refused.body).not.toContain('Chargebacks');
    const page = await browser.open(payment.pidx);
    expect(page.status).toBe(403);
    expect(page.body).not.toContain('name="mpin"');
    expect((await browser.post(`/pay/${payment.pidx}/wallet`, { mobile: payer.mobile, mpin: payer.mpin })).status).toBe(403);
    expect(await walletBalanceOf(t.ctx, payer.wallet)).toBe(50_000);
    const [row] = await t.db.query<{ status: string }>('SELECT status FROM payments WHERE pidx = $1', [payment.pidx]);
    expect(row.status).toBe('Initiated');

    // Its sandbox page still takes (pretend) payments.
    const { body: testPayment } = await merchantApi(t.app, test_secret_key).initiate();
    expect((await payerBrowser(t.app).pay(testPayment.pidx)).status).toBe(303);

    await reactivateMerchant(t.ctx, { actor: CLI_ACTOR, merchantIdx: merchant.idx });
    const again = payerBrowser(t.app);
    expect((await again.open(payment.pidx)).body).toContain('name="mpin"');
    await again.wallet(payment.pidx, payer.mobile, payer.mpin);
    expect((await again.otp(payment.pidx, otpSentFor(t.sentOtps, payment.pidx))).status).toBe(303);
    expect(await walletBalanceOf(t.ctx, payer.wallet)).toBe(50_000 - 12_300);
  });
});
