// A payer pays through a payment link: an ordinary payment of the link's merchant and environment,
// with the link recorded on it. Its return_url is the link's receipt page (the link has no website
// of its own to return to), which shows the outcome from the store, never from the query.
import type { AppContext } from '../context.js';
import type { Merchant } from '../merchants/merchant.js';
import { initiatePayment } from '../payments/initiate-payment.js';
import { linkStatus, linkUrls, type LinkStatus, type PaymentLink } from './payment-link.js';
import type { PayerDetails } from './payer-details.js';

/** Why a link takes no payment now (its status). */
export class LinkUnavailableError extends Error {
  constructor(readonly status: Exclude<LinkStatus, 'active'>) {
    super(`payment link is ${status}`);
  }
}

/** The link's receipt page, where the payer lands when the attempt ends. */
export const receiptPath = (code: string) => `/l/${code}/paid`;

/** Starts the payment; the hosted page's address to send the payer to. Throws LinkUnavailableError. */
export async function startLinkPayment(ctx: AppContext, options: { link: PaymentLink; merchant: Merchant; details: PayerDetails }): Promise<string> {
  const { link, merchant, details } = options;
  const status = linkStatus(link, ctx.clock.now());
  if (status !== 'active') throw new LinkUnavailableError(status);
  const { url } = linkUrls(ctx.config.publicUrl, link.code);
  const started = await initiatePayment(
    ctx,
    { merchant, environment: link.environment },
    {
      return_url: `${ctx.config.publicUrl}${receiptPath(link.code)}`,
      website_url: url,
      amount: details.amount,
      // One order per payment, so that each can be paid (an order is paid by at most one payment).
      purchase_order_id: `${link.code}-${ctx.ids.random(6)}`,
      purchase_order_name: link.name,
      customer_info: details.customer_info,
    },
    undefined,
    link.idx,
  );
  return started.payment_url;
}
