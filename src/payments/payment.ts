import type { PaymentStatus } from './payment-status.js';
import type { Environment } from '../environment.js';

/**
 * The merchant-facing protocols a payment can be started through (src/doors/). The payment is the
 * same whichever started it; the door only decides its wire (fields, signatures, where the payer
 * goes back to).
 */
export const paymentDoors = ['khalti-v2', 'esewa-v2', 'esewa-v1'] as const;
export type PaymentDoor = (typeof paymentDoors)[number];

/** The least a payment may ask for (the store checks it too: `amount >= 10`), whichever way it is started. */
export const MIN_AMOUNT_PAISA = 10;

/** A payment as stored: one row of `payments`. */
export interface Payment {
  pidx: string;
  merchant_id: number;
  environment: Environment;
  purchase_order_id: string;
  purchase_order_name: string;
  amount: number;
  fee: number;
  return_url: string;
  website_url: string;
  customer_info: { name?: string; email?: string; phone?: string } | null;
  amount_breakdown: { label: string; amount: number }[] | null;
  product_details: { identity: string; name: string; total_price: number; quantity: number; unit_price: number }[] | null;
  merchant_fields: Record<string, unknown>;
  status: PaymentStatus;
  transaction_id: string | null;
  payer_mobile: string | null;
  refunded_amount: number;
  /** The idx of the payment link it was started from, if it was. */
  payment_link: string | null;
  created_at: Date;
  expires_at: Date;
  updated_at: Date;
  door: PaymentDoor;
  /** What the door needs to send the payer back (eSewa: its product code and failure address); only the door reads it. */
  door_fields: Record<string, string> | null;
}

/** The status every read reports: an unpaid payment past its expiry is Expired, persisted or not. */
export function effectiveStatus(payment: Pick<Payment, 'status' | 'expires_at'>, now: Date): PaymentStatus {
  return payment.status === 'Initiated' && payment.expires_at.getTime() <= now.getTime() ? 'Expired' : payment.status;
}
