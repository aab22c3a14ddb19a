// Races for one merchant's last rupees (issue 18): tens of refunds and payouts at once, over HTTP,
// never take its balance below zero, and every refused one is told why in the contract's shape.
// Payments to the same merchant keep completing meanwhile: they do not wait for its debit lock.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { merchantApi, refund, validInitiate } from '../../test/api-client.js';
import { callbackParams, payerBrowser } from '../../test/portal-client.js';
import { newMerchant, startTestApp, type TestApp } from '../../test/test-app.js';
import { verifyLedger } from '../ledger/verify-ledger.js';
import { settlementBalance } from './settlement-balance.js';

let t: TestApp;

beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

describe('refunds and payouts racing for the last rupees', () => {
  it('40 at once: the balance never goes below zero, the winners add up, every loser gets a clear error', async () => {
    const shop = await newMerchant(t.ctx);
    const api = merchantApi(t.app, shop.test_secret_key);
    const paid: string[] = [];
    for (let i = 0; i < 10; i++) {
      const { body } = await api.initiate(validInitiate({ amount: 1_000 }));
      paid.push(callbackParams((await payerBrowser(t.app).pay(body.pidx)).location!).transaction_id);
    }
    const owner = { merchantId: shop.merchant.id, environment: 'test' as const };
    const before = await settlementBalance(t.ctx, owner);
    expect(before.available).toBe(9_700);

    const payout = (amount: number) =>
      t.app.inject({ method: 'POST', url: '/api/v2/settlements/', headers: { authorization: `Key ${shop.test_secret_key}` }, payload: { amount } }).then((r) => ({ kind: 'payout', amount, status: r.statusCode, body: r.json() }));
    const refundOf = (transactionId: string, amount: number) => refund(t.app, shop.test_secret_key, transactionId, { amount }).then((r) => ({ kind: 'refund', amount, ...r }));
    // Two more payments complete during the race: credits that must not be lost or blocked.
    const more = await Promise.all([0, 1].map(async () => (await api.initiate(validInitiate({ amount: 500 }))).body.pidx as string));
    const racers = [
      ...Array.from({ length: 20 }, (_, i) => payout(700 + i)),
      ...Array.from({ length: 20 }, (_, i) => refundOf(paid[i % 10], 600 + i)),
      ...more.map((pidx) => payerBrowser(t.app).pay(pidx).then((r) => ({ kind: 'payment', amount: 500, status: r.status, body: {} }))),
    ];
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
    const [{ balance }] = await t.db.query<{ balance: number }>(
      `SELECT coalesce(sum(p.amount), 0) AS balance FROM ledger_accounts a JOIN postings p ON p.account_id = a.id WHERE a.kind = 'merchant' AND a.environment = 'test' AND a.owner_id = $1`,
      [shop.merchant.id],
    );
    expect(balance).toBe(9_700 + 2 * 485 - spent);
    expect(balance).toBeGreaterThanOrEqual(0);
    expect(after.pending + after.available).toBe(balance);
    // Each winner was possible: what the others left was at least what it took.
    expect(spent).toBeLessThanOrEqual(9_700 + 2 * 485);
    expect((await verifyLedger(t.db)).filter((r) => !r.holds)).toEqual([]);
  });
});
