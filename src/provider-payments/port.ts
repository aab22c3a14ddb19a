// The provider payments' side of what payments asks of them (ProviderPaymentsPort, payments/port.ts): the
// attempt that took or holds a payment's money decides how it is refunded or resolved.
import type { ProviderPaymentsPort } from '../payments/port.js';
import { refundDueAccount } from '../ledger/accounts.js';
import { postRefundJournalTo } from '../ledger/refund-journal.js';
import { ledgerNumberOf } from '../providers/registry.js';
import { findAttemptByTransactionId } from './attempt-store.js';
import { insertProviderRefund } from './provider-refund-store.js';
import { resolveAttempt } from './resolve-attempt.js';

export const providerPaymentsPort: ProviderPaymentsPort = {
  async refundThroughProvider(ctx, tx, payment, refund, record) {
    // A wallet payment names its payer's wallet; one through a provider has its attempt instead.
    const attempt = payment.payer_mobile === null ? await findAttemptByTransactionId(tx, payment.transaction_id!) : undefined;
    if (!attempt) return undefined;
    await postRefundJournalTo(ctx, tx, payment, { account: refundDueAccount(payment.environment, ledgerNumberOf(attempt.provider)), wallet: false }, refund.amount, refund.now);
    const recordId = await record();
    await insertProviderRefund(tx, {
      idx: refund.idx,
      attempt_id: attempt.id,
      environment: attempt.environment,
      provider: attempt.provider,
      amount: refund.amount,
      reason: 'refund',
      refund_record_id: recordId,
      created_at: refund.now,
      nextTryAt: refund.now,
    });
    return recordId;
  },

  async resolveHeld(ctx, { actor, payment, resolution, reason }) {
    const held = payment.payer_mobile === null ? await findAttemptByTransactionId(ctx.db, payment.transaction_id!) : undefined;
    if (!held) return false;
    await resolveAttempt(ctx, { actor, attempt: held, decision: resolution === 'Completed' ? 'paid' : 'not_paid', reason });
    return true;
  },
};
