// What a step of the hosted page reads, in one statement: the payment, the name of the merchant it
// pays, and the payer's attempt and wallet when the step names an attempt. Steps that arrive while
// earlier reads are in flight are read together, in one statement (`batcher`).
import { batchedPerStore } from '../db/batcher.js';
import type { Db, Queryable } from '../db/db.js';
import type { Merchant } from '../merchants/merchant.js';
import { attemptColumns, type PaymentAttempt } from '../payments/attempt-store.js';
import type { Payment } from '../payments/payment.js';
import { paymentColumns } from '../payments/payment-store.js';
import type { Wallet } from '../wallets/wallet.js';
import { walletColumns } from '../wallets/wallet-store.js';

export interface Checkout {
  payment: Payment;
  /** The status says whether a live payment may be paid (approval-state-machine's liveRefusal). */
  merchant: Pick<Merchant, 'name' | 'status'>;
  /** The attempt the step names, if it is one of this payment's. */
  attempt?: PaymentAttempt;
  /** The attempt's wallet. */
  wallet?: Wallet;
}

const columns = (alias: string, list: string, prefix = '') =>
  list.split(',').map((c) => `${alias}.${c.trim()}${prefix && ` AS ${prefix}${c.trim()}`}`);

/** Takes the columns named `prefix…` out of `row`, without the prefix; undefined when the join found no row. */
function unprefixed<T>(row: Record<string, unknown>, prefix: string, key: string): T | undefined {
  const found = row[prefix + key] !== null;
  const picked: Record<string, unknown> = {};
  for (const name of Object.keys(row)) {
    if (name.startsWith(prefix)) {
      picked[name.slice(prefix.length)] = row[name];
      delete row[name];
    }
  }
  return found ? (picked as T) : undefined;
}

const sql = `SELECT i.ord, ${[
  ...columns('p', paymentColumns),
  'm.name AS merchant_name',
  'm.status AS merchant_status',
  ...columns('a', attemptColumns, 'attempt_'),
  ...columns('w', walletColumns, 'wallet_'),
].join(', ')}
  FROM unnest($1::text[], $2::text[]) WITH ORDINALITY AS i (pidx, token, ord)
  JOIN payments p ON p.pidx = i.pidx
  JOIN merchants m ON m.id = p.merchant_id
  LEFT JOIN payment_attempts a ON a.token = i.token AND a.pidx = p.pidx
  LEFT JOIN wallets w ON w.id = a.wallet_id`;

interface Step {
  pidx: string;
  attemptToken?: string;
}

async function readCheckouts(db: Queryable, steps: Step[]): Promise<(Checkout | undefined)[]> {
  const rows = await db.query<Record<string, unknown>>(sql, [steps.map((s) => s.pidx), steps.map((s) => s.attemptToken ?? null)]);
  const found = new Map(rows.map((row) => [Number(row.ord), checkoutOf(row)]));
  return steps.map((_, i) => found.get(i + 1));
}

function checkoutOf(row: Record<string, unknown>): Checkout {
  delete row.ord;
  const attempt = unprefixed<PaymentAttempt>(row, 'attempt_', 'token');
  const wallet = unprefixed<Wallet>(row, 'wallet_', 'id');
  const merchant = { name: row.merchant_name as string, status: row.merchant_status as Merchant['status'] };
  delete row.merchant_name;
  delete row.merchant_status;
  return { payment: row as unknown as Payment, merchant, attempt, wallet };
}

const readCheckout = batchedPerStore(readCheckouts);

export function findCheckout(db: Db, pidx: string, attemptToken?: string): Promise<Checkout | undefined> {
  return readCheckout(db, { pidx, attemptToken });
}
