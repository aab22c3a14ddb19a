// The reads of payment links for the API: a page of a merchant's links in the transaction list's
// shape, and one link; each with its totals. Another merchant's link, or another environment's, is not found.
import type { AppContext } from '../context.js';
import { AppError } from '../http/errors.js';
import { paginated } from '../http/paginated.js';
import { paymentLinkJson } from './payment-link-json.js';
import { findOwnLink, linkTotals, listLinks, type Owner } from './payment-link-store.js';
import type { PaymentLink } from './payment-link.js';

const jsonOptions = (ctx: AppContext) => ({ publicUrl: ctx.config.publicUrl, timeZone: ctx.config.timeZone, now: ctx.clock.now() });

/** The links with their totals, as the API shows them. */
export async function paymentLinksJson(ctx: AppContext, links: PaymentLink[]) {
  const totals = await linkTotals(ctx.db, links.map((l) => l.idx));
  return links.map((link) => paymentLinkJson(link, totals.get(link.idx)!, jsonOptions(ctx)));
}

export async function listPaymentLinkPage(ctx: AppContext, owner: Owner, options: { page: number; pageSize: number; pageLink: (page: number) => string }) {
  const { page, pageSize } = options;
  const offset = (page - 1) * pageSize;
  const { total, links } = await listLinks(ctx.db, owner, { limit: pageSize, offset });
  return paginated({ page, pageSize, total, offset, records: await paymentLinksJson(ctx, links), pageLink: options.pageLink });
}

export async function getPaymentLink(ctx: AppContext, owner: Owner, idx: string) {
  const link = await findOwnLink(ctx.db, owner, idx);
  if (!link) throw new AppError('not_found');
  return (await paymentLinksJson(ctx, [link]))[0];
}
