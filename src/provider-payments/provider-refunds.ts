// Money owed back to payers at providers: a merchant's refund of a provider
// payment, or a second success. Where the provider has a refund API (Khalti's) the reconciliation job
// makes it. That a request leaves is written before it leaves (sent_at), so one whose answer was lost,
// or whose instance died waiting, is never sent again blind: the provider's own record
// (lost-refund.ts) says whether it was made. Its "not refunded" cannot tell "not made" from "not made
// yet" while the request may still arrive, so it is believed only PROVIDER_REFUND_QUIET_SECONDS after
// the request left; only then is the refund asked for again, up to the limit. Otherwise, or when the
// provider refuses or its record cannot tell, it waits in the operators' queue ("refund at the
// provider, then mark it"). Either way the refund_due money goes back to the provider's receivable
// only once it is done.
import type { Actor } from '../audit/audit-entry.js';
import { appendAudit } from '../audit/audit-store.js';
import type { AppContext } from '../context.js';
import { AppError } from '../http/errors.js';
import { postProviderRefundJournal } from '../ledger/provider-journals.js';
import { findAttempt } from './attempt-store.js';
import { lostRefundMade } from './lost-refund.js';
import type { Attempt } from './attempt-state-machine.js';
import { measuredConnector } from './measured-connector.js';
import type { Customer } from '../providers/provider.js';
import { ledgerNumberOf } from '../providers/registry.js';
import { deferRefund, findProviderRefund, markProviderRefunded, markRefundSent, recordRefundTry, type ProviderRefund } from './provider-refund-store.js';
import { findProviderSetup } from '../providers/provider-setup.js';
import { nextCheck } from './settle-attempt.js';

async function markDone(ctx: AppContext, refund: ProviderRefund, attempt: Pick<Attempt, 'pidx'>, done: { by: string; reference?: string; answer: string }, audit?: { actor: Actor; reason?: string }): Promise<boolean> {
  const now = ctx.clock.now();
  return ctx.db.transaction(async (tx) => {
    const marked = await markProviderRefunded(tx, refund.id, { ...done, at: now });
    if (!marked) return false;
    await postProviderRefundJournal(ctx, tx, { environment: refund.environment, provider: ledgerNumberOf(refund.provider), amount: refund.amount, pidx: attempt.pidx, providerRefundId: refund.id }, now);
    if (audit) {
      await appendAudit(tx, {
        now,
        actor: audit.actor,
        action: 'provider_refund.mark',
        object: { type: 'provider_refund', id: refund.idx },
        environment: refund.environment,
        reason: audit.reason,
        before: { state: 'Queued' },
        after: { state: 'Refunded', reference: done.reference },
      });
    }
    return true;
  });
}

/** One try of a queued refund through the provider's refund API; resolves to whether it is refunded now. */
export async function refundAtProvider(ctx: AppContext, refund: ProviderRefund, attemptIdx?: string): Promise<boolean> {
  const attempt = attemptIdx ? await findAttempt(ctx.db, attemptIdx) : (await ctx.db.query<Attempt>('SELECT * FROM provider_attempts WHERE id = $1', [refund.attempt_id]))[0];
  const setup = attempt && (await findProviderSetup(ctx, refund.provider, refund.environment));
  const toOperators = (answer: string) => recordRefundTry(ctx.db, refund.id, answer, null).then(() => false);
  if (!attempt || !setup || !attempt.provider_transaction_id) return toOperators('no refund API for this attempt: refund it at the provider');
  const connector = measuredConnector(ctx, setup);
  const ref = { idx: attempt.idx, amount: attempt.amount, environment: attempt.environment, providerReference: attempt.provider_reference, createdAt: attempt.created_at };
  const unknown = (detail: string) =>
    refund.tries + 1 >= ctx.config.providerReconcileLimit ? toOperators(detail) : recordRefundTry(ctx.db, refund.id, detail, nextCheck(ctx, refund.tries + 1, ctx.clock.now())).then(() => false);
  const [known] = await ctx.db.query<{ before: string; others: boolean }>(
    `SELECT coalesce(sum(amount) FILTER (WHERE state = 'Refunded'), 0) AS before,
            coalesce(bool_or(state = 'Queued' AND id <> $2 AND (sent_at IS NOT NULL OR next_try_at IS NULL)), false) AS others
       FROM provider_refunds WHERE attempt_id = $1`,
    [attempt.id, refund.id],
  );
  const before = Number(known.before);
  // A request of it left and no answer came back: it may have been made, or may still be.
  if (refund.sent_at) {
    const record = await connector.refunded(ref);
    if (!record) return toOperators(`an answer of ${refund.provider} was lost and it keeps no record to tell whether the refund was made: check at the provider, then mark it`);
    if (record.kind === 'unknown') return unknown(`asking whether an earlier request refunded it: ${record.detail}`);
    const made = lostRefundMade(record, { amount: refund.amount, paid: attempt.amount, before, othersInDoubt: known.others });
    if (made === 'made') return markDone(ctx, refund, attempt, { by: `${refund.provider} refund API`, answer: `made, by ${record.detail}` });
    if (made === 'cannot tell') return toOperators(`an answer was lost, and ${record.detail} cannot tell whether this refund was made: check at the provider, then mark it`);
    // Not refunded, as far as the provider knows yet: the request could still arrive until the quiet period ends.
    const quietFrom = new Date(refund.sent_at.getTime() + ctx.config.providerRefundQuietSeconds * 1000);
    if (ctx.clock.now() < quietFrom) return deferRefund(ctx.db, refund.id, `${record.detail}: not refunded yet; an earlier request may still arrive, asked again once none can`, quietFrom).then(() => false);
  }
  // Written before the request leaves; another instance that took the refund meanwhile sends it instead.
  if (!(await markRefundSent(ctx.db, refund.id, refund.sent_at, ctx.clock.now()))) return false;
  const [payment] = await ctx.db.query<{ customer_info: Customer }>('SELECT customer_info FROM payments WHERE pidx = $1', [attempt.pidx]);
  const answer = await connector.refund({ ...ref, providerTransactionId: attempt.provider_transaction_id, customer: payment?.customer_info ?? null }, { amount: refund.amount, whole: before === 0 && refund.amount === attempt.amount });
  if (!answer) return toOperators(`${refund.provider} has no refund API: refund it at the provider, then mark it`);
  if (answer.kind === 'refunded') return markDone(ctx, refund, attempt, { by: `${refund.provider} refund API`, reference: answer.reference, answer: answer.detail });
  if (answer.kind === 'refused') return toOperators(answer.detail);
  return unknown(answer.detail);
}

/** An operator refunded it at the provider by hand (the console): marked, with the provider's reference, audited. */
export async function markRefundedByOperator(ctx: AppContext, input: { actor: Actor; idx: string; reference: string }): Promise<void> {
  const refund = await findProviderRefund(ctx.db, input.idx);
  if (!refund) throw new AppError('not_found');
  if (refund.state !== 'Queued') throw new AppError('conflict', { detail: 'This refund is already marked refunded.' });
  const reference = input.reference.trim();
  if (!reference) throw new AppError('validation_error', { fields: { reference: ['Give the provider’s reference of the refund.'] } });
  const attempt = (await ctx.db.query<Attempt>('SELECT * FROM provider_attempts WHERE id = $1', [refund.attempt_id]))[0];
  const done = await markDone(ctx, refund, attempt, { by: input.actor.label, reference: reference.slice(0, 100), answer: 'marked by an operator' }, { actor: input.actor });
  if (!done) throw new AppError('conflict', { detail: 'This refund was marked by someone else meanwhile.' });
}
