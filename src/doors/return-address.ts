// Where the payer's browser goes when the attempt ends: the door that started the payment decides
// (the v2 web checkout's signed callback, eSewa's data or v1's parameters). The hosted page and the
// dashboard ask here and know no door.
import type { AppContext } from '../context.js';
import type { Payment } from '../payments/payment.js';
import type { PayerReturn } from '../payments/return-status.js';
import { esewaReturnOrigins, esewaReturnStatus, esewaReturnUrl } from './esewa-epay/esewa-return.js';
import { callbackUrl } from './khalti-v2/callback.js';

export async function returnAddress(ctx: AppContext, { payment, status }: PayerReturn): Promise<string> {
  switch (payment.door) {
    case 'khalti-v2':
      return callbackUrl(ctx.db, payment, status);
    case 'esewa-v2':
    case 'esewa-v1':
      return esewaReturnUrl(ctx, payment, esewaReturnStatus[status]);
  }
}

/** The origins the payer may be sent to when the attempt ends (the hosted page allows its forms to lead there). */
export function returnOrigins(payment: Payment): string[] {
  return payment.door === 'khalti-v2' ? [new URL(payment.return_url).origin] : esewaReturnOrigins(payment);
}
