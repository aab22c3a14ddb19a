// verifyLedger must notice each kind of damage, not only report success.
// Each break is made inside a transaction that is rolled back, so no other test (on PostgreSQL the
// database is shared by every test file) ever sees it.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { merchantApi, refund, validInitiate } from '../../test/api-client.js';
import { callbackParams, operatorWallet, payerBrowser, payWithLiveWallet, type TestWallet } from '../../test/portal-client.js';
import { newMerchant, startTestApp, type TestApp } from '../../test/test-app.js';
import type { Queryable } from '../db/db.js';
import { applyPayoutMove } from '../settlements/move-payout.js';
import type { Payout } from '../settlements/payout.js';
import type { PayoutMove } from '../settlements/payout-state-machine.js';
import { requestPayout } from '../settlements/request-payout.js';
import { verifyLedger, type InvariantResult } from './verify-ledger.js';

const INVARIANTS = {
  journalSums: 'every journal sums to zero',
  walletBalances: 'each wallet balance equals the sum of its postings',
  noNegative: 'no wallet goes negative',
  separateLedgers: 'test and live ledgers are separate',
  oneJournalPerPayment: 'each Completed payment has exactly one payment journal, and no other payment has one',
  journalAmounts: 'each payment journal moves the payment amount: payer pays it, merchant and fee account share it',
  refunds: 'refunds never exceed the amount paid, and match the refunded amount',
  records: 'each transaction record matches its payment',
  payouts: 'payouts balance with their journals: requested, merchant to clearing; paid, clearing to bank; failed, clearing back',
  npiPayouts:
    'payouts through NPI agree with what NPI said: Paid only on its paid word, Failed only on its failed word (or an operator’s), each for the payout’s own amount and ids',
  sandboxCovers: 'sandbox covers are test only: each moves from the test funding account to the merchant of the one refund it names, at most that refund',
  providerAttempts:
    'provider attempts and their payments agree: a Paid attempt completed its payment (same amount, its transaction id), each payment paid through a provider has one, a Surplus attempt is owed back in full, refunds at providers match what merchants refunded',
  providerConservation:
    'money is conserved with providers: each provider owes what its Paid and Surplus attempts collected less its fees and the refunds made there, kept those fees, and owes back the refunds not yet made',
  merchantNotNegative: 'no merchant balance goes negative',
  conservation:
    'money is conserved across payments, refunds and payouts: each merchant holds what it was paid less refunds and payouts (plus what the sandbox covered of its test refunds), clearing what is on its way, the bank what was paid out',
};

let t: TestApp;
let testApi: ReturnType<typeof merchantApi>;
let paid: string;
let livePaid: string;
let unpaid: string;
let payer: TestWallet;
let paidPayout: string;
let merchantId: number;
let failedPayout: string;
let requestedPayout: string;
/** A test merchant's whole refund of its only payment (Rs. 10), the fee covered by the sandbox. */
let covered: { merchantId: number; recordId: number; journalId: number };

beforeAll(async () => {
  t = await startTestApp();
  const merchant = await newMerchant(t.ctx);
  testApi = merchantApi(t.app, merchant.test_secret_key);
  paid = (await testApi.initiate(validInitiate({ amount: 10_000 }))).body.pidx;
  await payerBrowser(t.app).pay(paid);
  unpaid = (await testApi.initiate()).body.pidx;
  payer = await operatorWallet(t.ctx, { balance: 20_000 });
  livePaid = (await merchantApi(t.app, merchant.live_secret_key).initiate(validInitiate({ amount: 5000 }))).body.pidx;
  await payWithLiveWallet(payerBrowser(t.app), t.sentOtps, livePaid, payer);
  // Payouts: one paid, one failed, one still requested.
  const owner = { merchantId: merchant.merchant.id, environment: 'test' as const };
  // Test payouts move by the ledger's own moves (those the sandbox bank makes): operators mark live ones only.
  const move = (payout: Payout, step: PayoutMove) => t.db.transaction((tx) => applyPayoutMove(t.ctx, tx, payout, step, t.clock.now()));
  const toPay = await requestPayout(t.ctx, { ...owner, amount: 3_000, requestedBy: 'api' });
  await move(toPay, { name: 'process' });
  await move(toPay, { name: 'pay', reference: 'BANK-1' });
  paidPayout = toPay.idx;
  const toFail = await requestPayout(t.ctx, { ...owner, amount: 2_000, requestedBy: 'api' });
  await move(toFail, { name: 'fail', reason: 'Closed' });
  failedPayout = toFail.idx;
  requestedPayout = (await requestPayout(t.ctx, { ...owner, amount: 1_000, requestedBy: 'api' })).idx;
  merchantId = merchant.merchant.id;
  const coverShop = await newMerchant(t.ctx);
  const { body } = await merchantApi(t.app, coverShop.test_secret_key).initiate(validInitiate({ amount: 1_000 }));
  const transactionId = callbackParams((await payerBrowser(t.app).pay(body.pidx)).location!).transaction_id;
  expect((await refund(t.app, coverShop.test_secret_key, transactionId)).status).toBe(200);
  const [cover] = await t.db.query<{ id: number; refund_record_id: number }>(
    `SELECT j.id, j.refund_record_id FROM journals j JOIN transactions t ON t.id = j.refund_record_id WHERE j.kind = 'sandbox_cover' AND t.merchant_id = $1`,
    [coverShop.merchant.id],
  );
  covered = { merchantId: coverShop.merchant.id, recordId: cover.refund_record_id, journalId: cover.id };
});
afterAll(() => t.close());
afterEach(async () => {
  expect((await verifyLedger(t.db)).filter((r) => !r.holds)).toEqual([]);
});

class Rollback extends Error {}

/** Damages the ledger inside a transaction, verifies it there, and rolls the damage back. */
async function brokenBy(damage: (tx: Queryable) => Promise<unknown>): Promise<InvariantResult[]> {
  let results: InvariantResult[] = [];
  await expect(
    t.db.transaction(async (tx) => {
      await damage(tx);
      results = await verifyLedger(tx);
      throw new Rollback();
    }),
  ).rejects.toBeInstanceOf(Rollback);
  return results.filter((r) => !r.holds);
}

async function accountId(environment: string, kind: string, ownerId = 0): Promise<number> {
  const [row] = await t.db.query<{ id: number }>('SELECT id FROM ledger_accounts WHERE environment = $1 AND kind = $2 AND owner_id = $3', [environment, kind, ownerId]);
  return row.id;
}

async function insertJournal(tx: Queryable, environment: string, postings: [accountId: number, amount: number][]): Promise<number> {
  const [journal] = await tx.query<{ id: number }>(`INSERT INTO journals (environment, kind, pidx, created_at) VALUES ($1, 'topup', NULL, now()) RETURNING id`, [environment]);
  for (const [account, amount] of postings) {
    await tx.query('INSERT INTO postings (journal_id, account_id, amount) VALUES ($1, $2, $3)', [journal.id, account, amount]);
  }
  return journal.id;
}

describe('verifyLedger', () => {
  it('checks every invariant of the contract, and all hold after real payments', async () => {
    const results = await verifyLedger(t.db);
    expect(results.map((r) => r.invariant)).toEqual(Object.values(INVARIANTS));
    for (const r of results) expect(r).toEqual({ invariant: r.invariant, holds: true, violations: [] });
  });

  it('detects a wallet balance that differs from its postings', async () => {
    const account = await accountId('live', 'wallet', payer.wallet.id);
    const broken = await brokenBy((tx) => tx.query('UPDATE ledger_accounts SET balance = balance + 1 WHERE id = $1', [account]));
    expect(broken.map((r) => r.invariant)).toEqual([INVARIANTS.walletBalances]);
    expect(broken[0].violations).toEqual([{ account_id: account, balance: 15_001, posted: 15_000 }]);
  });

  it('detects an unbalanced journal', async () => {
    const [funding, fee] = [await accountId('test', 'funding'), await accountId('test', 'fee')];
    let journal = 0;
    const broken = await brokenBy(async (tx) => {
      journal = await insertJournal(tx, 'test', [
        [funding, -5],
        [fee, 4],
      ]);
    });
    expect(broken.map((r) => r.invariant)).toEqual([INVARIANTS.journalSums]);
    expect(broken[0].violations).toEqual([{ journal_id: journal, sum: -1, postings: 2 }]);
  });

  it('detects a journal with a single posting', async () => {
    const fee = await accountId('test', 'fee');
    const broken = await brokenBy((tx) => insertJournal(tx, 'test', [[fee, 7]]));
    expect(broken.map((r) => r.invariant)).toEqual([INVARIANTS.journalSums]);
  });

  it('detects a negative wallet', async () => {
    const account = await accountId('live', 'wallet', payer.wallet.id);
    // The schema refuses it on its own; the check is the second line of defence.
    await expect(t.db.transaction((tx) => tx.query('UPDATE ledger_accounts SET balance = -1 WHERE id = $1', [account]))).rejects.toThrow(/check constraint/);
    const broken = await brokenBy(async (tx) => {
      await tx.query('ALTER TABLE ledger_accounts DROP CONSTRAINT ledger_accounts_balance_check');
      await tx.query('UPDATE ledger_accounts SET balance = -1 WHERE id = $1', [account]);
    });
    expect(broken.map((r) => r.invariant)).toEqual([INVARIANTS.walletBalances, INVARIANTS.noNegative]);
  });

  it('detects a journal that mixes the test and live ledgers', async () => {
    const [testFee, liveFee] = [await accountId('test', 'fee'), await accountId('live', 'fee')];
    const broken = await brokenBy((tx) =>
      insertJournal(tx, 'live', [
        [testFee, -3],
        [liveFee, 3],
      ]),
    );
    expect(broken.map((r) => r.invariant)).toEqual([INVARIANTS.separateLedgers]);
  });

  it('detects a Completed payment without its journal', async () => {
    const broken = await brokenBy((tx) => tx.query(`UPDATE payments SET status = 'Completed', transaction_id = 'forged-transaction' WHERE pidx = $1`, [unpaid]));
    expect(broken.map((r) => r.invariant)).toEqual([INVARIANTS.oneJournalPerPayment, INVARIANTS.conservation]);
    expect(broken[0].violations).toEqual([{ pidx: unpaid, status: 'Completed', payment_journals: 0 }]);
  });

  it('detects a payment journal on a payment that is not paid', async () => {
    const broken = await brokenBy((tx) => tx.query(`UPDATE payments SET status = 'User canceled' WHERE pidx = $1`, [paid]));
    expect(broken.map((r) => r.invariant)).toEqual([INVARIANTS.oneJournalPerPayment, INVARIANTS.conservation]);
  });

  it('detects a payment journal that does not move the payment amount and fee', async () => {
    const broken = await brokenBy((tx) => tx.query('UPDATE payments SET fee = fee + 1 WHERE pidx = $1', [livePaid]));
    expect(broken.map((r) => r.invariant)).toEqual([INVARIANTS.journalAmounts, INVARIANTS.conservation]);
    expect(broken[0].violations).toEqual([{ pidx: livePaid, amount: 5000, fee: 151, paid: 5000, to_merchant: 4850, to_fee: 150 }]);
  });

  it('detects a refunded amount without its refund journal', async () => {
    const broken = await brokenBy((tx) => tx.query(`UPDATE payments SET refunded_amount = 10 WHERE pidx = $1`, [paid]));
    expect(broken.map((r) => r.invariant)).toEqual([INVARIANTS.refunds, INVARIANTS.conservation]);
  });

  // The store has no foreign keys from the ledger's rows to their journal or payment (migration
  // 010): these checks are what proves that every posting, journal and record belongs somewhere.
  it('detects postings whose journal does not exist', async () => {
    const [funding, fee] = [await accountId('test', 'funding'), await accountId('test', 'fee')];
    const broken = await brokenBy(async (tx) => {
      await tx.query('ALTER TABLE postings DROP CONSTRAINT IF EXISTS postings_journal_id_fkey');
      await tx.query('INSERT INTO postings (journal_id, account_id, amount) VALUES (999999999, $1, -5), (999999999, $2, 5)', [funding, fee]);
    });
    expect(broken.map((r) => r.invariant)).toEqual([INVARIANTS.journalSums]);
    expect(broken[0].violations).toEqual([{ journal_id: 999999999, sum: 0, postings: 2 }]);
  });

  it('detects a payment journal whose payment does not exist', async () => {
    const [funding, fee] = [await accountId('test', 'funding'), await accountId('test', 'fee')];
    const broken = await brokenBy(async (tx) => {
      await tx.query('ALTER TABLE journals DROP CONSTRAINT IF EXISTS journals_pidx_fkey');
      const [journal] = await tx.query<{ id: number }>(`INSERT INTO journals (environment, kind, pidx, created_at) VALUES ('test', 'payment', 'no-such-payment', now()) RETURNING id`);
      await tx.query('INSERT INTO postings (journal_id, account_id, amount) VALUES ($1, $2, -5), ($1, $3, 5)', [journal.id, funding, fee]);
    });
    expect(broken.map((r) => r.invariant)).toEqual([INVARIANTS.oneJournalPerPayment]);
    expect(broken[0].violations).toEqual([{ pidx: 'no-such-payment', status: null, payment_journals: 1 }]);
  });

  it('detects a transaction record whose payment does not exist', async () => {
    const broken = await brokenBy(async (tx) => {
      await tx.query('ALTER TABLE transactions DROP CONSTRAINT IF EXISTS transactions_pidx_fkey');
      await tx.query(
        `INSERT INTO transactions (idx, merchant_id, environment, type, state, pidx, purchase_order_id, amount, fee_amount, payer_idx, payer_mobile, payer_name, created_at)
         SELECT 'forged-record', merchant_id, environment, type, state, 'no-such-payment', purchase_order_id, amount, fee_amount, payer_idx, payer_mobile, payer_name, created_at
           FROM transactions WHERE pidx = $1`,
        [paid],
      );
    });
    expect(broken.map((r) => r.invariant)).toEqual([INVARIANTS.records]);
    expect(broken[0].violations).toEqual([{ idx: 'forged-record', state: 'Completed', status: null }]);
  });

  it('detects a transaction record that does not match its payment', async () => {
    const broken = await brokenBy((tx) => tx.query(`UPDATE transactions SET amount = amount + 1 WHERE pidx = $1`, [paid]));
    expect(broken.map((r) => r.invariant)).toEqual([INVARIANTS.records]);
  });

  // Payouts. Each damage below passes every check of payments and refunds: only the new one sees it.
  it('detects a payout whose journals do not match its state (a paid journal relabelled failed)', async () => {
    const broken = await brokenBy((tx) =>
      tx.query(`UPDATE journals SET kind = 'payout_failed' WHERE kind = 'payout_paid' AND payout_id = (SELECT id FROM payouts WHERE idx = $1)`, [paidPayout]),
    );
    expect(broken.map((r) => r.invariant)).toEqual([INVARIANTS.payouts]);
    expect(broken[0].violations).toEqual([
      expect.objectContaining({ payout: paidPayout, state: 'Paid', journal: 'payout_paid', journals: null }),
      expect.objectContaining({ payout: paidPayout, state: 'Paid', journal: 'payout_failed', journals: 1 }),
    ]);
  });

  it('detects a payout counted Paid that NPI failed, and one NPI moved for another amount', async () => {
    const broken = await brokenBy(async (tx) => {
      const transfer = (idx: string, amount: number, status: string) =>
        tx.query(
          `INSERT INTO npi_transfers (payout_id, environment, rail, batch_id, instruction_id, end_to_end_id, amount, creditor_agent, creditor_branch,
             creditor_account, creditor_name, status, next_at, created_at, updated_at)
           SELECT id, environment, 'cips', 'R1', idx, idx, $2, '0401', '81', '012345678900001', 'Tea House', $3, now(), now(), now() FROM payouts WHERE idx = $1`,
          [idx, amount, status],
        );
      await transfer(paidPayout, 3_000, 'failed');
      await transfer(failedPayout, 1, 'failed');
    });
    expect(broken.map((r) => r.invariant)).toEqual([INVARIANTS.npiPayouts]);
    expect(broken[0].violations).toEqual([
      expect.objectContaining({ payout: paidPayout, state: 'Paid', npi: 'failed' }),
      expect.objectContaining({ payout: failedPayout, state: 'Failed', npi_amount: 1 }),
    ]);
  });

  it('detects a payout journal without its payout, and a failed payout whose money did not come back', async () => {
    const broken = await brokenBy(async (tx) => {
      const [journal] = await tx.query<{ id: number }>(`SELECT id FROM journals WHERE kind = 'payout_failed' AND payout_id = (SELECT id FROM payouts WHERE idx = $1)`, [failedPayout]);
      await tx.query('UPDATE journals SET payout_id = NULL WHERE id = $1', [journal.id]);
    });
    expect(broken.map((r) => r.invariant)).toEqual([INVARIANTS.payouts]);
    expect(broken[0].violations).toEqual([
      expect.objectContaining({ payout: failedPayout, state: 'Failed', journal: 'payout_failed', journals: null }),
      expect.objectContaining({ payout: null, journal: 'payout_failed' }),
    ]);
  });

  // The sandbox's covers of test refunds. Each damage passes every other check.
  it('detects a second sandbox cover of one refund (money given twice)', async () => {
    const broken = await brokenBy(async (tx) => {
      await tx.query('DROP INDEX journals_one_cover_per_refund');
      const [copy] = await tx.query<{ id: number }>(
        `INSERT INTO journals (environment, kind, pidx, refund_record_id, created_at) SELECT environment, kind, pidx, refund_record_id, created_at FROM journals WHERE id = $1 RETURNING id`,
        [covered.journalId],
      );
      await tx.query('INSERT INTO postings (journal_id, account_id, amount) SELECT $1, account_id, amount FROM postings WHERE journal_id = $2', [copy.id, covered.journalId]);
    });
    expect(broken.map((r) => r.invariant)).toEqual([INVARIANTS.sandboxCovers]);
    expect(broken[0].violations).toEqual([
      expect.objectContaining({ refund_record_id: covered.recordId, to_merchant: 30, covers_of_refund: 2 }),
      expect.objectContaining({ refund_record_id: covered.recordId, to_merchant: 30, covers_of_refund: 2 }),
    ]);
  });

  it('detects a sandbox cover of more than its refund returned', async () => {
    const [funding, merchant] = [await accountId('test', 'funding'), await accountId('test', 'merchant', covered.merchantId)];
    const broken = await brokenBy(async (tx) => {
      await tx.query('UPDATE postings SET amount = -1001 WHERE journal_id = $1 AND account_id = $2', [covered.journalId, funding]);
      await tx.query('UPDATE postings SET amount = 1001 WHERE journal_id = $1 AND account_id = $2', [covered.journalId, merchant]);
    });
    // Conservation counts covers as they are: only the covers' own check sees this one.
    expect(broken.map((r) => r.invariant)).toEqual([INVARIANTS.sandboxCovers]);
    expect(broken[0].violations).toEqual([expect.objectContaining({ refunded: 1_000, to_merchant: 1_001 })]);
  });

  it('detects a sandbox cover in live, and one naming no refund', async () => {
    await expect(t.db.transaction((tx) => tx.query("UPDATE journals SET environment = 'live' WHERE id = $1", [covered.journalId]))).rejects.toThrow(/check constraint/);
    const broken = await brokenBy(async (tx) => {
      // The schema refuses it on its own; the check is the second line of defence.
      await tx.query('ALTER TABLE journals DROP CONSTRAINT journals_sandbox_cover_in_test');
      await tx.query("UPDATE journals SET environment = 'live' WHERE id = $1", [covered.journalId]);
    });
    expect(broken.map((r) => r.invariant)).toEqual([INVARIANTS.separateLedgers, INVARIANTS.sandboxCovers]);
    expect(broken[1].violations).toEqual([expect.objectContaining({ journal_id: covered.journalId, environment: 'live' })]);
    const orphan = await brokenBy((tx) => tx.query('UPDATE journals SET refund_record_id = -1 WHERE id = $1', [covered.journalId]));
    expect(orphan.map((r) => r.invariant)).toEqual([INVARIANTS.sandboxCovers, INVARIANTS.conservation]);
    expect(orphan[0].violations).toEqual([expect.objectContaining({ journal_id: covered.journalId, refund_record_id: -1, record_type: null })]);
  });

  it('detects a merchant balance below zero (a payout of more than it held, its journal consistent)', async () => {
    const other = await newMerchant(t.ctx);
    const clearing = await accountId('test', 'clearing');
    const broken = await brokenBy(async (tx) => {
      const [payout] = await tx.query<{ id: number }>(
        `INSERT INTO payouts (idx, merchant_id, environment, amount, state, available_before, requested_by, requested_at, updated_at)
         VALUES ('forged-payout', $1, 'test', 500, 'Requested', 0, 'api', now(), now()) RETURNING id`,
        [other.merchant.id],
      );
      const [account] = await tx.query<{ id: number }>(`INSERT INTO ledger_accounts (environment, kind, owner_id) VALUES ('test', 'merchant', $1) RETURNING id`, [other.merchant.id]);
      const [journal] = await tx.query<{ id: number }>(`INSERT INTO journals (environment, kind, pidx, payout_id, created_at) VALUES ('test', 'payout', NULL, $1, now()) RETURNING id`, [payout.id]);
      await tx.query('INSERT INTO postings (journal_id, account_id, amount) VALUES ($1, $2, -500), ($1, $3, 500)', [journal.id, account.id, clearing]);
    });
    expect(broken.map((r) => r.invariant)).toEqual([INVARIANTS.merchantNotNegative]);
    expect(broken[0].violations).toEqual([{ environment: 'test', merchant_id: other.merchant.id, balance: -500 }]);
  });

  it('detects money that appeared in a merchant account from nowhere it was earned', async () => {
    const [fee, merchant] = [await accountId('test', 'fee'), await accountId('test', 'merchant', merchantId)];
    const broken = await brokenBy((tx) =>
      insertJournal(tx, 'test', [
        [fee, -100],
        [merchant, 100],
      ]),
    );
    expect(broken.map((r) => r.invariant)).toEqual([INVARIANTS.conservation]);
    expect(broken[0].violations).toEqual([{ account: 'merchant', environment: 'test', merchant_id: merchantId, expected: 9_700 - 3_000 - 1_000, held: 5_800 }]);
  });

  it('detects a clearing account out of step with the payouts on their way', async () => {
    const broken = await brokenBy((tx) => tx.query(`UPDATE payouts SET amount = amount + 1 WHERE idx = $1`, [requestedPayout]));
    expect(broken.map((r) => r.invariant)).toEqual([INVARIANTS.payouts, INVARIANTS.conservation]);
    expect(broken[1].violations).toEqual([
      { account: 'merchant', environment: 'test', merchant_id: merchantId, expected: 9_700 - 3_000 - 1_001, held: 5_700 },
      expect.objectContaining({ account: 'clearing', environment: 'test' }),
    ]);
  });
});
