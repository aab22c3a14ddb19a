import type { AppContext } from '../context.js';
import type { Queryable } from '../db/db.js';
import type { ApiCaller } from '../merchants/merchant.js';
import { feeFor } from './fee.js';
import type { Payment, PaymentDoor } from './payment.js';
import { findDoorPayment, insertPayment, insertPayments, type NewPayment } from './payment-store.js';
import { paymentUrl } from './payment-url.js';

export interface InitiateInput {
  return_url: string;
  website_url: string;
  amount: number;
  purchase_order_id: string;
  purchase_order_name: string;
  customer_info?: Payment['customer_info'];
  amount_breakdown?: Payment['amount_breakdown'];
  product_details?: Payment['product_details'];
  [merchantField: `merchant_${string}`]: unknown;
}

export interface InitiateResult {
  pidx: string;
  payment_url: string;
  expires_at: Date;
  expires_in: number;
  merchant_fields: Record<string, unknown>;
}

/** Who initiates: the merchant and environment its credentials select (a secret key, an eSewa product code). */
export type Initiator = Pick<ApiCaller, 'merchant' | 'environment'>;

/** The door a payment is started through, and what that door needs to send the payer back. */
export interface DoorOrigin {
  door: PaymentDoor;
  fields: Record<string, string> | null;
}

const v2Door: DoorOrigin = { door: 'khalti-v2', fields: null };

function newPayment(ctx: AppContext, caller: Initiator, input: InitiateInput, origin: DoorOrigin, paymentLink: string | null = null): { payment: NewPayment; result: InitiateResult } {
  const now = ctx.clock.now();
  const ttl = ctx.config.paymentTtlSeconds;
  const merchantFields = Object.fromEntries(Object.entries(input).filter(([key]) => key.startsWith('merchant_')));
  const pidx = ctx.ids.random(16);
  const expiresAt = new Date(now.getTime() + ttl * 1000);
  const payment = {
    pidx,
    merchant_id: caller.merchant.id,
    environment: caller.environment,
    purchase_order_id: input.purchase_order_id,
    purchase_order_name: input.purchase_order_name,
    amount: input.amount,
    fee: feeFor(input.amount, caller.merchant.fee_bps),
    return_url: input.return_url,
    website_url: input.website_url,
    customer_info: input.customer_info ?? null,
    amount_breakdown: input.amount_breakdown ?? null,
    product_details: input.product_details ?? null,
    merchant_fields: merchantFields,
    payment_link: paymentLink,
    created_at: now,
    expires_at: expiresAt,
    door: origin.door,
    door_fields: origin.fields,
  };
  return { payment, result: { pidx, payment_url: paymentUrl(ctx.config.publicUrl, pidx), expires_at: expiresAt, expires_in: ttl, merchant_fields: merchantFields } };
}

/**
 * Stores a new `Initiated` payment; it is committed before the caller answers. With `answer` (an
 * Idempotency-Key's answer to save), the payment and that answer are written in one transaction of
 * their own instead of the shared batch: a commit whose answer was lost with the primary is then
 * replayed to the retry with the key, never made a second time. `paymentLink`: the idx of the
 * payment link the payer started it from (through the v2 door: its callback goes to the link's receipt).
 */
export async function initiatePayment(
  ctx: AppContext,
  caller: Initiator,
  input: InitiateInput,
  answer?: (result: InitiateResult) => ((tx: Queryable) => Promise<void>) | undefined,
  paymentLink: string | null = null,
): Promise<InitiateResult> {
  const { payment, result } = newPayment(ctx, caller, input, v2Door, paymentLink);
  const save = answer?.(result);
  if (save) {
    await ctx.db.transaction(async (tx) => {
      await insertPayments(tx, [payment]);
      await save(tx);
    });
  } else {
    await insertPayment(ctx.db, payment);
  }
  return result;
}

/** For a door whose every post is a payment of its own (eSewa's v1 form): stores a new payment. */
export async function initiateDoorPayment(ctx: AppContext, caller: Initiator, input: InitiateInput, origin: DoorOrigin & { door: 'esewa-v1' }): Promise<InitiateResult> {
  const { payment, result } = newPayment(ctx, caller, input, origin);
  if (!(await insertPayment(ctx.db, payment))) throw new Error(`payment of order ${input.purchase_order_id} not stored`);
  return result;
}

/**
 * For a door whose order id names one payment (eSewa's signed transaction_uuid): stores a new
 * payment, or, when the merchant's door already has one of that order, leaves it as it was and
 * answers it, for the door to resume or refuse. Decided by the insert itself, so two posts of one
 * order at once make one payment.
 */
export async function initiateOnce(
  ctx: AppContext,
  caller: Initiator,
  input: InitiateInput,
  origin: DoorOrigin & { door: 'esewa-v2' },
): Promise<{ created: InitiateResult } | { existing: Payment }> {
  const { payment, result } = newPayment(ctx, caller, input, origin);
  if (await insertPayment(ctx.db, payment)) return { created: result };
  const existing = await findDoorPayment(ctx.db, { merchantId: caller.merchant.id, environment: caller.environment, door: origin.door, purchaseOrderId: input.purchase_order_id });
  if (!existing) throw new Error(`payment of order ${input.purchase_order_id} neither stored nor found`);
  return { existing };
}
