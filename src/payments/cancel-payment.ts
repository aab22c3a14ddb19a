import type { AppContext } from '../context.js';
import { callbackUrl } from './callback.js';
import { effectiveStatus, type Payment } from './payment.js';
import { findPayment } from './payment-store.js';
import { PayerError } from './payer-error.js';
import { transition } from './state-machine.js';

/** The payer cancels on the hosted page; returns the URL to redirect to (status User canceled). */
export async function cancelPayment(ctx: AppContext, payment: Payment): Promise<string> {
  const now = ctx.clock.now();
  if (payment.status === 'User canceled') return callbackUrl(ctx.db, payment, 'User canceled');
  const moved = await transition(ctx.db, payment.pidx, { name: 'cancel' }, now);
  if (moved) return callbackUrl(ctx.db, moved, 'User canceled');
  const current = (await findPayment(ctx.db, payment.pidx))!;
  if (current.status === 'User canceled') return callbackUrl(ctx.db, current, 'User canceled');
  throw new PayerError(effectiveStatus(current, now) === 'Expired' ? 'payment_expired' : 'not_payable');
}
