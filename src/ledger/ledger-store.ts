// The ledger's SQL: accounts, journals and postings. Nothing here decides what a movement means.
import type { Queryable } from '../db/db.js';
import type { Environment } from '../payments/payment-status.js';

export type AccountKind = 'wallet' | 'merchant' | 'fee' | 'funding';
export type JournalKind = 'payment' | 'refund' | 'topup';

export interface Posting {
  accountId: number;
  /** Positive into the account, negative out of it. */
  amount: number;
  /** A wallet account, whose running balance moves with the posting. */
  wallet?: boolean;
}

/** The account of an owner, created on first use; `created` when this call made it. */
export async function findOrCreateAccount(
  db: Queryable,
  environment: Environment,
  kind: AccountKind,
  ownerId: number,
): Promise<{ id: number; created: boolean }> {
  // Two first uses can race: the loser's insert does nothing and its snapshot may not yet show the
  // winner's row, so it asks again.
  for (;;) {
    const rows = await db.query<{ id: number; created: boolean }>(
      `WITH created AS (
         INSERT INTO ledger_accounts (environment, kind, owner_id, balance)
         VALUES ($1, $2::text, $3, CASE WHEN $2::text = 'wallet' THEN 0 END)
         ON CONFLICT (environment, kind, owner_id) DO NOTHING RETURNING id
       )
       SELECT id, true AS created FROM created UNION ALL
       SELECT id, false AS created FROM ledger_accounts WHERE environment = $1 AND kind = $2::text AND owner_id = $3`,
      [environment, kind, ownerId],
    );
    if (rows[0]) return rows[0];
  }
}

/**
 * Moves a wallet's running balance; a debit only if the money is there. The row lock this takes
 * serialises concurrent payments from one wallet. Returns false when the balance is too low.
 */
export async function moveWalletBalance(db: Queryable, accountId: number, delta: number): Promise<boolean> {
  const rows = await db.query(
    `UPDATE ledger_accounts SET balance = balance + $2 WHERE id = $1 AND kind = 'wallet' AND balance + $2 >= 0 RETURNING id`,
    [accountId, delta],
  );
  return rows.length === 1;
}

export async function insertJournal(
  db: Queryable,
  journal: { environment: Environment; kind: JournalKind; pidx: string | null; at: Date; postings: Posting[] },
): Promise<number> {
  const [row] = await db.query<{ id: number }>(
    `WITH journal AS (
       INSERT INTO journals (environment, kind, pidx, created_at) VALUES ($1, $2, $3, $4) RETURNING id
     ), posted AS (
       INSERT INTO postings (journal_id, account_id, amount)
       SELECT journal.id, p.account_id, p.amount
         FROM journal, unnest($5::bigint[], $6::bigint[]) AS p (account_id, amount)
     )
     SELECT id FROM journal`,
    [journal.environment, journal.kind, journal.pidx, journal.at, journal.postings.map((p) => p.accountId), journal.postings.map((p) => p.amount)],
  );
  return row.id;
}

export async function walletBalance(db: Queryable, accountId: number): Promise<number> {
  const [row] = await db.query<{ balance: number }>('SELECT balance FROM ledger_accounts WHERE id = $1', [accountId]);
  return row?.balance ?? 0;
}

/** A wallet's balance, its row locked until the transaction ends, so a decision taken on it still holds. */
export async function lockedWalletBalance(db: Queryable, accountId: number): Promise<number> {
  const [row] = await db.query<{ balance: number }>('SELECT balance FROM ledger_accounts WHERE id = $1 FOR UPDATE', [accountId]);
  return row?.balance ?? 0;
}

/** A derived balance: the sum of the account's postings. */
export async function postedBalance(db: Queryable, accountId: number): Promise<number> {
  const [row] = await db.query<{ balance: number }>('SELECT coalesce(sum(amount), 0) AS balance FROM postings WHERE account_id = $1', [accountId]);
  return row.balance;
}
