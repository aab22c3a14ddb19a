// A merchant's balance in one environment: derived from the postings of its ledger account (merchant
// balances keep no running total, see migration 002). Read-only: no account is created by looking.
import type { Queryable } from '../db/db.js';
import type { Environment } from '../environment.js';

export async function merchantBalance(db: Queryable, options: { merchantId: number; environment: Environment }): Promise<number> {
  const [row] = await db.query<{ balance: number }>(
    `SELECT coalesce(sum(p.amount), 0) AS balance
       FROM ledger_accounts a JOIN postings p ON p.account_id = a.id
      WHERE a.environment = $1 AND a.kind = 'merchant' AND a.owner_id = $2`,
    [options.environment, options.merchantId],
  );
  return row.balance;
}
