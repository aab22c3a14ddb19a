import type { AppContext } from '../context.js';
import { effectiveStatus, type Payment } from './payment.js';
import { findPayment } from './payment-store.js';
import { PayerError } from './payer-error.js';
import type { PayerReturn } from './return-status.js';
import { transition } from './state-machine.js';

/** The payer cancels on the hosted page; returns the payment to send the payer back with (User canceled). */
export async function cancelPayment(ctx: AppContext, payment: Payment): Promise<PayerReturn> {
  const now = ctx.clock.now();
  const canceled = (p: Payment): PayerReturn => ({ payment: p, status: 'User canceled' });
  if (payment.status === 'User canceled') return canceled(payment);
  const moved = await transition(ctx.db, payment.pidx, { name: 'cancel' }, now);
  if (moved) return canceled(moved);
  const current = (await findPayment(ctx.db, payment.pidx))!;
  if (current.status === 'User canceled') return canceled(current);
  throw new PayerError(effectiveStatus(current, now) === 'Expired' ? 'payment_expired' : 'not_payable');
}
