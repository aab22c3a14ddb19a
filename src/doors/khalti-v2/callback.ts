// The redirect to the merchant's return_url (specification 2.3). The return
// URL keeps its own query; the result parameters are added to it, then `signature` over them.
import { signCallback } from '../../client/signatures.js';
import type { Queryable } from '../../db/db.js';
import { signingSecret } from '../../merchants/signing-secret.js';
import type { Payment } from '../../payments/payment.js';
import type { ReturnStatus } from '../../payments/return-status.js';
import { maskMobile } from '../../transactions/transaction-record.js';

export function callbackParams(payment: Payment, status: ReturnStatus): [string, string][] {
  const paid = status !== 'User canceled';
  const transactionId = paid ? (payment.transaction_id ?? '') : '';
  return [
    ['pidx', payment.pidx],
    ['transaction_id', transactionId],
    ['tidx', transactionId],
    // The real gateway's name for it too (its official plugins read `transaction_id` or `txnId`).
    ['txnId', transactionId],
    ['amount', String(payment.amount)],
    ['total_amount', String(payment.amount)],
    ['mobile', paid && payment.payer_mobile ? maskMobile(payment.payer_mobile) : ''],
    ['status', status],
    ['purchase_order_id', payment.purchase_order_id],
    ['purchase_order_name', payment.purchase_order_name],
  ];
}

export async function callbackUrl(db: Queryable, payment: Payment, status: ReturnStatus): Promise<string> {
  const params = callbackParams(payment, status);
  const url = new URL(payment.return_url);
  // Set on a copy and written back once: each set on url.searchParams would rewrite the URL.
  const query = new URLSearchParams(url.search);
  for (const [name, value] of params) query.set(name, value);
  query.set('signature', signCallback(Object.fromEntries(params), await signingSecret(db, payment.merchant_id, payment.environment)));
  url.search = query.toString();
  return url.toString();
}
