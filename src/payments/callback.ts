// The redirect to the merchant's return_url (specification 2.3, contract section 5). The return
// URL keeps its own query; the result parameters are added to it.
import { maskMobile } from '../transactions/transaction-record.js';
import type { Payment } from './payment.js';

export type CallbackStatus = 'Completed' | 'Pending' | 'User canceled';

export function callbackParams(payment: Payment, status: CallbackStatus): [string, string][] {
  const paid = status !== 'User canceled';
  const transactionId = paid ? (payment.transaction_id ?? '') : '';
  return [
    ['pidx', payment.pidx],
    ['transaction_id', transactionId],
    ['tidx', transactionId],
    ['amount', String(payment.amount)],
    ['total_amount', String(payment.amount)],
    ['mobile', paid && payment.payer_mobile ? maskMobile(payment.payer_mobile) : ''],
    ['status', status],
    ['purchase_order_id', payment.purchase_order_id],
    ['purchase_order_name', payment.purchase_order_name],
  ];
}

export function callbackUrl(payment: Payment, status: CallbackStatus): string {
  const url = new URL(payment.return_url);
  for (const [name, value] of callbackParams(payment, status)) url.searchParams.set(name, value);
  return url.toString();
}

/** The callback status of a payment whose attempt has ended, if it has one. */
export function callbackStatusOf(payment: Payment): CallbackStatus | undefined {
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
