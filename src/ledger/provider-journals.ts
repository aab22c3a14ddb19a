// The journals of money that came in through a provider. The provider collects
// from the payer and owes it to the operator: its receivable (a negative balance, money in, like the
// funding account's), less the fee it keeps (provider_fee). What is owed back to payers through it
// waits in refund_due until it is refunded there, which returns it from the receivable.
import type { AppContext } from '../context.js';
import type { Queryable } from '../db/db.js';
import type { Environment } from '../environment.js';
import type { Payment } from '../payments/payment.js';
import { feeAccount, ledgerAccount, merchantAccount, providerFeeAccount, receivableAccount, refundDueAccount } from './accounts.js';
import { postJournal } from './post-journal.js';

interface Collected {
  environment: Environment;
  provider: number;
  amount: number;
  /** What the provider keeps of the amount. */
  providerFee: number;
}

async function collectedPostings(ctx: AppContext, tx: Queryable, c: Collected) {
  return [
    { accountId: await ledgerAccount(ctx.db, tx, receivableAccount(c.environment, c.provider)), amount: -(c.amount - c.providerFee) },
    { accountId: await ledgerAccount(ctx.db, tx, providerFeeAccount(c.environment, c.provider)), amount: -c.providerFee },
  ];
}

/** A payment paid through a provider: the merchant gets amount − fee and the service the fee, as for a wallet. */
export async function postProviderPaymentJournal(ctx: AppContext, tx: Queryable, payment: Payment, collected: Omit<Collected, 'amount' | 'environment'>, at: Date): Promise<void> {
  const env = payment.environment;
  await postJournal(tx, {
    environment: env,
    kind: 'payment',
    pidx: payment.pidx,
    at,
    postings: [
      ...(await collectedPostings(ctx, tx, { ...collected, environment: env, amount: payment.amount })),
      { accountId: await ledgerAccount(ctx.db, tx, merchantAccount(env, payment.merchant_id)), amount: payment.amount - payment.fee },
      { accountId: await ledgerAccount(ctx.db, tx, feeAccount(env)), amount: payment.fee },
    ],
  });
}

/** A second success: collected for a payment that was no longer payable, all of it owed back to the payer. */
export async function postSurplusJournal(ctx: AppContext, tx: Queryable, c: Collected & { pidx: string; providerRefundId: number }, at: Date): Promise<void> {
  await postJournal(tx, {
    environment: c.environment,
    kind: 'provider_surplus',
    pidx: c.pidx,
    providerRefundId: c.providerRefundId,
    at,
    postings: [...(await collectedPostings(ctx, tx, c)), { accountId: await ledgerAccount(ctx.db, tx, refundDueAccount(c.environment, c.provider)), amount: c.amount }],
  });
}

/** Refunded at the provider: no longer owed, and the provider owes the operator that much less. */
export async function postProviderRefundJournal(
  ctx: AppContext,
  tx: Queryable,
  r: { environment: Environment; provider: number; amount: number; pidx: string; providerRefundId: number },
  at: Date,
): Promise<void> {
  await postJournal(tx, {
    environment: r.environment,
    kind: 'provider_refund',
    pidx: r.pidx,
    providerRefundId: r.providerRefundId,
    at,
    postings: [
      { accountId: await ledgerAccount(ctx.db, tx, refundDueAccount(r.environment, r.provider)), amount: -r.amount },
      { accountId: await ledgerAccount(ctx.db, tx, receivableAccount(r.environment, r.provider)), amount: r.amount },
    ],
  });
}
