// A payment's status in eSewa's words, as its status check answers it. Pure.
import type { PaymentStatus } from '../../payments/payment-status.js';

export const esewaStatuses = ['COMPLETE', 'PENDING', 'FULL_REFUND', 'PARTIAL_REFUND', 'CANCELED', 'NOT_FOUND', 'AMBIGUOUS'] as const;
export type EsewaStatus = (typeof esewaStatuses)[number];

const byStatus: Record<PaymentStatus, EsewaStatus> = {
  Completed: 'COMPLETE',
  // Not paid yet, and held for the operator: neither is final, both are PENDING to eSewa.
  Initiated: 'PENDING',
  Pending: 'PENDING',
  Refunded: 'FULL_REFUND',
  'Partially refunded': 'PARTIAL_REFUND',
  'User canceled': 'CANCELED',
  Expired: 'CANCELED',
};

/** `status` is the effective one (an overdue Initiated payment is Expired). */
export function esewaStatusOf(status: PaymentStatus): EsewaStatus {
  return byStatus[status];
}
