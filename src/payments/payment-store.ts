import { batchedPerStore } from '../db/batcher.js';
import { PgCode, violates, type Db, type Queryable } from '../db/db.js';
import type { Environment } from '../environment.js';
import type { Payment, PaymentDoor } from './payment.js';
import type { PaymentEvent } from './payment-timeline.js';

/** The columns of a `Payment`, named: statements are prepared, and `*` would change with the table. */
export const paymentColumns = `pidx, merchant_id, environment, purchase_order_id, purchase_order_name, amount, fee, return_url, website_url,
  customer_info, amount_breakdown, product_details, merchant_fields, status, transaction_id, payer_mobile, refunded_amount,
  payment_link, created_at, expires_at, updated_at, door, door_fields`;

export type NewPayment = Omit<Payment, 'status' | 'transaction_id' | 'payer_mobile' | 'refunded_amount' | 'updated_at'>;

const insertStatement = (onConflict: string) =>
  `INSERT INTO payments (pidx, merchant_id, environment, purchase_order_id, purchase_order_name, amount, fee,
     return_url, website_url, customer_info, amount_breakdown, product_details, merchant_fields,
     status, created_at, expires_at, updated_at, door, door_fields, payment_link)
   SELECT pidx, merchant_id, environment, purchase_order_id, purchase_order_name, amount, fee,
          return_url, website_url, customer_info::jsonb, amount_breakdown::jsonb, product_details::jsonb, merchant_fields::jsonb,
          'Initiated', created_at::timestamptz, expires_at::timestamptz, created_at::timestamptz, door, door_fields::jsonb, payment_link
     FROM unnest($1::text[], $2::bigint[], $3::text[], $4::text[], $5::text[], $6::bigint[], $7::bigint[], $8::text[], $9::text[],
                 $10::text[], $11::text[], $12::text[], $13::text[], $14::text[], $15::text[], $16::text[], $17::text[], $18::text[])
       AS p (pidx, merchant_id, environment, purchase_order_id, purchase_order_name, amount, fee, return_url, website_url,
             customer_info, amount_breakdown, product_details, merchant_fields, created_at, expires_at, door, door_fields, payment_link)
   ${onConflict}
   RETURNING pidx`;

const insertNew = insertStatement('');
const insertOnce = insertStatement(`ON CONFLICT (merchant_id, environment, door, purchase_order_id) WHERE door = 'esewa-v2' DO NOTHING`);

/**
 * Stores new `Initiated` payments in one statement: true for each stored, false for one whose door
 * already has a payment of its order (eSewa's v2 form: payments_door_order), which is left as it was.
 * No event row: a payment's timeline starts at its created_at.
 *
 * An order posted again is rare, and PostgreSQL's ON CONFLICT probes the door's index for every
 * eSewa row before inserting it (about a sixth of such a row's insert, 20,000 at a time): so the payments
 * are first inserted without it, and only when that statement meets an order already there (and so
 * stored nothing) are they inserted again with it. That second statement needs a store outside a
 * transaction, as the batcher's is: in a transaction the first one's error would end it.
 */
export async function insertPayments(db: Queryable, payments: NewPayment[]): Promise<boolean[]> {
  const columns = [
    payments.map((p) => p.pidx),
    payments.map((p) => p.merchant_id),
    payments.map((p) => p.environment),
    payments.map((p) => p.purchase_order_id),
    payments.map((p) => p.purchase_order_name),
    payments.map((p) => p.amount),
    payments.map((p) => p.fee),
    payments.map((p) => p.return_url),
    payments.map((p) => p.website_url),
    payments.map((p) => json(p.customer_info)),
    payments.map((p) => json(p.amount_breakdown)),
    payments.map((p) => json(p.product_details)),
    payments.map((p) => JSON.stringify(p.merchant_fields)),
    payments.map((p) => p.created_at.toISOString()),
    payments.map((p) => p.expires_at.toISOString()),
    payments.map((p) => p.door),
    payments.map((p) => json(p.door_fields)),
    payments.map((p) => p.payment_link),
  ];
  let stored: { pidx: string }[];
  try {
    stored = await db.query<{ pidx: string }>(insertNew, columns);
  } catch (error) {
    if (!violates(error, PgCode.uniqueViolation, 'payments_door_order')) throw error;
    stored = await db.query<{ pidx: string }>(insertOnce, columns);
  }
  const pidxs = new Set(stored.map((row) => row.pidx));
  return payments.map((p) => pidxs.has(p.pidx));
}

/** Stores a new `Initiated` payment, in one statement with the other payments initiated meanwhile; false as insertPayments says. */
export const insertPayment = batchedPerStore(insertPayments);

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
  async (db: Queryable, pidxs: string[]): Promise<(StatusRow | undefined)[]> => {
    const rows = new Map((await db.query<StatusRow>(lookupStatement, [pidxs])).map((row) => [row.pidx, row]));
    return pidxs.map((pidx) => rows.get(pidx));
  },
);

/** What a lookup answers of a merchant's payment: only the columns it shows. */
export async function findMerchantPaymentStatus(db: Db, pidx: string, merchantId: number, environment: Environment): Promise<PaymentStatusRow | undefined> {
  const row = await readStatus(db, pidx);
  return row && ownedBy(row, merchantId, environment) ? row : undefined;
}

export interface DoorOrder<D extends PaymentDoor = 'esewa-v2'> {
  merchantId: number;
  environment: Environment;
  door: D;
  purchaseOrderId: string;
}

/**
 * Reads of door orders: every one that arrived while earlier ones were being read, in one statement
 * of `columns` (of `p`, the payment). The `door = 'esewa-v2'` is the unique index's own condition, so
 * the planner reads that index.
 */
function doorOrderReader<T>(columns: string) {
  return batchedPerStore(async (db: Queryable, orders: DoorOrder[]): Promise<(T | undefined)[]> => {
    const rows = await db.query<T & { ord: number }>(
      `SELECT o.ord, ${columns}
         FROM unnest($1::bigint[], $2::text[], $3::text[], $4::text[]) WITH ORDINALITY AS o (merchant_id, environment, door, purchase_order_id, ord)
         JOIN payments p ON p.merchant_id = o.merchant_id AND p.environment = o.environment AND p.door = o.door
                        AND p.purchase_order_id = o.purchase_order_id AND p.door = 'esewa-v2'`,
      [orders.map((o) => o.merchantId), orders.map((o) => o.environment), orders.map((o) => o.door), orders.map((o) => o.purchaseOrderId)],
    );
    const found = new Map(rows.map(({ ord, ...row }) => [Number(ord), row as T]));
    return orders.map((_, i) => found.get(i + 1));
  });
}

const readDoorPayments = doorOrderReader<Payment>(paymentColumns.replace(/(\w+)/g, 'p.$1'));

/** What eSewa's status check answers of a door order's payment: only the columns it shows. */
export type DoorPaymentStatus = Pick<Payment, 'amount' | 'status' | 'expires_at' | 'transaction_id'> & { product_code: string };

const readDoorStatuses = doorOrderReader<DoorPaymentStatus>(`p.amount, p.status, p.expires_at, p.transaction_id, p.door_fields->>'product_code' AS product_code`);

/** The status of the payment eSewa's v2 transaction_uuid names for this merchant and environment. */
export function findDoorPaymentStatus(db: Db, order: DoorOrder): Promise<DoorPaymentStatus | undefined> {
  return readDoorStatuses(db, order);
}

/** The payment eSewa's v2 transaction_uuid names for this merchant and environment (payments_door_order). */
export function findDoorPayment(db: Db, order: DoorOrder): Promise<Payment | undefined> {
  return readDoorPayments(db, order);
}

/**
 * The payment of a door's order that holds or took the money, if one does: at most one of an order
 * can (payments_one_paid_per_order, whose condition this repeats so the planner reads that index).
 */
export async function findPaidDoorPayment(db: Queryable, order: DoorOrder<PaymentDoor>): Promise<Payment | undefined> {
  const rows = await db.query<Payment>(
    `SELECT ${paymentColumns} FROM payments
      WHERE merchant_id = $1 AND environment = $2 AND purchase_order_id = $3 AND door = $4
        AND status IN ('Pending', 'Completed', 'Partially refunded', 'Refunded')`,
    [order.merchantId, order.environment, order.purchaseOrderId, order.door],
  );
  return rows[0];
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

/** What happened to a payment, in order (index payment_events_pidx). */
export async function listPaymentEvents(db: Queryable, pidx: string): Promise<PaymentEvent[]> {
  return db.query<PaymentEvent>('SELECT occurred_at, event, detail FROM payment_events WHERE pidx = $1 ORDER BY id', [pidx]);
}
