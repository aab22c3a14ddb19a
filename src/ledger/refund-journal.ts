import type { AppContext } from '../context.js';
import type { Queryable } from '../db/db.js';
import type { Payment } from '../payments/payment.js';
import { ledgerAccount, merchantAccount, walletAccount } from './accounts.js';
import { postJournal } from './post-journal.js';

/** A refund: `amount` goes back from the merchant to the payer's wallet. The fee stays with the service. */
export async function postRefundJournal(ctx: AppContext, tx: Queryable, payment: Payment, walletId: number, amount: number, at: Date): Promise<void> {
  const env = payment.environment;
  const merchant = await ledgerAccount(ctx.db, tx, merchantAccount(env, payment.merchant_id));
  const payer = await ledgerAccount(ctx.db, tx, walletAccount(env, walletId));
  await postJournal(tx, {
    environment: env,
    kind: 'refund',
    pidx: payment.pidx,
    at,
    postings: [
      { accountId: merchant, amount: -amount },
      { accountId: payer, amount, wallet: true },
    ],
  });
}
