// A refund whose answer was lost (contract section 13): its request may or may not have been made, and
// no provider promises that a request sent twice refunds once. The provider's own record of the payment
// decides, against what Bhuktani knows was refunded of it; when it cannot, an operator looks.
import type { RefundedRecord } from '../providers/provider.js';

export interface RefundInDoubt {
  /** This refund's amount. */
  amount: number;
  /** The attempt's amount (what was paid). */
  paid: number;
  /** Refunded of the attempt before, as Bhuktani knows it (its refunds marked Refunded). */
  before: number;
  /** Whether another refund of the attempt may have been made and is not marked (in doubt, or with the operators). */
  othersInDoubt: boolean;
}

/** `made`: mark it refunded; `not made`: it may be asked for (once more); `cannot tell`: to the operators. */
export function lostRefundMade(record: Extract<RefundedRecord, { kind: 'record' }>, refund: RefundInDoubt): 'made' | 'not made' | 'cannot tell' {
  const { amount, paid, before, othersInDoubt } = refund;
  if (record.amount !== undefined) {
    // The amounts: exactly what was known before (none of those in doubt was made), or that and this one.
    if (record.amount === before) return 'not made';
    return record.amount === before + amount && !othersInDoubt ? 'made' : 'cannot tell';
  }
  // Only whether some or all of it was refunded.
  if (!record.any) return before === 0 ? 'not made' : 'cannot tell';
  if (othersInDoubt) return 'cannot tell';
  if (record.whole) return before + amount === paid ? 'made' : 'cannot tell';
  return before === 0 && amount < paid ? 'made' : 'cannot tell';
}
