// The SQL the NPI payout run reads and writes of payouts and their accounts' checks.
import type { Queryable } from '../db/db.js';
import type { Environment } from '../environment.js';
import type { AccountCheckRow } from './account-check-store.js';
import type { Payout } from './payout.js';
import { PAYOUT_COLUMNS } from './payout-store.js';

/** Requested payouts of `environment` with their merchant's name, oldest first, locked (skipping those another instance holds). */
export async function lockRequestedPayouts(tx: Queryable, environment: Environment, limit: number): Promise<(Payout & { merchant_name: string })[]> {
  return tx.query(
    `SELECT ${PAYOUT_COLUMNS.split(',').map((c) => `p.${c.trim()}`).join(', ')}, m.name AS merchant_name
       FROM payouts p JOIN merchants m ON m.id = p.merchant_id
      WHERE p.environment = $1 AND p.state = 'Requested' ORDER BY p.id LIMIT $2 FOR UPDATE OF p SKIP LOCKED`,
    [environment, limit],
  );
}

/** The account checks of these merchants in `environment`, by `merchant|bank|number|name`. */
export async function checksOfMerchants(db: Queryable, environment: Environment, merchantIds: number[]): Promise<Map<string, AccountCheckRow>> {
  const rows =
    merchantIds.length === 0
      ? []
      : await db.query<AccountCheckRow>(
          `SELECT id, merchant_id, environment, bank_code, account_number, account_name, outcome, score, message, branch_code, checked_at, approved_by, approved_at
             FROM account_checks WHERE environment = $1 AND merchant_id = ANY($2::bigint[])`,
          [environment, merchantIds],
        );
  return new Map(rows.map((r) => [`${r.merchant_id}|${r.bank_code}|${r.account_number}|${r.account_name}`, r]));
}

export async function setWaitingReason(tx: Queryable, payoutId: number, reason: string, now: Date): Promise<void> {
  await tx.query(`UPDATE payouts SET waiting_reason = $2, updated_at = $3 WHERE id = $1 AND state = 'Requested'`, [payoutId, reason, now]);
}
