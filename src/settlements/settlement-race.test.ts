// Races for one merchant's last rupees: tens of refunds and payouts at once, over HTTP,
// never take its balance below zero, and every refused one is told why in the contract's shape.
// Payments to the same merchant keep completing meanwhile: they do not wait for its debit lock. In
// live a refund beyond the balance is refused; in test the sandbox covers it, each cover
// decided under the same lock, so none is given twice and none becomes money to pay out.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { merchantApi, refund, validInitiate } from '../../test/api-client.js';
import { callbackParams, operatorWallet, payerBrowser, payWithLiveWallet, type TestWallet } from '../../test/portal-client.js';
import { newMerchant, startTestApp, type TestApp } from '../../test/test-app.js';
import type { Environment } from '../environment.js';
import { verifyLedger } from '../ledger/verify-ledger.js';
import { saveBankAccount } from '../merchants/bank-account-store.js';
import { settlementBalance } from './settlement-balance.js';

let t: TestApp;

beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

/** A merchant of `environment` paid `count` payments of `amount`; `pay` pays one more of its payments (a live wallet's OTP, or a sandbox wallet). */
async function paidShop(environment: Environment, count: number, amount: number) {
  const shop = await newMerchant(t.ctx);
  const key = environment === 'live' ? shop.live_secret_key : shop.test_secret_key;
  const api = merchantApi(t.app, key);
  let payer: TestWallet | undefined;
  if (environment === 'live') {
    payer = await operatorWallet(t.ctx, { balance: 1_000_000 });
    await saveBankAccount(t.db, shop.merchant.id, { bankName: 'Nabil Bank', branch: 'Thamel', accountName: 'Shop', accountNumber: '0012345678901', updatedAt: t.clock.now() });
  }
  const pay = (pidx: string) => (payer ? payWithLiveWallet(payerBrowser(t.app), t.sentOtps, pidx, payer) : payerBrowser(t.app).pay(pidx));
  const paid: string[] = [];
  for (let i = 0; i < count; i++) {
    const { body } = await api.initiate(validInitiate({ amount }));
    paid.push(callbackParams((await pay(body.pidx)).location!).transaction_id);
  }
  const payout = (payoutAmount: number) =>
    t.app
      .inject({ method: 'POST', url: '/api/v2/settlements/', headers: { authorization: `Key ${key}` }, payload: { amount: payoutAmount } })
      .then((r) => ({ kind: 'payout', amount: payoutAmount, status: r.statusCode, body: r.json() }));
  const refundOf = (transactionId: string, refundAmount?: number) =>
    refund(t.app, key, transactionId, refundAmount === undefined ? undefined : { amount: refundAmount }).then((r) => ({ kind: 'refund', amount: refundAmount ?? amount, ...r }));
  // Payments that complete during a race: credits that must not be lost or blocked.
  const moreDuring = async (n: number, each: number) => {
    const pidxs = await Promise.all(Array.from({ length: n }, async () => (await api.initiate(validInitiate({ amount: each }))).body.pidx as string));
    return () => pidxs.map((pidx) => pay(pidx).then((r) => ({ kind: 'payment', amount: each, status: r.status, body: {} as Record<string, unknown> })));
  };
  return { shop, owner: { merchantId: shop.merchant.id, environment }, paid, payout, refundOf, moreDuring };
}

async function merchantLedgerBalance(owner: { merchantId: number; environment: Environment }): Promise<number> {
  const [{ balance }] = await t.db.query<{ balance: number }>(
    `SELECT coalesce(sum(p.amount), 0) AS balance FROM ledger_accounts a JOIN postings p ON p.account_id = a.id WHERE a.kind = 'merchant' AND a.environment = $1 AND a.owner_id = $2`,
    [owner.environment, owner.merchantId],
  );
  return balance;
}

async function sandboxCovered(merchantId: number): Promise<number> {
  const [{ covered }] = await t.db.query<{ covered: number }>(
    `SELECT coalesce(sum(p.amount), 0) AS covered FROM journals j JOIN postings p ON p.journal_id = j.id JOIN ledger_accounts a ON a.id = p.account_id AND a.kind = 'merchant'
      WHERE j.kind = 'sandbox_cover' AND a.owner_id = $1`,
    [merchantId],
  );
  return covered;
}

describe('refunds and payouts racing for the last rupees', () => {
  it('live, 40 at once: the balance never goes below zero, the winners add up, every loser gets a clear error', async () => {
    const { owner, paid, payout, refundOf, moreDuring } = await paidShop('live', 10, 1_000);
    const before = await settlementBalance(t.ctx, owner);
    expect(before.available).toBe(9_700);
    const more = await moreDuring(2, 500);
    const racers = [...Array.from({ length: 20 }, (_, i) => payout(700 + i)), ...Array.from({ length: 20 }, (_, i) => refundOf(paid[i % 10], 600 + i)), ...more()];
    const results = await Promise.all(racers);

    const won = results.filter((r) => r.status === 201 || (r.kind === 'refund' && r.status === 200));
    const lost = results.filter((r) => r.kind !== 'payment' && !won.includes(r));
    expect(results.filter((r) => r.kind === 'payment').map((r) => r.status)).toEqual([303, 303]);
    expect(won.length).toBeGreaterThan(0);
    expect(lost.length).toBeGreaterThan(0);
    for (const r of lost) {
      expect(r.status, JSON.stringify(r)).toBe(400);
      const message = JSON.stringify(r.body);
      expect(message).toMatch(r.kind === 'payout' ? /available balance of \d+ paisa|No balance is available/ : /Insufficient balance: .* balance of \d+ paisa|refundable amount/);
      expect(r.body.error_key).toBe('validation_error');
    }
    const spent = won.reduce((sum, r) => sum + r.amount, 0);
    const after = await settlementBalance(t.ctx, owner);
    const balance = await merchantLedgerBalance(owner);
    expect(balance).toBe(9_700 + 2 * 485 - spent);
    expect(balance).toBeGreaterThanOrEqual(0);
    expect(after.pending + after.available).toBe(balance);
    // Each winner was possible: what the others left was at least what it took.
    expect(spent).toBeLessThanOrEqual(9_700 + 2 * 485);
    expect(await sandboxCovered(owner.merchantId)).toBe(0);
    expect((await verifyLedger(t.db)).filter((r) => !r.holds)).toEqual([]);
  });

  it('test, 20 whole refunds and 20 payouts at once: every refund succeeds, the sandbox covers only what was lacking, no payout takes covered money', async () => {
    const { owner, paid, payout, refundOf, moreDuring } = await paidShop('test', 20, 1_000);
    expect((await settlementBalance(t.ctx, owner)).available).toBe(19_400);
    const more = await moreDuring(2, 500);
    const racers = [...Array.from({ length: 20 }, (_, i) => payout(700 + i)), ...paid.map((transactionId) => refundOf(transactionId)), ...more()];
    const results = await Promise.all(racers);

    expect(results.filter((r) => r.kind === 'payment').map((r) => r.status)).toEqual([303, 303]);
    expect(results.filter((r) => r.kind === 'refund').map((r) => [r.status, r.body])).toEqual(paid.map(() => [200, { detail: 'Transaction refund successful.' }]));
    const payouts = results.filter((r) => r.kind === 'payout');
    for (const r of payouts.filter((p) => p.status !== 201)) {
      expect([r.status, JSON.stringify(r.body)]).toEqual([400, expect.stringMatching(/available balance of \d+ paisa|No balance is available/)]);
    }
    const paidOut = payouts.filter((r) => r.status === 201).reduce((sum, r) => sum + r.amount, 0);
    const earned = 19_400 + 2 * 485;
    // Payouts took only money the merchant earned: the covers went to the payers, never to its bank.
    expect(paidOut).toBeLessThanOrEqual(earned);
    const covered = await sandboxCovered(owner.merchantId);
    const balance = await merchantLedgerBalance(owner);
    expect(balance).toBe(earned - 20_000 - paidOut + covered);
    // Each cover brought the balance to zero and no further, so only payments after the last one remain.
    expect(covered).toBeGreaterThan(0);
    expect(balance).toBeGreaterThanOrEqual(0);
    expect(balance).toBeLessThanOrEqual(2 * 485);
    const after = await settlementBalance(t.ctx, owner);
    expect(after.pending + after.available).toBe(balance);
    expect((await verifyLedger(t.db)).filter((r) => !r.holds)).toEqual([]);
  });
});
