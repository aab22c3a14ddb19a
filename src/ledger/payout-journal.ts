// The journals of a payout: requested, the merchant's money goes to clearing;
// paid, from clearing to the bank; failed, from clearing back to the merchant.
import type { AppContext } from '../context.js';
import type { Queryable } from '../db/db.js';
import type { Environment } from '../environment.js';
import { bankAccount, clearingAccount, ledgerAccount, merchantAccount } from './accounts.js';
import { postJournal } from './post-journal.js';

export type PayoutJournalKind = 'payout' | 'payout_paid' | 'payout_failed';

export async function postPayoutJournal(
  ctx: AppContext,
  tx: Queryable,
  payout: { id: number; merchant_id: number; environment: Environment; amount: number },
  kind: PayoutJournalKind,
  at: Date,
): Promise<void> {
  const env = payout.environment;
  const merchant = await ledgerAccount(ctx.db, tx, merchantAccount(env, payout.merchant_id));
  const clearing = await ledgerAccount(ctx.db, tx, clearingAccount(env));
  const [from, to] =
    kind === 'payout' ? [merchant, clearing] : kind === 'payout_paid' ? [clearing, await ledgerAccount(ctx.db, tx, bankAccount(env))] : [clearing, merchant];
  await postJournal(tx, {
    environment: env,
    kind,
    pidx: null,
    payoutId: payout.id,
    at,
    postings: [
      { accountId: from, amount: -payout.amount },
      { accountId: to, amount: payout.amount },
    ],
  });
}
