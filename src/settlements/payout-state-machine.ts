// The payout lifecycle: the allowed moves, in one table. Each move is one
// conditional UPDATE (payout-store's `movePayout`) with its journal in the same transaction, so when
// operators, the sandbox bank or several instances race, exactly one wins.
import type { PayoutJournalKind } from '../ledger/payout-journal.js';
import type { PayoutState } from './payout.js';

export type PayoutMove = { name: 'process' } | { name: 'pay'; reference: string } | { name: 'fail'; reason: string };
export type PayoutMoveName = PayoutMove['name'];

export const payoutMoveRules: Record<PayoutMoveName, { from: readonly PayoutState[]; to: PayoutState; journal?: PayoutJournalKind; webhook?: 'payout.paid' | 'payout.failed' }> = {
  process: { from: ['Requested'], to: 'Processing' },
  pay: { from: ['Processing'], to: 'Paid', journal: 'payout_paid', webhook: 'payout.paid' },
  // An operator may fail a payout before exporting it too (a closed account, a wrong name).
  fail: { from: ['Requested', 'Processing'], to: 'Failed', journal: 'payout_failed', webhook: 'payout.failed' },
};

export function canMovePayout(state: PayoutState, move: PayoutMoveName): boolean {
  return payoutMoveRules[move].from.includes(state);
}
