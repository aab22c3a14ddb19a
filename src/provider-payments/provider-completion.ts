// The common way a provider payment completes, in one statement (as a wallet payment does,
// payments/completion-store.ts): the payer is back, the provider says paid, the payment is still
// Initiated. The payment makes the state machine's own provider_pay move (withMove: its event, its
// webhook delivery, its link's place), only if the attempt is still open; the attempt's move and
// event, the journal with its postings and the transaction record are written only for the payment
// that moved. A payment link with no place left fails the statement (payment_links_max_payments). Anything else (a held payment, a second success, a race lost, another
// pidx of the order holding the money) is null: settle-attempt.ts decides it in a transaction.
import type { AppContext } from '../context.js';
import { pgCode, PgCode } from '../db/db.js';
import { Statement } from '../db/statement.js';
import { feeAccount, ledgerAccount, providerFeeAccount, receivableAccount } from '../ledger/accounts.js';
import type { Payment } from '../payments/payment.js';
import { paymentColumns } from '../payments/payment-store.js';
import { withMove } from '../payments/state-machine.js';
import type { Attempt } from './attempt-state-machine.js';
import { type ProviderAnswer } from '../providers/provider.js';
import { ledgerNumberOf, recordTypeOf } from '../providers/registry.js';

export async function completeInOneStatement(ctx: AppContext, attempt: Attempt, answer: Extract<ProviderAnswer, { kind: 'paid' }>): Promise<Payment | null> {
  const env = attempt.environment;
  const provider = ledgerNumberOf(attempt.provider);
  const [receivable, providerFee, fee] = [
    await ledgerAccount(ctx.db, ctx.db, receivableAccount(env, provider)),
    await ledgerAccount(ctx.db, ctx.db, providerFeeAccount(env, provider)),
    await ledgerAccount(ctx.db, ctx.db, feeAccount(env)),
  ];
  const now = ctx.clock.now();
  const s = new Statement();
  const at = s.param(now);
  const id = s.param(attempt.id);
  const transactionId = ctx.ids.random(16);
  s.with('open', `SELECT id, pidx FROM provider_attempts WHERE id = ${id} AND state IN ('Started', 'Unknown', 'Escalated')`);
  // The payment's move, its event, webhook and link place, as the state machine makes it.
  withMove(s, '(SELECT pidx FROM open)', { name: 'provider_pay', transactionId }, at);
  s.with(
    'paid',
    `UPDATE provider_attempts a SET state = 'Paid', transaction_id = moved.transaction_id, provider_transaction_id = ${s.param(answer.transactionId)}, provider_fee = ${s.param(answer.fee)},
            last_answer = ${s.param(answer.detail.slice(0, 500))}, next_check_at = NULL, lease_until = NULL, updated_at = ${at}
       FROM moved WHERE a.id = ${id} AND a.state IN ('Started', 'Unknown', 'Escalated') RETURNING a.id`,
  );
  const detail = s.param(JSON.stringify({ attempt: attempt.idx, provider: attempt.provider, answer: answer.detail.slice(0, 200) }));
  s.with('attempt_event', `INSERT INTO payment_events (pidx, occurred_at, event, detail) SELECT pidx, ${at}, 'attempt_pay', ${detail} FROM moved`);
  // The merchant's account, made by its first payment (a merchant's very first payments racing fail
  // the statement on the null account: the transactional way then makes it).
  s.with('made', `INSERT INTO ledger_accounts (environment, kind, owner_id) SELECT environment, 'merchant', merchant_id FROM moved ON CONFLICT (environment, kind, owner_id) DO NOTHING RETURNING id`);
  s.with('merchant', `SELECT coalesce((SELECT id FROM made), (SELECT a.id FROM ledger_accounts a, moved WHERE a.environment = moved.environment AND a.kind = 'merchant' AND a.owner_id = moved.merchant_id)) AS id`);
  s.with('journal', `INSERT INTO journals (environment, kind, pidx, created_at) SELECT environment, 'payment', pidx, ${at} FROM moved RETURNING id`);
  // The provider collected the amount less the fee it keeps; the merchant gets amount − fee, the service the fee.
  s.with(
    'posted',
    `INSERT INTO postings (journal_id, account_id, amount)
     SELECT journal.id, p.account_id, p.amount FROM journal, moved, merchant,
            LATERAL (VALUES (${s.param(receivable)}::bigint, -(moved.amount - ${s.param(answer.fee)}::bigint)), (${s.param(providerFee)}::bigint, -${s.param(answer.fee)}::bigint),
                            (merchant.id, moved.amount - moved.fee), (${s.param(fee)}::bigint, moved.fee)) AS p (account_id, amount)
      WHERE p.amount <> 0`,
  );
  s.with(
    'record',
    `INSERT INTO transactions (idx, merchant_id, environment, type, state, pidx, purchase_order_id, amount, fee_amount, payer_idx, payer_mobile, payer_name, created_at, payment_link)
     SELECT transaction_id, merchant_id, environment, ${s.param(recordTypeOf(attempt.provider))}, 'Completed', pidx, purchase_order_id, amount, fee, '', '', '', ${at}, payment_link FROM moved`,
  );
  try {
    const [row] = await ctx.db.query<Payment>(s.text(`SELECT ${paymentColumns} FROM moved`), s.params);
    return row ?? null;
  } catch (error) {
    // Another pidx of the order holds the money (a second success), the payment's link is used up, or
    // the merchant's first account raced: the transactional way decides.
    if (pgCode(error) === PgCode.uniqueViolation || pgCode(error) === PgCode.checkViolation || pgCode(error) === '23502') return null;
    throw error;
  }
}
