// What a test refund needs beyond the merchant's balance: the sandbox covers it, as it
// keeps sandbox wallets funded, from the test environment's funding account. Written in the refund's
// transaction, naming the refund's record, so `ledger verify` can tie each cover to its refund.
import type { AppContext } from '../context.js';
import type { Queryable } from '../db/db.js';
import { fundingAccount, ledgerAccount, merchantAccount } from './accounts.js';
import { postJournal } from './post-journal.js';

export async function postSandboxCoverJournal(
  ctx: AppContext,
  tx: Queryable,
  cover: { merchantId: number; pidx: string; refundRecordId: number; amount: number; at: Date },
): Promise<void> {
  const funding = await ledgerAccount(ctx.db, tx, fundingAccount('test'));
  const merchant = await ledgerAccount(ctx.db, tx, merchantAccount('test', cover.merchantId));
  await postJournal(tx, {
    environment: 'test',
    kind: 'sandbox_cover',
    pidx: cover.pidx,
    refundRecordId: cover.refundRecordId,
    at: cover.at,
    postings: [
      { accountId: funding, amount: -cover.amount },
      { accountId: merchant, amount: cover.amount },
    ],
  });
}
