// Merchant approval: the allowed moves, and the function that makes them. Each
// move is one conditional UPDATE (… AND status IN (<from>)), so when two operators decide at once
// exactly one wins, and the other finds the merchant already moved.
import type { Queryable } from '../db/db.js';
import type { ApprovalStatus, Merchant } from './merchant.js';
import { MERCHANT_COLUMNS } from './merchant-store.js';

export type ApprovalMove = 'apply' | 'approve' | 'reject' | 'suspend' | 'reactivate';

export const approvalMoves: Record<ApprovalMove, { from: readonly ApprovalStatus[]; to: ApprovalStatus }> = {
  apply: { from: ['new', 'rejected'], to: 'applied' },
  approve: { from: ['applied'], to: 'approved' },
  reject: { from: ['applied'], to: 'rejected' },
  suspend: { from: ['approved'], to: 'suspended' },
  reactivate: { from: ['suspended'], to: 'approved' },
};

/** Whether a merchant in `status` may make `move`; the UPDATE checks it again, atomically. */
export function canMoveMerchant(status: ApprovalStatus, move: ApprovalMove): boolean {
  return approvalMoves[move].from.includes(status);
}

/**
 * Only an approved merchant takes live payments; test (sandbox) works in every status, suspended
 * too, so an integration can be fixed while live is off. Why live is refused, for the API's 403
 * and the hosted page's notice; undefined when live works.
 */
export function liveRefusal(status: ApprovalStatus): string | undefined {
  switch (status) {
    case 'approved':
      return undefined;
    case 'new':
      return 'Your live account is not approved yet: apply with your business details in the dashboard.';
    case 'applied':
      return 'Your live account is not approved yet: your application is being reviewed.';
    case 'rejected':
      return 'Your live account was not approved: see the reason in the dashboard, correct your details and apply again.';
    case 'suspended':
      return 'This merchant is suspended: live payments are off.';
  }
}

export interface MerchantMoved {
  before: ApprovalStatus;
  merchant: Merchant;
}

/**
 * Makes `move` on merchant `idx` if its status allows it, recording `reason` (null clears the last
 * one) and the time. Returns the merchant as moved and the status it left, or null when the merchant
 * does not exist or its status does not allow the move (another request won the race).
 */
export async function moveMerchant(db: Queryable, idx: string, move: ApprovalMove, at: { now: Date; reason: string | null }): Promise<MerchantMoved | null> {
  const { from, to } = approvalMoves[move];
  // `from` is this module's constant, never input: safe to write into the statement.
  const allowed = from.map((status) => `'${status}'`).join(', ');
  const rows = await db.query<Merchant & { before: ApprovalStatus }>(
    `WITH current AS (SELECT id, status FROM merchants WHERE idx = $1)
     UPDATE merchants m
        SET status = $2, status_reason = $3, status_changed_at = $4${move === 'apply' ? ', applied_at = $4' : ''}
       FROM current c
      WHERE m.id = c.id AND m.status IN (${allowed})
     RETURNING ${MERCHANT_COLUMNS}, c.status AS before`,
    [idx, to, at.reason, at.now],
  );
  const row = rows[0];
  if (!row) return null;
  const { before, ...merchant } = row;
  return { before, merchant };
}
