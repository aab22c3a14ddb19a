// A payout's statement, as an accountant reconciles it: the records it settles with their
// totals, and the two lines that make them add up to the payout: what was available before from
// earlier records (brought forward: the rest of a partial payout, or refunds of payments still
// pending) and what stays available after (carried forward: the part of the balance not asked for).
//   brought_forward + records_net − carried_forward = amount
import type { Payout, SettledRecord } from './payout.js';

export interface StatementTotals {
  /** Gross of the payments settled. */
  payments: number;
  /** Their fees (kept by the service). */
  fees: number;
  /** Refunds settled (a positive number, taken off). */
  refunds: number;
  /** What the sandbox covered of those refunds beyond the merchant's balance (test only; added back). */
  sandbox_covered: number;
  /** payments − fees − refunds + sandbox_covered. */
  records_net: number;
  brought_forward: number;
  carried_forward: number;
  /** Equals the payout's amount. */
  amount: number;
}

/** What the statement's records add up to: enough for its totals, summed in memory or by the database. */
export interface RecordSums {
  payments: number;
  fees: number;
  refunds: number;
  sandbox_covered: number;
}

/** Pure. */
export function statementTotals(payout: Pick<Payout, 'amount' | 'available_before'>, records: SettledRecord[]): StatementTotals {
  const payments = records.filter((r) => r.type !== 'Refund');
  const refunds = records.filter((r) => r.type === 'Refund');
  return statementTotalsOfSums(payout, {
    payments: payments.reduce((sum, r) => sum + r.amount, 0),
    fees: payments.reduce((sum, r) => sum + r.fee_amount, 0),
    refunds: refunds.reduce((sum, r) => sum + r.amount, 0),
    sandbox_covered: refunds.reduce((sum, r) => sum + r.sandbox_covered, 0),
  });
}

/** Pure: the totals from sums of the records (a statement too long to hold, summed by the database). */
export function statementTotalsOfSums(payout: Pick<Payout, 'amount' | 'available_before'>, sums: RecordSums): StatementTotals {
  const recordsNet = sums.payments - sums.fees - sums.refunds + sums.sandbox_covered;
  return {
    payments: sums.payments,
    fees: sums.fees,
    refunds: sums.refunds,
    sandbox_covered: sums.sandbox_covered,
    records_net: recordsNet,
    brought_forward: payout.available_before - recordsNet,
    carried_forward: payout.available_before - payout.amount,
    amount: payout.amount,
  };
}
