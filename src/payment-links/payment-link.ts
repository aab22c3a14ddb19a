// A payment link: a merchant's short public address, /l/<code>, that starts
// ordinary payments of its merchant and environment. Pure rules: what it is, and whether it takes a
// payment now.
import type { Environment } from '../environment.js';

/** What a link may ask the payer for, in this order on its page. */
export const askable = ['name', 'phone', 'email'] as const;
export type Askable = (typeof askable)[number];

/** A link as stored: one row of `payment_links`. */
export interface PaymentLink {
  id: number;
  idx: string;
  code: string;
  merchant_id: number;
  environment: Environment;
  name: string;
  description: string | null;
  /** A fixed amount (paisa), or null when the payer chooses one between min_amount and max_amount. */
  amount: number | null;
  min_amount: number | null;
  max_amount: number | null;
  expires_at: Date | null;
  max_payments: number | null;
  /** Its payments that hold or took the money (Pending, Completed, refunded): what max_payments counts. */
  payments_taken: number;
  ask: Askable[];
  active: boolean;
  created_by: string;
  created_at: Date;
  updated_at: Date;
}

/**
 * - `active`: takes payments;
 * - `inactive`: the merchant deactivated it (and may activate it again);
 * - `expired`: past its expiry;
 * - `used_up`: paid as many times as max_payments allows.
 */
export const linkStatuses = ['active', 'inactive', 'expired', 'used_up'] as const;
export type LinkStatus = (typeof linkStatuses)[number];

export function linkStatus(link: Pick<PaymentLink, 'active' | 'expires_at' | 'max_payments' | 'payments_taken'>, now: Date): LinkStatus {
  if (!link.active) return 'inactive';
  if (link.expires_at && link.expires_at.getTime() <= now.getTime()) return 'expired';
  if (link.max_payments !== null && link.payments_taken >= link.max_payments) return 'used_up';
  return 'active';
}

/** The link's public address on PUBLIC_URL, and its QR codes'. */
export function linkUrls(publicUrl: string, code: string) {
  const url = `${publicUrl}/l/${code}`;
  return { url, qr_svg_url: `${url}/qr.svg`, qr_png_url: `${url}/qr.png` };
}

/** A code as issued: letters and digits (clock.ts's ids); anything else names no link and never reaches the store. */
export const LINK_CODE = /^[A-Za-z0-9]{6,32}$/;
