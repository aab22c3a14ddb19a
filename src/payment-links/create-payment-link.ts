// Creating a payment link, by the merchant's server (API) or a user of its team (dashboard): the
// request checked by payment-link-request.ts, a new idx and a short random code for its address.
import type { AppContext } from '../context.js';
import type { PaymentLink } from './payment-link.js';
import type { PaymentLinkInput } from './payment-link-request.js';
import { insertPaymentLink, type Owner } from './payment-link-store.js';

/** 6 random bytes: 9 letters and digits (about 53 bits), short to type and too many to guess (the guesses are limited too). */
const CODE_BYTES = 6;

export async function createPaymentLink(ctx: AppContext, options: { owner: Owner; input: PaymentLinkInput; createdBy: string }): Promise<PaymentLink> {
  const { owner, input } = options;
  // A code already taken is drawn again; at 53 bits that is for the tests' sake.
  for (let tries = 1; ; tries++) {
    const link = await insertPaymentLink(ctx.db, {
      idx: ctx.ids.random(16),
      code: ctx.ids.random(CODE_BYTES),
      merchant_id: owner.merchantId,
      environment: owner.environment,
      name: input.name!,
      description: input.description ?? null,
      amount: input.amount ?? null,
      min_amount: input.min_amount ?? null,
      max_amount: input.max_amount ?? null,
      expires_at: input.expires_on ?? null,
      max_payments: input.max_payments ?? null,
      ask: input.ask ?? [],
      created_by: options.createdBy,
      created_at: ctx.clock.now(),
    });
    if (link) return link;
    if (tries >= 5) throw new Error('no free payment link code after 5 draws');
  }
}
