import type { AppContext } from '../context.js';
import type { Queryable } from '../db/db.js';
import type { Payment } from '../payments/payment.js';
import { ledgerAccount, merchantAccount, walletAccount, type AccountRef } from './accounts.js';
import { postJournal } from './post-journal.js';

/** A refund: `amount` goes back from the merchant to the payer's wallet. The fee stays with the service. */
export async function postRefundJournal(ctx: AppContext, tx: Queryable, payment: Payment, walletId: number, amount: number, at: Date): Promise<void> {
  await postRefundJournalTo(ctx, tx, payment, { account: walletAccount(payment.environment, walletId), wallet: true }, amount, at);
}

/**
 * A refund to the payer's side of the payment: its wallet, or (paid through a provider) what is
 * owed back through that provider (its refund_due account, src/ledger/provider-journals.ts).
 */
export async function postRefundJournalTo(ctx: AppContext, tx: Queryable, payment: Payment, to: { account: AccountRef; wallet: boolean }, amount: number, at: Date): Promise<void> {
  const merchant = await ledgerAccount(ctx.db, tx, merchantAccount(payment.environment, payment.merchant_id));
  const payer = await ledgerAccount(ctx.db, tx, to.account);
  await postJournal(tx, {
    environment: payment.environment,
    kind: 'refund',
    pidx: payment.pidx,
    at,
    postings: [
      { accountId: merchant, amount: -amount },
      { accountId: payer, amount, wallet: to.wallet },
    ],
  });
}
