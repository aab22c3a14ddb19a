import type { AppContext } from '../context.js';
import type { Queryable } from '../db/db.js';
import type { Payment } from '../payments/payment.js';
import { feeAccount, ledgerAccount, merchantAccount, walletAccount } from './accounts.js';
import { postJournal, type JournalInput } from './post-journal.js';

/** A payment: the payer's wallet pays the full amount, the merchant gets amount − fee, the service the fee. */
export async function paymentJournal(ctx: AppContext, tx: Queryable, payment: Payment, walletId: number, at: Date): Promise<JournalInput> {
  const env = payment.environment;
  const [payer, merchant, fee] = [
    await ledgerAccount(ctx.db, tx, walletAccount(env, walletId)),
    await ledgerAccount(ctx.db, tx, merchantAccount(env, payment.merchant_id)),
    await ledgerAccount(ctx.db, tx, feeAccount(env)),
  ];
  return {
    environment: env,
    kind: 'payment',
    pidx: payment.pidx,
    at,
    postings: [
      { accountId: payer, amount: -payment.amount, wallet: true },
      { accountId: merchant, amount: payment.amount - payment.fee },
      { accountId: fee, amount: payment.fee },
    ],
  };
}

export async function postPaymentJournal(ctx: AppContext, tx: Queryable, payment: Payment, walletId: number, at: Date): Promise<void> {
  await postJournal(tx, await paymentJournal(ctx, tx, payment, walletId, at));
}
