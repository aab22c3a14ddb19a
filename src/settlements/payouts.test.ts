// Payouts through their use cases, on money paid through the hosted page: the balance split, the
// request, the moves with their journals, the records settled and released.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { merchantApi, validInitiate } from '../../test/api-client.js';
import { operatorWallet, payerBrowser, payWithLiveWallet } from '../../test/portal-client.js';
import { newMerchant, startTestApp, type TestApp } from '../../test/test-app.js';
import { CLI_ACTOR } from '../audit/audit-entry.js';
import { verifyLedger } from '../ledger/verify-ledger.js';
import { saveBankAccount } from '../merchants/bank-account-store.js';
import { markPayout, TEST_PAYOUT_REFUSAL } from './move-payout.js';
import { recordNet } from './payout.js';
import { payoutRecords } from './payout-store.js';
import { requestPayout } from './request-payout.js';
import { settlementBalance } from './settlement-balance.js';
import { runPayoutRails } from '../jobs/payout-rails-job.js';
import { setPayoutRail } from './payout-rail-setup.js';

let t: TestApp;

beforeAll(async () => {
  // Its own store on PostgreSQL: the sandbox bank moves every test payout of the store it runs on.
  t = await startTestApp({ ownDb: true });
});
afterAll(() => t.close());

/** A merchant paid `amounts`; live: by a live wallet, with a bank account, for the operator's marks (test payouts are the sandbox bank's). */
async function shopWithPayments(amounts: number[], environment: 'test' | 'live' = 'test') {
  const merchant = await newMerchant(t.ctx);
  const api = merchantApi(t.app, environment === 'test' ? merchant.test_secret_key : merchant.live_secret_key);
  const payer = environment === 'live' ? await operatorWallet(t.ctx, { balance: amounts.reduce((sum, a) => sum + a, 0) }) : undefined;
  if (payer) await saveBankAccount(t.db, merchant.merchant.id, { bankName: 'Nabil Bank', branch: 'Thamel', accountName: 'Tea House', accountNumber: '0012345678901', updatedAt: t.clock.now() });
  for (const amount of amounts) {
    const { body } = await api.initiate(validInitiate({ amount }));
    const done = payer ? await payWithLiveWallet(payerBrowser(t.app), t.sentOtps, body.pidx, payer) : await payerBrowser(t.app).pay(body.pidx, '9800000003');
    expect(done.status).toBe(303);
  }
  return { merchant, owner: { merchantId: merchant.merchant.id, environment } };
}

async function expectLedgerHolds() {
  expect((await verifyLedger(t.db)).filter((r) => !r.holds)).toEqual([]);
}

describe('settlement balance', () => {
  it('is pending during the hold, then available; net of the fee', async () => {
    const { owner } = await shopWithPayments([10_000, 5_000]);
    const held = { ...t.ctx, config: { ...t.ctx.config, settlementHoldHours: 24 } };
    expect(await settlementBalance(held, owner)).toEqual({ pending: 14_550, available: 0, clearing: 0 });
    t.clock.advance(24 * 3600 + 1);
    expect(await settlementBalance(held, owner)).toEqual({ pending: 0, available: 14_550, clearing: 0 });
    expect(await settlementBalance(t.ctx, owner)).toEqual({ pending: 0, available: 14_550, clearing: 0 });
  });
});

describe('payouts', () => {
  it('moves the requested amount to clearing and settles the available records', async () => {
    const { owner } = await shopWithPayments([10_000, 5_000]);
    const payout = await requestPayout(t.ctx, { ...owner, amount: 10_000, requestedBy: 'api' });
    expect(payout).toMatchObject({ state: 'Requested', amount: 10_000, available_before: 14_550, requested_by: 'api', bank_name: null });
    expect(await settlementBalance(t.ctx, owner)).toEqual({ pending: 0, available: 4_550, clearing: 10_000 });
    const records = await payoutRecords(t.db, payout.id);
    expect(records.map((r) => [r.type, r.amount, r.fee_amount, r.released])).toEqual([
      ['Wallet payment', 10_000, 300, false],
      ['Wallet payment', 5_000, 150, false],
    ]);
    // Brought forward + records − carried forward = the payout.
    const net = records.reduce((sum, r) => sum + recordNet(r), 0);
    expect(payout.available_before - net + net - (payout.available_before - payout.amount)).toBe(payout.amount);
    // The records are settled once: the next payout takes only what is left, with no records.
    const rest = await requestPayout(t.ctx, { ...owner, requestedBy: 'api' });
    expect(rest.amount).toBe(4_550);
    expect(await payoutRecords(t.db, rest.id)).toEqual([]);
    await expectLedgerHolds();
  });

  it('refuses more than the available balance, and nothing available, with clear errors', async () => {
    const { owner } = await shopWithPayments([1_000]);
    await expect(requestPayout(t.ctx, { ...owner, amount: 971, requestedBy: 'api' })).rejects.toMatchObject({
      code: 'validation_error',
      fields: { amount: ['Amount exceeds the available balance of 970 paisa.'] },
    });
    await expect(requestPayout(t.ctx, { ...owner, amount: 0, requestedBy: 'api' })).rejects.toMatchObject({ code: 'validation_error' });
    await requestPayout(t.ctx, { ...owner, requestedBy: 'api' });
    await expect(requestPayout(t.ctx, { ...owner, requestedBy: 'api' })).rejects.toMatchObject({ code: 'bad_request', message: 'No balance is available for a payout yet.' });
  });

  it('live: needs an approved merchant with a bank account', async () => {
    const { merchant } = await shopWithPayments([]);
    await expect(requestPayout(t.ctx, { merchantId: merchant.merchant.id, environment: 'live', requestedBy: 'api' })).rejects.toMatchObject({ code: 'bad_request', message: expect.stringContaining('bank account') });
  });

  it('paid: Processing then Paid with the reference; a second mark is refused; the money has left', async () => {
    const { owner } = await shopWithPayments([10_000], 'live');
    const payout = await requestPayout(t.ctx, { ...owner, requestedBy: 'api' });
    await expect(markPayout(t.ctx, { actor: CLI_ACTOR, idx: payout.idx, move: { name: 'pay', reference: 'R1' } })).rejects.toMatchObject({
      message: `Payout ${payout.idx} is Requested; only a Processing payout can be marked paid.`,
    });
    expect((await markPayout(t.ctx, { actor: CLI_ACTOR, idx: payout.idx, move: { name: 'process' } })).state).toBe('Processing');
    const paid = await markPayout(t.ctx, { actor: CLI_ACTOR, idx: payout.idx, move: { name: 'pay', reference: ' BANK-1 ' } });
    expect(paid).toMatchObject({ state: 'Paid', bank_reference: 'BANK-1' });
    await expect(markPayout(t.ctx, { actor: CLI_ACTOR, idx: payout.idx, move: { name: 'fail', reason: 'x' } })).rejects.toMatchObject({ code: 'bad_request' });
    expect(await settlementBalance(t.ctx, owner)).toEqual({ pending: 0, available: 0, clearing: 0 });
    await expectLedgerHolds();
  });

  it('failed: the money comes back and the records are released for the next payout', async () => {
    const { owner } = await shopWithPayments([10_000], 'live');
    const payout = await requestPayout(t.ctx, { ...owner, requestedBy: 'api' });
    const failed = await markPayout(t.ctx, { actor: CLI_ACTOR, idx: payout.idx, move: { name: 'fail', reason: 'Account closed' } });
    expect(failed).toMatchObject({ state: 'Failed', failure_reason: 'Account closed' });
    expect(await settlementBalance(t.ctx, owner)).toEqual({ pending: 0, available: 9_700, clearing: 0 });
    expect((await payoutRecords(t.db, payout.id)).map((r) => r.released)).toEqual([true]);
    const again = await requestPayout(t.ctx, { ...owner, requestedBy: 'api' });
    expect((await payoutRecords(t.db, again.id)).map((r) => [r.amount, r.released])).toEqual([[10_000, false]]);
    await expectLedgerHolds();
  });

  it('two operators marking one payout at once: one wins, the other is told', async () => {
    const { owner } = await shopWithPayments([10_000], 'live');
    const payout = await requestPayout(t.ctx, { ...owner, requestedBy: 'api' });
    await markPayout(t.ctx, { actor: CLI_ACTOR, idx: payout.idx, move: { name: 'process' } });
    const results = await Promise.allSettled([
      markPayout(t.ctx, { actor: CLI_ACTOR, idx: payout.idx, move: { name: 'pay', reference: 'A' } }),
      markPayout(t.ctx, { actor: CLI_ACTOR, idx: payout.idx, move: { name: 'fail', reason: 'B' } }),
    ]);
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    const lost = results.find((r) => r.status === 'rejected') as PromiseRejectedResult;
    expect(lost.reason).toMatchObject({ code: 'bad_request', message: expect.stringContaining(payout.idx) });
    await expectLedgerHolds();
  });

  it("test payouts are paid by NPI's simulator by themselves, with NPI's ids; no operator marks one", async () => {
    const { owner } = await shopWithPayments([10_000]);
    const payout = await requestPayout(t.ctx, { ...owner, requestedBy: 'api' });
    for (const move of [{ name: 'process' }, { name: 'fail', reason: 'Closed' }] as const) {
      await expect(markPayout(t.ctx, { actor: CLI_ACTOR, idx: payout.idx, move })).rejects.toMatchObject({ code: 'conflict', message: TEST_PAYOUT_REFUSAL });
    }
    const state = async () => (await t.db.query<{ state: string; bank_reference: string }>('SELECT state, bank_reference FROM payouts WHERE id = $1', [payout.id]))[0];
    await runPayoutRails(t.ctx);
    expect(await state()).toEqual({ state: 'Paid', bank_reference: expect.stringMatching(new RegExp(`^NPI connectIPS R\\w+/${payout.idx} \\(NCHL \\d+\\)$`)) });
    await expectLedgerHolds();
  });

  it('with the bank file as the test rail, the sandbox bank pays test payouts: Requested, Processing, Paid', async () => {
    await setPayoutRail(t.ctx, { actor: CLI_ACTOR, environment: 'test', rail: 'file' });
    try {
      const { owner } = await shopWithPayments([10_000]);
      const payout = await requestPayout(t.ctx, { ...owner, requestedBy: 'api' });
      const state = async () => (await t.db.query<{ state: string; bank_reference: string }>('SELECT state, bank_reference FROM payouts WHERE id = $1', [payout.id]))[0];
      await runPayoutRails(t.ctx);
      expect((await state()).state).toBe('Processing');
      await runPayoutRails(t.ctx);
      expect(await state()).toEqual({ state: 'Paid', bank_reference: `SANDBOX-${payout.idx}` });
      await expectLedgerHolds();
    } finally {
      await t.db.query("DELETE FROM payout_rails WHERE environment = 'test'");
    }
  });

  it("several instances running the payout rails' job at once pay each payout once", async () => {
    const { owner } = await shopWithPayments([10_000]);
    const ids: number[] = [];
    for (let i = 0; i < 6; i++) ids.push((await requestPayout(t.ctx, { ...owner, amount: 1_000 + i, requestedBy: 'api' })).id);
    for (let round = 0; round < 2; round++) await Promise.all([0, 1, 2, 3].map(() => runPayoutRails(t.ctx)));
    const rows = await t.db.query<{ state: string; journals: number }>(
      `SELECT po.state, (SELECT count(*)::int FROM journals j WHERE j.payout_id = po.id AND j.kind = 'payout_paid') AS journals FROM payouts po WHERE po.id = ANY($1)`,
      [ids],
    );
    expect(rows).toEqual(ids.map(() => ({ state: 'Paid', journals: 1 })));
    await expectLedgerHolds();
  });
});
