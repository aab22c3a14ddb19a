// A payout's statement, for the merchant's books: every payment (with its fee) and refund it
// settles, and the totals from them to the amount paid out. The records rarely add up to the payout
// alone: what a partial payout left in the balance comes forward into the next one, and a partial
// payout leaves some behind; both are lines of their own, so the statement always adds up. Pure.
import type { Payout } from './payout.js';
import type { StatementSums } from './statement-store.js';

export interface StatementTotals extends StatementSums {
  /** What the records add to the balance: payments − fees − refunds. */
  net: number;
  /** Left in the balance by earlier payouts, paid out by this one. */
  broughtForward: number;
  /** Available when requested but not taken (an amount smaller than the balance). */
  leftInBalance: number;
  /** net + broughtForward − leftInBalance: the payout's amount. */
  payout: number;
}

export function statementTotals(payout: Pick<Payout, 'amount' | 'available_before'>, sums: StatementSums): StatementTotals {
  const net = sums.payments - sums.fees - sums.refunds;
  const broughtForward = payout.available_before - net;
  const leftInBalance = payout.available_before - payout.amount;
  return { ...sums, net, broughtForward, leftInBalance, payout: net + broughtForward - leftInBalance };
}
