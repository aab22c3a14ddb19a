// The ledger's SQL: accounts, journals and postings. Nothing here decides what a movement means.
import { PgCode, violates, type Queryable } from '../db/db.js';
import type { Statement } from '../db/statement.js';
import type { Environment } from '../environment.js';

export type AccountKind = 'wallet' | 'merchant' | 'fee' | 'funding' | 'clearing' | 'bank' | 'receivable' | 'provider_fee' | 'refund_due';
/**
 * A payout has up to two journals: `payout` when requested, then `payout_paid` or `payout_failed`.
 * `sandbox_cover`: in test only, what a refund needed beyond the merchant's balance, from the sandbox.
 * `provider_surplus`: a second success at a provider, owed back to its payer; `provider_refund`: money
 * owed back to a payer, refunded at the provider (src/ledger/provider-journals.ts).
 */
export type JournalKind = 'payment' | 'refund' | 'topup' | 'payout' | 'payout_paid' | 'payout_failed' | 'sandbox_cover' | 'provider_surplus' | 'provider_refund';

export interface Posting {
  accountId: number;
  /** Positive into the account, negative out of it. */
  amount: number;
  /** A wallet account, whose running balance moves with the posting. */
  wallet?: boolean;
}

/** One journal to write: what moves, and the payment, payout or refund record it belongs to. */
export interface JournalInput {
  environment: Environment;
  kind: JournalKind;
  pidx: string | null;
  /** The payout a payout journal moves. */
  payoutId?: number;
  /** The refund's transaction record a sandbox cover is for. */
  refundRecordId?: number;
  /** The provider refund a provider_surplus or provider_refund journal belongs to. */
  providerRefundId?: number;
  at: Date;
  postings: Posting[];
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
 * A journal as parts of a statement. Wallet balances move first: the row lock serialises concurrent
 * payments from one wallet, and the CHECK on the balance refuses a debit the wallet cannot pay,
 * failing the whole statement (see `isShortWallet`).
 */
export function journalPart(journal: JournalInput): (s: Statement) => void {
  return (s) => {
    // In account order, so two journals never wait on each other in a cycle.
    const wallets = journal.postings.filter((p) => p.wallet).sort((a, b) => a.accountId - b.accountId);
    if (wallets.length > 0) {
      s.with(
        'wallet_moves',
        `UPDATE ledger_accounts a SET balance = a.balance + m.amount
           FROM unnest(${s.param(wallets.map((p) => p.accountId))}::bigint[], ${s.param(wallets.map((p) => p.amount))}::bigint[]) AS m (account_id, amount)
          WHERE a.id = m.account_id AND a.kind = 'wallet'`,
      );
    }
    // payout_id and refund_record_id only when there is one: migration 003's top-ups run before the columns exist.
    const columns: [string, unknown][] = [
      ['environment', journal.environment],
      ['kind', journal.kind],
      ['pidx', journal.pidx],
      ...(journal.payoutId === undefined ? [] : [['payout_id', journal.payoutId] as [string, unknown]]),
      ...(journal.refundRecordId === undefined ? [] : [['refund_record_id', journal.refundRecordId] as [string, unknown]]),
      ...(journal.providerRefundId === undefined ? [] : [['provider_refund_id', journal.providerRefundId] as [string, unknown]]),
      ['created_at', journal.at],
    ];
    s.with('journal', `INSERT INTO journals (${columns.map(([name]) => name).join(', ')}) VALUES (${columns.map(([, value]) => s.param(value)).join(', ')}) RETURNING id`);
    s.with(
      'posted',
      `INSERT INTO postings (journal_id, account_id, amount)
       SELECT journal.id, p.account_id, p.amount
         FROM journal, unnest(${s.param(journal.postings.map((p) => p.accountId))}::bigint[], ${s.param(journal.postings.map((p) => p.amount))}::bigint[]) AS p (account_id, amount)`,
    );
  };
}

/** The CHECK on wallet balances refused a statement: a wallet it debited is short. */
export function isShortWallet(error: unknown): boolean {
  return violates(error, PgCode.checkViolation, 'ledger_accounts_balance_check');
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

export interface AccountPosting {
  posting_id: number;
  amount: number;
  kind: JournalKind;
  pidx: string | null;
  created_at: Date;
}

/** An account's postings with their journals, newest first (index postings_account): a wallet's history. */
export async function listAccountPostings(db: Queryable, accountId: number, limit: number): Promise<AccountPosting[]> {
  return db.query<AccountPosting>(
    `SELECT p.id AS posting_id, p.amount, j.kind, j.pidx, j.created_at
       FROM postings p JOIN journals j ON j.id = p.journal_id
      WHERE p.account_id = $1 ORDER BY p.id DESC LIMIT $2`,
    [accountId, limit],
  );
}
