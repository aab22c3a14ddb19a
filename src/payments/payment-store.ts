import { batchedPerStore } from '../db/batcher.js';
import type { Db, Queryable } from '../db/db.js';
import type { Environment } from './payment-status.js';
import type { Payment } from './payment.js';

/** The columns of a `Payment`, named: statements are prepared, and `*` would change with the table. */
export const paymentColumns = `pidx, merchant_id, environment, purchase_order_id, purchase_order_name, amount, fee, return_url, website_url,
  customer_info, amount_breakdown, product_details, merchant_fields, status, transaction_id, payer_mobile, refunded_amount,
  created_at, expires_at, updated_at`;

export type NewPayment = Omit<Payment, 'status' | 'transaction_id' | 'payer_mobile' | 'refunded_amount' | 'updated_at'>;

export async function insertPayment(db: Queryable, payment: NewPayment): Promise<void> {
  await db.query(
    // No event row: the payment's timeline starts at its created_at.
    `INSERT INTO payments (pidx, merchant_id, environment, purchase_order_id, purchase_order_name, amount, fee,
       return_url, website_url, customer_info, amount_breakdown, product_details, merchant_fields,
       status, created_at, expires_at, updated_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, 'Initiated', $14, $15, $14)`,
    [
      payment.pidx,
      payment.merchant_id,
      payment.environment,
      payment.purchase_order_id,
      payment.purchase_order_name,
      payment.amount,
      payment.fee,
      payment.return_url,
      payment.website_url,
      json(payment.customer_info),
      json(payment.amount_breakdown),
      json(payment.product_details),
      JSON.stringify(payment.merchant_fields),
      payment.created_at,
      payment.expires_at,
    ],
  );
}

const json = (value: unknown) => (value === null || value === undefined ? null : JSON.stringify(value));

export async function findPayment(db: Queryable, pidx: string): Promise<Payment | undefined> {
  const rows = await db.query<Payment>(`SELECT ${paymentColumns} FROM payments WHERE pidx = $1`, [pidx]);
  return rows[0];
}

/**
 * A payment only if it belongs to this merchant and environment: anything else is "not found". Read
 * by the primary key alone, so no plan can walk the merchant's payments instead.
 */
export async function findMerchantPayment(db: Queryable, pidx: string, merchantId: number, environment: Environment): Promise<Payment | undefined> {
  const payment = await findPayment(db, pidx);
  return payment && ownedBy(payment, merchantId, environment) ? payment : undefined;
}

const ownedBy = (payment: Pick<Payment, 'merchant_id' | 'environment'>, merchantId: number, environment: Environment) =>
  payment.merchant_id === merchantId && payment.environment === environment;

export type PaymentStatusRow = Pick<Payment, 'pidx' | 'amount' | 'fee' | 'status' | 'transaction_id' | 'refunded_amount' | 'purchase_order_id' | 'expires_at'>;

/**
 * The lookup's one statement: by primary key, only the columns it answers, for every lookup that
 * arrived while earlier ones were being read (the bench runs it alone too).
 */
export const lookupStatement =
  'SELECT pidx, merchant_id, environment, amount, fee, status, transaction_id, refunded_amount, purchase_order_id, expires_at FROM payments WHERE pidx = ANY($1::text[])';

type StatusRow = PaymentStatusRow & Pick<Payment, 'merchant_id' | 'environment'>;

const readStatus = batchedPerStore(
  async (db: Db, pidxs: string[]): Promise<(StatusRow | undefined)[]> => {
    const rows = new Map((await db.query<StatusRow>(lookupStatement, [pidxs])).map((row) => [row.pidx, row]));
    return pidxs.map((pidx) => rows.get(pidx));
  },
  { max: 64, inFlight: 2 },
);

/** What a lookup answers of a merchant's payment: only the columns it shows. */
export async function findMerchantPaymentStatus(db: Db, pidx: string, merchantId: number, environment: Environment): Promise<PaymentStatusRow | undefined> {
  const row = await readStatus(db, pidx);
  return row && ownedBy(row, merchantId, environment) ? row : undefined;
}

/** A payment by its transaction id, only if it belongs to this merchant and environment. */
export async function findMerchantPaymentByTransactionId(db: Queryable, transactionId: string, merchantId: number, environment: Environment): Promise<Payment | undefined> {
  const rows = await db.query<Payment>(`SELECT ${paymentColumns} FROM payments WHERE transaction_id = $1 AND merchant_id = $2 AND environment = $3`, [
    transactionId,
    merchantId,
    environment,
  ]);
  return rows[0];
}
