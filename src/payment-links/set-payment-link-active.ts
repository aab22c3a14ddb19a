// Deactivating a payment link (its page then says so, politely) and activating it again. Payments
// already started from it stay payable until they expire, as any payment does.
import type { AppContext } from '../context.js';
import { AppError } from '../http/errors.js';
import type { PaymentLink } from './payment-link.js';
import { setLinkActive, type Owner } from './payment-link-store.js';

export async function setPaymentLinkActive(ctx: AppContext, options: { owner: Owner; idx: string; active: boolean }): Promise<PaymentLink> {
  const link = await setLinkActive(ctx.db, options.owner, options.idx, options.active, ctx.clock.now());
  if (!link) throw new AppError('not_found');
  return link;
}
