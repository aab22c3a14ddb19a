// The SQL of the operators' view of payouts: every merchant's payouts in one state, with the
// merchant's name, and what the next export to the bank would take.
import type { Queryable } from '../db/db.js';
import type { Environment } from '../environment.js';
import type { Payout, PayoutState } from './payout.js';
import { PAYOUT_COLUMNS } from './payout-store.js';

export type OperatorPayout = Payout & { merchant_idx: string; merchant_name: string };

const withMerchant = (inner: string) =>
  `SELECT p.*, m.idx AS merchant_idx, m.name AS merchant_name FROM (${inner}) p JOIN merchants m ON m.id = p.merchant_id`;

/** The payouts in `state`: those waiting oldest first (the order to work them), the finished newest first. */
export async function listPayoutsInState(db: Queryable, options: { environment: Environment; state: PayoutState; limit: number }): Promise<OperatorPayout[]> {
  const order = options.state === 'Requested' || options.state === 'Processing' ? 'ASC' : 'DESC';
  return db.query<OperatorPayout>(
    `${withMerchant(`SELECT ${PAYOUT_COLUMNS} FROM payouts WHERE environment = $1 AND state = $2 ORDER BY id ${order} LIMIT $3`)} ORDER BY p.id ${order}`,
    [options.environment, options.state, options.limit],
  );
}

export async function findOperatorPayout(db: Queryable, idx: string): Promise<OperatorPayout | undefined> {
  if (idx.includes('\u0000')) return undefined;
  const [row] = await db.query<OperatorPayout>(withMerchant(`SELECT ${PAYOUT_COLUMNS} FROM payouts WHERE idx = $1`), [idx]);
  return row;
}

/** The live payouts an export would take now. */
export async function requestedTotals(db: Queryable, environment: Environment): Promise<{ count: number; amount: number }> {
  const [row] = await db.query<{ count: number; amount: number }>(
    `SELECT count(*)::bigint AS count, coalesce(sum(amount), 0) AS amount FROM payouts WHERE environment = $1 AND state = 'Requested'`,
    [environment],
  );
  return row;
}
