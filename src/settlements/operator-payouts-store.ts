// The SQL of the operators' view of payouts: every merchant's payouts in one state, with the
// merchant's name, and what the next export to the bank would take.
import type { Queryable } from '../db/db.js';
import type { Environment } from '../environment.js';
import type { Payout, PayoutState } from './payout.js';
import { PAYOUT_COLUMNS } from './payout-store.js';

export type OperatorPayout = Payout & { merchant_idx: string; merchant_name: string };

const withMerchant = (inner: string) =>
  `SELECT p.*, m.idx AS merchant_idx, m.name AS merchant_name FROM (${inner}) p JOIN merchants m ON m.id = p.merchant_id`;

/**
 * The payouts in `state`: those waiting oldest first (the order to work them), the finished newest
 * first; `after` (an id) continues a list of waiting ones page by page.
 */
export async function listPayoutsInState(db: Queryable, options: { environment: Environment; state: PayoutState; limit: number; after?: number }): Promise<OperatorPayout[]> {
  const order = options.state === 'Requested' || options.state === 'Processing' ? 'ASC' : 'DESC';
  return db.query<OperatorPayout>(
    `${withMerchant(`SELECT ${PAYOUT_COLUMNS} FROM payouts WHERE environment = $1 AND state = $2 AND id > $4 ORDER BY id ${order} LIMIT $3`)} ORDER BY p.id ${order}`,
    [options.environment, options.state, options.limit, options.after ?? 0],
  );
}

export async function findOperatorPayout(db: Queryable, idx: string): Promise<OperatorPayout | undefined> {
  if (idx.includes('\u0000')) return undefined;
  const [row] = await db.query<OperatorPayout>(withMerchant(`SELECT ${PAYOUT_COLUMNS} FROM payouts WHERE idx = $1`), [idx]);
  return row;
}

export interface WaitingPayouts {
  /** What the next export to the bank takes. */
  requested: { count: number; amount: number };
  /** Sent to the bank, waiting to be marked Paid or Failed. */
  processing: { count: number; amount: number };
}

export async function waitingPayouts(db: Queryable, environment: Environment): Promise<WaitingPayouts> {
  const rows = await db.query<{ state: PayoutState; count: number; amount: number }>(
    `SELECT state, count(*)::bigint AS count, coalesce(sum(amount), 0) AS amount FROM payouts
      WHERE environment = $1 AND state IN ('Requested', 'Processing') GROUP BY state`,
    [environment],
  );
  const of = (state: PayoutState) => {
    const row = rows.find((r) => r.state === state);
    return { count: row?.count ?? 0, amount: row?.amount ?? 0 };
  };
  return { requested: of('Requested'), processing: of('Processing') };
}
