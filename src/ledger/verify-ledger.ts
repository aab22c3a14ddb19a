// Checks every ledger invariant of contract section 6 against the whole store. Each check is one
// query returning the offending rows; an empty result means the invariant holds.
import type { Queryable } from '../db/db.js';

export interface InvariantResult {
  invariant: string;
  holds: boolean;
  /** Up to 20 offending rows. */
  violations: Record<string, unknown>[];
}

const checks: { invariant: string; sql: string }[] = [
  {
    invariant: 'every journal sums to zero',
    // Postings whose journal does not exist are money without a journal: they are reported too.
    sql: `SELECT j.id AS journal_id, coalesce(sum(p.amount), 0) AS sum, count(p.id) AS postings
            FROM journals j LEFT JOIN postings p ON p.journal_id = j.id
           GROUP BY j.id HAVING coalesce(sum(p.amount), 0) <> 0 OR count(p.id) < 2
          UNION ALL
          SELECT p.journal_id, sum(p.amount), count(p.id) FROM postings p
           WHERE NOT EXISTS (SELECT FROM journals j WHERE j.id = p.journal_id) GROUP BY p.journal_id`,
  },
  {
    invariant: 'each wallet balance equals the sum of its postings',
    sql: `SELECT a.id AS account_id, a.balance, coalesce(sum(p.amount), 0) AS posted
            FROM ledger_accounts a LEFT JOIN postings p ON p.account_id = a.id
           WHERE a.kind = 'wallet' GROUP BY a.id HAVING a.balance <> coalesce(sum(p.amount), 0)`,
  },
  {
    invariant: 'no wallet goes negative',
    sql: `SELECT id AS account_id, balance FROM ledger_accounts WHERE kind = 'wallet' AND balance < 0`,
  },
  {
    invariant: 'test and live ledgers are separate',
    sql: `SELECT j.id AS journal_id, j.environment, a.environment AS account_environment
            FROM journals j JOIN postings p ON p.journal_id = j.id JOIN ledger_accounts a ON a.id = p.account_id
           WHERE a.environment <> j.environment
          UNION ALL
          SELECT j.id, j.environment, pay.environment FROM journals j JOIN payments pay ON pay.pidx = j.pidx
           WHERE pay.environment <> j.environment`,
  },
  {
    invariant: 'each Completed payment has exactly one payment journal, and no other payment has one',
    // A journal naming a payment that does not exist is reported with a null status.
    sql: `SELECT pay.pidx, pay.status, count(j.id) AS payment_journals
            FROM payments pay LEFT JOIN journals j ON j.pidx = pay.pidx AND j.kind = 'payment'
           GROUP BY pay.pidx, pay.status
          HAVING count(j.id) <> CASE WHEN pay.status IN ('Completed', 'Partially refunded', 'Refunded') THEN 1 ELSE 0 END
          UNION ALL
          SELECT j.pidx, NULL, count(j.id) FROM journals j
           WHERE j.pidx IS NOT NULL AND NOT EXISTS (SELECT FROM payments pay WHERE pay.pidx = j.pidx) GROUP BY j.pidx`,
  },
  {
    invariant: 'each payment journal moves the payment amount: payer pays it, merchant and fee account share it',
    sql: `SELECT pay.pidx, pay.amount, pay.fee, sum(CASE WHEN a.kind = 'wallet' THEN -p.amount ELSE 0 END) AS paid,
                 sum(CASE WHEN a.kind = 'merchant' AND a.owner_id = pay.merchant_id THEN p.amount ELSE 0 END) AS to_merchant,
                 sum(CASE WHEN a.kind = 'fee' THEN p.amount ELSE 0 END) AS to_fee
            FROM journals j JOIN payments pay ON pay.pidx = j.pidx
            JOIN postings p ON p.journal_id = j.id JOIN ledger_accounts a ON a.id = p.account_id
           WHERE j.kind = 'payment'
           GROUP BY pay.pidx, pay.amount, pay.fee, pay.merchant_id
          HAVING sum(CASE WHEN a.kind = 'wallet' THEN -p.amount ELSE 0 END) <> pay.amount
              OR sum(CASE WHEN a.kind = 'merchant' AND a.owner_id = pay.merchant_id THEN p.amount ELSE 0 END) <> pay.amount - pay.fee
              OR sum(CASE WHEN a.kind = 'fee' THEN p.amount ELSE 0 END) <> pay.fee`,
  },
  {
    invariant: 'refunds never exceed the amount paid, and match the refunded amount',
    sql: `SELECT pay.pidx, pay.amount, pay.refunded_amount, coalesce(r.refunded, 0) AS journaled
            FROM payments pay
            LEFT JOIN (SELECT j.pidx, sum(p.amount) AS refunded
                         FROM journals j JOIN postings p ON p.journal_id = j.id JOIN ledger_accounts a ON a.id = p.account_id
                        WHERE j.kind = 'refund' AND a.kind = 'wallet' GROUP BY j.pidx) r ON r.pidx = pay.pidx
           WHERE coalesce(r.refunded, 0) <> pay.refunded_amount OR pay.refunded_amount > pay.amount
              OR (pay.refunded_amount > 0 AND pay.status NOT IN ('Partially refunded', 'Refunded'))`,
  },
  {
    invariant: 'each transaction record matches its payment',
    // A record of a payment that does not exist is reported with a null status.
    sql: `SELECT t.idx, t.state, pay.status FROM transactions t LEFT JOIN payments pay ON pay.pidx = t.pidx
           WHERE pay.pidx IS NULL OR (t.type = 'Wallet payment' AND (t.idx IS DISTINCT FROM pay.transaction_id OR t.amount <> pay.amount
              OR t.merchant_id <> pay.merchant_id OR t.environment <> pay.environment))`,
  },
];

export async function verifyLedger(db: Queryable): Promise<InvariantResult[]> {
  const results: InvariantResult[] = [];
  for (const check of checks) {
    const rows = await db.query<Record<string, unknown>>(`${check.sql} LIMIT 20`);
    results.push({ invariant: check.invariant, holds: rows.length === 0, violations: rows });
  }
  return results;
}
