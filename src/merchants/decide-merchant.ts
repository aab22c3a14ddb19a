// The operators' decisions on a merchant: approve, reject, suspend, reactivate.
// Each is one transaction: the move through the approval state machine and its audit entry.
import type { Actor } from '../audit/audit-entry.js';
import { appendAudit } from '../audit/audit-store.js';
import type { AppContext } from '../context.js';
import { AppError } from '../http/errors.js';
import { approvalMoves, moveMerchant, type ApprovalMove } from './approval-state-machine.js';
import type { Merchant } from './merchant.js';
import { findMerchantByIdx } from './merchant-store.js';
import { operatorReason } from './operator-reason.js';

export interface MerchantDecision {
  actor: Actor;
  merchantIdx: string;
  /** Shown to the merchant; required to reject or suspend. */
  reason?: string;
}

/** applied → approved: its live key works from now (within KEY_CACHE_SECONDS). */
export const approveMerchant = (ctx: AppContext, decision: MerchantDecision) => decide(ctx, 'approve', decision);
/** applied → rejected, with the reason the merchant is shown; it may correct its details and apply again. */
export const rejectMerchant = (ctx: AppContext, decision: MerchantDecision & { reason: string }) => decide(ctx, 'reject', decision);
/** approved → suspended: its live calls get 403 and its live hosted pages take no payment. */
export const suspendMerchant = (ctx: AppContext, decision: MerchantDecision & { reason: string }) => decide(ctx, 'suspend', decision);
/** suspended → approved. */
export const reactivateMerchant = (ctx: AppContext, decision: MerchantDecision) => decide(ctx, 'reactivate', decision);

const REASON_REQUIRED: ReadonlySet<ApprovalMove> = new Set(['reject', 'suspend']);

const DONE: Record<ApprovalMove, string> = { apply: 'apply', approve: 'be approved', reject: 'be rejected', suspend: 'be suspended', reactivate: 'be reactivated' };

async function decide(ctx: AppContext, move: ApprovalMove, { actor, merchantIdx, reason }: MerchantDecision): Promise<Merchant> {
  const why = operatorReason(reason, REASON_REQUIRED.has(move));
  const now = ctx.clock.now();
  return ctx.db.transaction(async (tx) => {
    const moved = await moveMerchant(tx, merchantIdx, move, { now, reason: why ?? null });
    if (!moved) {
      const current = await findMerchantByIdx(tx, merchantIdx);
      if (!current) throw new AppError('not_found', { detail: `No merchant has idx ${merchantIdx}.` });
      const from = approvalMoves[move].from.join(' or ');
      throw new AppError('conflict', { detail: `This merchant is ${current.status}; only a merchant that is ${from} can ${DONE[move]}.` });
    }
    await appendAudit(tx, {
      now,
      actor,
      action: `merchant.${move}`,
      object: { type: 'merchant', id: merchantIdx },
      reason: why,
      before: { status: moved.before },
      after: { status: moved.merchant.status },
    });
    return moved.merchant;
  });
}
