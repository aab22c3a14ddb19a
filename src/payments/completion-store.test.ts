// The completion statement with several payments in it: each payment gets its own answer, its own
// journal and one debit of its own wallet, even when the same payment is in the batch twice.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { merchantApi, validInitiate } from '../../test/api-client.js';
import { operatorWallet, payerBrowser, walletBalanceOf, type TestWallet } from '../../test/portal-client.js';
import { newMerchant, startTestApp, type TestApp } from '../../test/test-app.js';
import { paymentJournal } from '../ledger/payment-journal.js';
import { balancedPostings } from '../ledger/post-journal.js';
import { verifyLedger } from '../ledger/verify-ledger.js';
import { findCheckout } from '../portal/checkout-store.js';
import { complete, type Completion } from './completion-store.js';

let t: TestApp;
let liveApi: ReturnType<typeof merchantApi>;

beforeAll(async () => {
  t = await startTestApp();
  liveApi = merchantApi(t.app, (await newMerchant(t.ctx)).live_secret_key);
});
afterAll(() => t.close());

/** A payment of `amount` whose wallet step `payer` passed; the completion its right OTP would write. */
async function readyToPay(payer: TestWallet, amount: number): Promise<Completion> {
  const { body } = await liveApi.initiate(validInitiate({ amount }));
  const pidx = body.pidx as string;
  const browser = payerBrowser(t.app);
  await browser.open(pidx);
  expect((await browser.wallet(pidx, payer.mobile, payer.mpin)).body).toContain('name="otp"');
  const [{ token }] = await t.db.query<{ token: string }>('SELECT token FROM payment_attempts WHERE pidx = $1', [pidx]);
  const { payment, wallet } = (await findCheckout(t.db, pidx, token))!;
  const at = t.clock.now();
  const journal = await paymentJournal(t.ctx, t.db, payment, wallet!.id, at);
  return { pidx, token, move: 'pay', transactionId: `txn-${pidx}`, wallet: wallet!, at, postings: balancedPostings(journal.postings) };
}

/** The completion statements sent while `work` runs. */
async function countingStatements<T>(work: () => Promise<T>): Promise<{ result: T; statements: number }> {
  const target = t.db.batches ?? t.db;
  const query = target.query;
  let statements = 0;
  target.query = ((sql: string, params?: unknown[]) => {
    if (sql.includes('INSERT INTO journals')) statements += 1;
    return query.call(target, sql, params);
  }) as typeof query;
  try {
    return { result: await work(), statements };
  } finally {
    target.query = query;
  }
}

describe('completions written together', () => {
  it('answers each payment of a batch with its own moved payment, one journal and one debit each', async () => {
    const payers = await Promise.all([1, 2, 3, 4, 5, 6].map(() => operatorWallet(t.ctx, { balance: 50_000 })));
    const completions: Awaited<ReturnType<typeof readyToPay>>[] = [];
    for (const [i, payer] of payers.entries()) completions.push(await readyToPay(payer, 1000 * (i + 1)));

    // Submitted in one tick: the first two find free slots, the other four go together.
    const { result: moved, statements } = await countingStatements(() => Promise.all(completions.map((c) => complete(t.db, c))));

    expect(statements).toBe(3);
    for (const [i, payment] of moved.entries()) {
      expect(payment).toMatchObject({ pidx: completions[i].pidx, status: 'Completed', transaction_id: completions[i].transactionId, amount: 1000 * (i + 1) });
      expect(await walletBalanceOf(t.ctx, payers[i].wallet)).toBe(50_000 - 1000 * (i + 1));
    }
    const journals = await t.db.query<{ pidx: string }>(`SELECT pidx FROM journals WHERE kind = 'payment' AND pidx = ANY($1) ORDER BY id`, [completions.map((c) => c.pidx)]);
    expect(journals.map((j) => j.pidx).sort()).toEqual(completions.map((c) => c.pidx).sort());
    expect((await verifyLedger(t.db)).filter((r) => !r.holds)).toEqual([]);
  });

  it('moves a payment that is in the batch twice once: one answer, one journal, one debit', async () => {
    const [first, second] = await Promise.all([operatorWallet(t.ctx, { balance: 50_000 }), operatorWallet(t.ctx, { balance: 50_000 })]);
    const [busy, other] = [await readyToPay(first, 3000), await readyToPay(second, 2000)];
    const twice = { ...busy, transactionId: `${busy.transactionId}-again` };

    // The third and fourth share a statement; the payment is in it twice.
    const [, , once, again] = await Promise.all([other, other, busy, twice].map((c) => complete(t.db, c)));

    expect([once, again].filter((p) => p !== null)).toHaveLength(1);
    expect(await walletBalanceOf(t.ctx, first.wallet)).toBe(50_000 - 3000);
    const [{ n }] = await t.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM journals WHERE kind = 'payment' AND pidx = $1`, [busy.pidx]);
    expect(n).toBe(1);
    expect((await verifyLedger(t.db)).filter((r) => !r.holds)).toEqual([]);
  });
});
