// How the payments of a dashboard screen were paid through a provider: the way the paid attempt went
// (a provider's QR, or its own page: Fonepay QR or Fonepay's web checkout, one record type in the
// API) and the customer the merchant named at initiate, since a provider tells Bhuktani nothing of
// the payer that a wallet payment's record holds.
import type { Queryable } from '../db/db.js';
import type { Environment } from '../environment.js';
import type { Payment } from '../payments/payment.js';
import { qrMessageOf } from '../providers/connectors.js';
import { descriptorOf, isProviderName } from '../providers/registry.js';

export interface PaidThrough {
  /** The way the payer paid: `Fonepay QR`, `Fonepay`. */
  way: string;
  /** What the merchant said of the customer, if anything. */
  customer?: { name?: string; phone?: string; email?: string };
}

/** The payments among `pidxs` (of one merchant and environment) paid through a provider, by pidx. */
export async function findPaidThrough(db: Queryable, options: { merchantId: number; environment: Environment; pidxs: string[] }): Promise<Map<string, PaidThrough>> {
  if (options.pidxs.length === 0) return new Map();
  const rows = await db.query<{ pidx: string; provider: string; provider_reference: unknown; customer_info: Payment['customer_info'] }>(
    `SELECT p.pidx, a.provider, a.provider_reference, p.customer_info
       FROM payments p JOIN provider_attempts a ON a.pidx = p.pidx AND a.state = 'Paid'
      WHERE p.merchant_id = $1 AND p.environment = $2 AND p.pidx = ANY($3)`,
    [options.merchantId, options.environment, [...new Set(options.pidxs)]],
  );
  return new Map(
    rows.flatMap(({ pidx, provider, provider_reference, customer_info }) => {
      if (!isProviderName(provider)) return [];
      const { label, qr } = descriptorOf(provider);
      const way = qr && qrMessageOf(provider, provider_reference) !== undefined ? qr.label : label;
      const customer = customer_info && (customer_info.name || customer_info.phone || customer_info.email) ? customer_info : undefined;
      return [[pidx, { way, customer }] as const];
    }),
  );
}
