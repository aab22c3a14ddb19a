// The SQL the NPI payout run reads and writes of payouts: the Requested ones, and why one waits.
import type { Queryable } from '../db/db.js';
import { qualified } from '../db/statement.js';
import type { Environment } from '../environment.js';
import type { Payout } from './payout.js';
import { PAYOUT_COLUMNS } from './payout-store.js';

const requested = `SELECT ${qualified('p', PAYOUT_COLUMNS)}, m.name AS merchant_name
   FROM payouts p JOIN merchants m ON m.id = p.merchant_id
  WHERE p.environment = $1 AND p.state = 'Requested' ORDER BY p.id LIMIT $2`;

/** Requested payouts of `environment` with their merchant's name, oldest first, locked (skipping those another instance holds). */
export async function lockRequestedPayouts(tx: Queryable, environment: Environment, limit: number): Promise<(Payout & { merchant_name: string })[]> {
  return tx.query(`${requested} FOR UPDATE OF p SKIP LOCKED`, [environment, limit]);
}

/** The same, read only (whose accounts to ask NPI about). */
export async function listRequestedPayouts(db: Queryable, environment: Environment, limit: number): Promise<(Payout & { merchant_name: string })[]> {
  return db.query(requested, [environment, limit]);
}

export async function setWaitingReason(tx: Queryable, payoutId: number, reason: string, now: Date): Promise<void> {
  await tx.query(`UPDATE payouts SET waiting_reason = $2, updated_at = $3 WHERE id = $1 AND state = 'Requested'`, [payoutId, reason, now]);
}
