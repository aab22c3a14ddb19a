// A payout's statement, as an accountant reconciles it (issue 18): the records it settles with their
// totals, and the two lines that make them add up to the payout: what was available before from
// earlier records (brought forward: the rest of a partial payout, or refunds of payments still
// pending) and what stays available after (carried forward: the part of the balance not asked for).
//   brought_forward + records_net − carried_forward = amount
import { recordNet, type Payout, type SettledRecord } from './payout.js';

export interface StatementTotals {
  /** Gross of the payments settled. */
  payments: number;
  /** Their fees (kept by the service). */
  fees: number;
  /** Refunds settled (a positive number, taken off). */
  refunds: number;
  /** payments − fees − refunds. */
  records_net: number;
  brought_forward: number;
  carried_forward: number;
  /** Equals the payout's amount. */
  amount: number;
}

/** Pure. */
export function statementTotals(payout: Pick<Payout, 'amount' | 'available_before'>, records: SettledRecord[]): StatementTotals {
  const payments = records.filter((r) => r.type === 'Wallet payment');
  const refunds = records.filter((r) => r.type === 'Refund');
  const recordsNet = records.reduce((sum, r) => sum + recordNet(r), 0);
  return {
    payments: payments.reduce((sum, r) => sum + r.amount, 0),
    fees: payments.reduce((sum, r) => sum + r.fee_amount, 0),
    refunds: refunds.reduce((sum, r) => sum + r.amount, 0),
    records_net: recordsNet,
    brought_forward: payout.available_before - recordsNet,
    carried_forward: payout.available_before - payout.amount,
    amount: payout.amount,
  };
}
