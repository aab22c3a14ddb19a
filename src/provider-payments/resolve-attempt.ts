// An operator decides an attempt the providers could not (the console's "needs
// attention"): paid (they saw the money at the provider: the payment completes, or the money is owed
// back if the payment was decided meanwhile), not paid, or ask again. Audited in the decision's own
// transaction.
import type { Actor } from '../audit/audit-entry.js';
import { appendAudit } from '../audit/audit-store.js';
import type { AppContext } from '../context.js';
import { AppError } from '../http/errors.js';
import { isSettled, moveAttempt, type Attempt } from './attempt-state-machine.js';
import { findAttempt } from './attempt-store.js';
import { providerLabel } from '../providers/registry.js';
import { settleAttempt, type Settled } from './settle-attempt.js';

export type AttemptDecision = 'paid' | 'not_paid' | 'ask_again';

export async function resolveAttempt(ctx: AppContext, input: { actor: Actor; attempt: Attempt | string; decision: AttemptDecision; reason: string }): Promise<Settled | { kind: 'reopened' }> {
  const attempt = typeof input.attempt === 'string' ? await findAttempt(ctx.db, input.attempt) : input.attempt;
  if (!attempt) throw new AppError('not_found');
  if (isSettled(attempt.state)) throw new AppError('conflict', { detail: `This attempt is ${attempt.state} already.` });
  const reason = input.reason.trim().slice(0, 500);
  if (!reason) throw new AppError('bad_request', { detail: 'Give the reason for the decision; it is kept in the audit log.' });
  const now = ctx.clock.now();
  const audit = (after: string) => (tx: Parameters<typeof appendAudit>[0]) =>
    appendAudit(tx, { now, actor: input.actor, action: `provider_attempt.${input.decision}`, object: { type: 'payment', id: attempt.pidx }, environment: attempt.environment, reason, before: { attempt: attempt.idx, provider: attempt.provider, state: attempt.state }, after: { state: after } });
  if (input.decision === 'ask_again') {
    return ctx.db.transaction(async (tx) => {
      const moved = await moveAttempt(tx, attempt, 'reopen', { answer: `asked again by ${input.actor.label}` }, now);
      if (!moved) throw new AppError('conflict', { detail: 'Only an attempt handed to the operators can be asked about again.' });
      await audit('Unknown')(tx);
      return { kind: 'reopened' } as const;
    });
  }
  const detail = `${input.decision === 'paid' ? 'paid' : 'not paid'} at ${providerLabel(attempt.provider)}, by ${input.actor.label}`;
  const answer = input.decision === 'paid' ? ({ kind: 'paid', transactionId: attempt.provider_transaction_id ?? '', fee: attempt.provider_fee, detail } as const) : ({ kind: 'failed', detail } as const);
  const settled = await settleAttempt(ctx, attempt, answer, { asker: 'job', alsoInTransaction: audit(input.decision === 'paid' ? 'Paid' : 'Failed') });
  if (settled.kind === 'already') throw new AppError('conflict', { detail: 'The attempt was settled by someone else meanwhile.' });
  return settled;
}
