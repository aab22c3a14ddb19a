// Where the payer's browser goes back to from a payment of eSewa's doors (contract section 12):
// v2's success_url?data=… (or failure_url?data=…) with the signed result, v1's
// su?oid=&amt=&refId= or fu?pid=. The merchant's addresses keep their own query.
import type { AppContext } from '../../context.js';
import { findEsewaCredential } from '../../merchants/esewa-credentials.js';
import type { Payment } from '../../payments/payment.js';
import type { ReturnStatus } from '../../payments/return-status.js';
import { resultData, type EsewaResult } from './result-data.js';
import { esewaRupees } from '../../protocols/esewa-epay/rupees.js';

/** What a door payment keeps for the way back (payments.door_fields). */
export interface EsewaDoorFields {
  product_code: string;
  failure_url: string;
}

export const doorFieldsOf = (payment: Payment) => payment.door_fields as unknown as EsewaDoorFields;

export type EsewaReturnStatus = EsewaResult['status'];

export const esewaReturnStatus: Record<ReturnStatus, EsewaReturnStatus> = { Completed: 'COMPLETE', Pending: 'PENDING', 'User canceled': 'CANCELED' };

function withQuery(address: string, params: [string, string][]): string {
  const url = new URL(address);
  // Set on a copy and written back once: each set on url.searchParams would rewrite the URL.
  const query = new URLSearchParams(url.search);
  for (const [name, value] of params) query.set(name, value);
  url.search = query.toString();
  return url.toString();
}

/**
 * Only a paid payment goes to the success address: a shop that checks no more than the signature
 * hands over the goods there. A held one (PENDING, with its transaction code: the status check will
 * say when it is COMPLETE), a canceled or an expired one go to the failure address, as eSewa documents.
 */
export async function esewaReturnUrl(ctx: Pick<AppContext, 'db' | 'clock' | 'config'>, payment: Payment, status: EsewaReturnStatus): Promise<string> {
  const fields = doorFieldsOf(payment);
  const paid = status === 'COMPLETE';
  if (payment.door === 'esewa-v1') {
    if (!paid) return withQuery(fields.failure_url, [['pid', payment.purchase_order_id]]);
    return withQuery(payment.return_url, [
      ['oid', payment.purchase_order_id],
      ['amt', esewaRupees(payment.amount)],
      ['refId', payment.transaction_id ?? ''],
    ]);
  }
  const credential = await findEsewaCredential(ctx, fields.product_code);
  if (!credential) throw new Error(`no eSewa credential ${fields.product_code} for payment ${payment.pidx}`);
  const result: EsewaResult = {
    ...(status !== 'CANCELED' ? { transaction_code: payment.transaction_id ?? '' } : {}),
    status,
    total_amount: esewaRupees(payment.amount),
    transaction_uuid: payment.purchase_order_id,
    product_code: fields.product_code,
  };
  // Always the current key: during a rotation's grace period the merchant has deployed it, or is about to.
  return withQuery(paid ? payment.return_url : fields.failure_url, [['data', resultData(credential.secretKeys[0], result)]]);
}

/** The origins the payer's browser may be sent back to (the hosted page's form-action). */
export function esewaReturnOrigins(payment: Payment): string[] {
  return [new URL(payment.return_url).origin, new URL(doorFieldsOf(payment).failure_url).origin];
}
