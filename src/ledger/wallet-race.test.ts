// Racing requests end in exactly one outcome: many payments on one
// wallet never overdraw it, two payers of one payment or of one order never both pay, and a
// confirm racing the expiry either pays or expires, never both.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { merchantApi, validInitiate } from '../../test/api-client.js';
import { callbackParams, operatorWallet, otpSentFor, payerBrowser, walletBalanceOf } from '../../test/portal-client.js';
import { newMerchant, startTestApp, type TestApp } from '../../test/test-app.js';
import { transition } from '../payments/state-machine.js';
import { topupWallet } from '../wallets/topup-wallet.js';
import { findWallet } from '../wallets/wallet-store.js';
import { verifyLedger } from './verify-ledger.js';

let t: TestApp;
let merchant: Awaited<ReturnType<typeof newMerchant>>;
let liveApi: ReturnType<typeof merchantApi>;
let testApi: ReturnType<typeof merchantApi>;

beforeAll(async () => {
  t = await startTestApp();
  merchant = await newMerchant(t.ctx);
  liveApi = merchantApi(t.app, merchant.live_secret_key);
  testApi = merchantApi(t.app, merchant.test_secret_key);
});
afterAll(() => t.close());
afterEach(async () => {
  expect((await verifyLedger(t.db)).filter((r) => !r.holds)).toEqual([]);
});

async function paymentJournalCount(pidxs: string[]): Promise<number> {
  const [row] = await t.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM journals WHERE kind = 'payment' AND pidx = ANY($1)`, [pidxs]);
  return row.n;
}

async function storedStatus(pidx: string): Promise<string> {
  const [row] = await t.db.query<{ status: string }>('SELECT status FROM payments WHERE pidx = $1', [pidx]);
  return row.status;
}

describe('one live wallet, many payments at once', () => {
  it('funded for 3 of 10: exactly 3 complete, the rest see insufficient balance, the balance never goes negative', async () => {
    const amount = 1000;
    const funding = 3 * amount + 500;
    const payer = await operatorWallet(t.ctx, { balance: funding });
    const payments = [];
    for (let i = 0; i < 10; i++) {
      const { body } = await liveApi.initiate(validInitiate({ amount }));
      const browser = payerBrowser(t.app);
      await browser.open(body.pidx);
      // Every MPIN step passes: the wallet holds enough for any one payment.
      expect((await browser.wallet(body.pidx, payer.mobile, payer.mpin)).body).toContain('name="otp"');
      payments.push({ pidx: body.pidx as string, browser, otp: otpSentFor(t.sentOtps, body.pidx) });
    }

    const responses = await Promise.all(payments.map((p) => p.browser.otp(p.pidx, p.otp)));

    const completed = responses.filter((r) => r.status === 303);
    expect(completed).toHaveLength(3);
    for (const r of completed) expect(callbackParams(r.location!)).toMatchObject({ status: 'Completed', amount: String(amount) });
    const refused = responses.filter((r) => r.status !== 303);
    expect(refused).toHaveLength(7);
    for (const r of refused) {
      expect(r.status).toBe(400);
      expect(r.body).toContain('This wallet does not have enough balance. Try another wallet.');
    }

    expect(await walletBalanceOf(t.ctx, payer.wallet)).toBe(funding - 3 * amount);
    const lookups = await Promise.all(payments.map((p) => liveApi.lookup(p.pidx)));
    expect(lookups.filter((l) => l.body.status === 'Completed')).toHaveLength(3);
    expect(lookups.filter((l) => l.body.status === 'Initiated')).toHaveLength(7);
    expect(await paymentJournalCount(payments.map((p) => p.pidx))).toBe(3);
    const [wallet] = await t.db.query<{ posted: number }>(
      `SELECT coalesce(sum(p.amount), 0) AS posted FROM postings p JOIN ledger_accounts a ON a.id = p.account_id
        WHERE a.kind = 'wallet' AND a.environment = 'live' AND a.owner_id = $1`,
      [payer.wallet.id],
    );
    expect(wallet.posted).toBe(funding - 3 * amount);

    // The payers who were refused can pay once the wallet is topped up again.
    await topupWallet(t.ctx, { mobile: payer.mobile, amount: 1000, environment: 'live' });
    const retry = payments.find((_, i) => responses[i].status !== 303)!;
    await retry.browser.wallet(retry.pidx, payer.mobile, payer.mpin);
    const paid = await retry.browser.otp(retry.pidx, otpSentFor(t.sentOtps, retry.pidx));
    expect(paid.status).toBe(303);
    expect(await walletBalanceOf(t.ctx, payer.wallet)).toBe(500);
  });

  it('two payers racing for one payment: one pays, the other wallet is untouched', async () => {
    const [a, b] = [await operatorWallet(t.ctx, { balance: 10_000 }), await operatorWallet(t.ctx, { balance: 10_000 })];
    const { body } = await liveApi.initiate(validInitiate({ amount: 2000 }));
    const browsers = [payerBrowser(t.app), payerBrowser(t.app)];
    const otps: string[] = [];
    for (const [i, payer] of [a, b].entries()) {
      await browsers[i].open(body.pidx);
      await browsers[i].wallet(body.pidx, payer.mobile, payer.mpin);
      otps.push(otpSentFor(t.sentOtps, body.pidx));
    }
    const responses = await Promise.all(browsers.map((browser, i) => browser.otp(body.pidx, otps[i])));
    const winners = responses.filter((r) => r.status === 303);
    expect(winners).toHaveLength(1);
    const loser = responses.find((r) => r.status !== 303)!;
    expect([200, 409]).toContain(loser.status);
    expect(loser.body).not.toContain('name="otp"');
    const balances = [await walletBalanceOf(t.ctx, a.wallet), await walletBalanceOf(t.ctx, b.wallet)].sort((x, y) => x - y);
    expect(balances).toEqual([8000, 10_000]);
    expect(await paymentJournalCount([body.pidx])).toBe(1);
  });

  it('two pidx of one order paid at once: only one completes', async () => {
    const order = `order-${Math.random().toString(36).slice(2)}`;
    const pidxs: string[] = [];
    const browsers = [];
    for (const mobile of ['9800000001', '9800000002', '9800000003']) {
      const { body } = await testApi.initiate(validInitiate({ purchase_order_id: order }));
      const browser = payerBrowser(t.app);
      await browser.open(body.pidx);
      await browser.wallet(body.pidx, mobile, '1111');
      pidxs.push(body.pidx);
      browsers.push(browser);
    }
    const responses = await Promise.all(browsers.map((browser, i) => browser.otp(pidxs[i], '987654')));
    expect(responses.filter((r) => r.status === 303)).toHaveLength(1);
    for (const r of responses.filter((r) => r.status !== 303)) {
      expect(r.status).toBe(409);
      expect(r.body).toContain('already been paid');
    }
    const statuses = await Promise.all(pidxs.map(storedStatus));
    expect(statuses.filter((s) => s === 'Completed')).toHaveLength(1);
    expect(statuses.filter((s) => s === 'Initiated')).toHaveLength(2);
    expect(await paymentJournalCount(pidxs)).toBe(1);
  });
});

describe('sandbox wallets never run dry', () => {
  it('two payments at once that together exceed a sandbox wallet both complete', async () => {
    const sandboxWallet = (await findWallet(t.db, 'test', '9800000000'))!;
    // Each payment fits the balance, both together do not: the second must top the wallet up.
    const amount = Math.ceil((await walletBalanceOf(t.ctx, sandboxWallet)) * 0.6);
    const payments = [];
    for (let i = 0; i < 2; i++) {
      const { body } = await testApi.initiate(validInitiate({ amount }));
      const browser = payerBrowser(t.app);
      await browser.open(body.pidx);
      await browser.wallet(body.pidx, '9800000000', '1111');
      payments.push({ pidx: body.pidx as string, browser });
    }
    const responses = await Promise.all(payments.map((p) => p.browser.otp(p.pidx, '987654')));
    expect(responses.map((r) => [r.status, r.status === 303 ? callbackParams(r.location!).status : r.body.match(/role="alert">([^<]*)/)?.[1]])).toEqual([
      [303, 'Completed'],
      [303, 'Completed'],
    ]);
    expect(await paymentJournalCount(payments.map((p) => p.pidx))).toBe(2);
  });
});

describe('a confirm racing the expiry', () => {
  /** A payment whose payer reached the OTP step, with the clock left 1 ms before its expiry. */
  async function atTheLastMoment() {
    const { body } = await testApi.initiate(validInitiate({ amount: 3000 }));
    const expiresAt = new Date(body.expires_at);
    const browser = payerBrowser(t.app);
    await browser.open(body.pidx);
    // The OTP lives 5 minutes, so the payer starts 4 minutes before the link expires.
    t.clock.advance((expiresAt.getTime() - t.clock.now().getTime()) / 1000 - 240);
    await browser.wallet(body.pidx, '9800000002', '1111');
    t.clock.advance(240 - 0.001);
    return { pidx: body.pidx as string, expiresAt, browser };
  }

  it('one millisecond before the expiry the payment is paid', async () => {
    const { pidx, browser } = await atTheLastMoment();
    const done = await browser.otp(pidx, '987654');
    expect(done.status).toBe(303);
    expect(callbackParams(done.location!).status).toBe('Completed');
  });

  it('at the expiry it is not', async () => {
    const { pidx, browser } = await atTheLastMoment();
    t.clock.advance(0.001);
    const done = await browser.otp(pidx, '987654');
    expect(done.status).toBe(410);
    expect((await testApi.lookup(pidx)).body.status).toBe('Expired');
    expect(await paymentJournalCount([pidx])).toBe(0);
  });

  it('a confirm and the expire move at once end in exactly one outcome', async () => {
    for (let round = 0; round < 8; round++) {
      const { pidx, expiresAt, browser } = await atTheLastMoment();
      // Alternate which request starts first, so both orders are exercised.
      const confirm = () => browser.otp(pidx, '987654');
      const expire = () => transition(t.db, pidx, { name: 'expire' }, expiresAt);
      const [response, expired] =
        round % 2 === 0 ? await Promise.all([confirm(), expire()]) : await Promise.all([expire(), confirm()]).then(([e, c]) => [c, e] as const);

      const status = await storedStatus(pidx);
      const events = (await t.db.query<{ event: string }>(`SELECT event FROM payment_events WHERE pidx = $1 AND event IN ('pay', 'expire')`, [pidx])).map((r) => r.event);
      if (status === 'Completed') {
        expect(response.status).toBe(303);
        expect(expired).toBeNull();
        expect(events).toEqual(['pay']);
        expect(await paymentJournalCount([pidx])).toBe(1);
      } else {
        expect(status).toBe('Expired');
        expect(response.status).toBe(410);
        expect(expired).toMatchObject({ pidx, status: 'Expired' });
        expect(events).toEqual(['expire']);
        expect(await paymentJournalCount([pidx])).toBe(0);
      }
    }
  });
});
