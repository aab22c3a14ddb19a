// How the payer's attempt ended, as the payer's browser is told when it goes back to the merchant:
// paid, held, or canceled. Each door writes it in its own words to its own address (src/doors/).
import type { Payment } from './payment.js';

export type ReturnStatus = 'Completed' | 'Pending' | 'User canceled';

/** A payment whose attempt has ended, and how, for the door to send the payer back. */
export interface PayerReturn {
  payment: Payment;
  status: ReturnStatus;
}

/** The return status of a payment whose attempt has ended, if it has one. */
export function returnStatusOf(payment: Payment): ReturnStatus | undefined {
  switch (payment.status) {
    case 'Completed':
    case 'Partially refunded':
    case 'Refunded':
      return 'Completed';
    case 'Pending':
      return 'Pending';
    case 'User canceled':
      return 'User canceled';
    default:
      return undefined;
  }
}
