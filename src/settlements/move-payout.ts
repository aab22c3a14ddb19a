// The moves after a request: Processing (exported to the bank, or taken by the
// sandbox bank), Paid with the bank's reference, Failed with a reason. Each is the state machine's
// conditional update and its journal in one transaction; an operator's move is audited in it too.
import type { Actor } from '../audit/audit-entry.js';
import { appendAudit } from '../audit/audit-store.js';
import type { AppContext } from '../context.js';
import type { Queryable } from '../db/db.js';
import { AppError } from '../http/errors.js';
import { postPayoutJournal } from '../ledger/payout-journal.js';
import type { Payout } from './payout.js';
import { canMovePayout, payoutMoveRules, type PayoutMove } from './payout-state-machine.js';
import { decideTransfer, findTransfer } from './npi-transfer-store.js';
import { findPayout, movePayout } from './payout-store.js';

/** Inside the caller's transaction: the move and its journal; null when the payout's state no longer allows it. */
export async function applyPayoutMove(ctx: AppContext, tx: Queryable, payout: Pick<Payout, 'id'>, move: PayoutMove, now: Date): Promise<Payout | null> {
  const moved = await movePayout(tx, payout.id, move, now);
  const journal = payoutMoveRules[move.name].journal;
  if (moved && journal) await postPayoutJournal(ctx, tx, moved, journal, now);
  return moved;
}

const verb = { process: 'exported', pay: 'marked paid', fail: 'marked failed' } as const;

/** Test payouts are the sandbox's (NPI's simulator, or the sandbox bank): an operator's move (console or CLI) would race it for nothing. */
export const TEST_PAYOUT_REFUSAL = 'Test payouts are paid by the sandbox; operators mark live payouts only.';
const auditAction = { process: 'payout.process', pay: 'payout.mark_paid', fail: 'payout.mark_failed' } as const;

/** An operator's (or the CLI's) move of live payout `idx`: refused with a clear error for a test payout, or when its state does not allow it. */
export async function markPayout(ctx: AppContext, input: { actor: Actor; idx: string; move: PayoutMove }): Promise<Payout> {
  const { move } = input;
  if (move.name === 'pay' && !move.reference.trim()) throw new AppError('validation_error', { fields: { reference: ['Enter the bank reference.'] } });
  if (move.name === 'fail' && !move.reason.trim()) throw new AppError('validation_error', { fields: { reason: ['Enter why the payout failed.'] } });
  const payout = await findPayout(ctx.db, input.idx);
  if (!payout) throw new AppError('not_found');
  if (payout.environment !== 'live') throw new AppError('conflict', { detail: TEST_PAYOUT_REFUSAL });
  // NPI decides its payouts; an operator only those it could not (the operators' queue).
  const transfer = await findTransfer(ctx.db, payout.id);
  if (transfer && !transfer.needs_operator && (transfer.status === 'unsent' || transfer.status === 'sent')) {
    throw new AppError('conflict', { detail: `Payout ${payout.idx} is NPI's to decide (${transfer.detail ?? 'posted'}); it reaches the operators' queue only if NPI's reports cannot.` });
  }
  if (!canMovePayout(payout.state, move.name)) {
    throw new AppError('bad_request', { detail: `Payout ${payout.idx} is ${payout.state}; only a ${payoutMoveRules[move.name].from.join(' or ')} payout can be ${verb[move.name]}.` });
  }
  const now = ctx.clock.now();
  const trimmed: PayoutMove = move.name === 'pay' ? { name: 'pay', reference: move.reference.trim() } : move.name === 'fail' ? { name: 'fail', reason: move.reason.trim() } : move;
  return ctx.db.transaction(async (tx) => {
    const moved = await applyPayoutMove(ctx, tx, payout, trimmed, now);
    if (!moved) throw new AppError('bad_request', { detail: `Payout ${payout.idx} was moved by someone else meanwhile; it is no longer ${payout.state}.` });
    // An undecided NPI payout decided by hand: NPI's run stops asking; reconciliation shows any difference with NPI's books.
    if (transfer && trimmed.name !== 'process') {
      const decided = trimmed.name === 'pay' ? { status: 'paid' as const, reference: trimmed.reference } : { status: 'failed' as const, reference: null };
      await decideTransfer(tx, payout.id, { ...decided, said: 'operator', detail: `Decided by ${input.actor.label}${trimmed.name === 'fail' ? `: ${trimmed.reason}` : ''}` }, now);
    }
    await appendAudit(tx, {
      now,
      actor: input.actor,
      action: auditAction[move.name],
      object: { type: 'payout', id: moved.idx },
      environment: moved.environment,
      reason: trimmed.name === 'fail' ? trimmed.reason : undefined,
      before: { state: payout.state },
      after: { state: moved.state, ...(moved.bank_reference ? { bank_reference: moved.bank_reference } : {}) },
    });
    return moved;
  });
}
