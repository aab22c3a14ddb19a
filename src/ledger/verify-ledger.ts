// Checks every invariant of the ledger against the whole store. Each check is one
// query returning the offending rows; an empty result means the invariant holds.
import type { Queryable } from '../db/db.js';
import { providerNumbersForSql } from '../providers/registry.js';

export interface InvariantResult {
  invariant: string;
  holds: boolean;
  /** Up to 20 offending rows. */
  violations: Record<string, unknown>[];
}

const checks: { invariant: string; sql: string; params?: () => unknown[] }[] = [
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
    // The payer's side is a wallet, or a provider's receivable and the fee it keeps.
    sql: `SELECT pay.pidx, pay.amount, pay.fee, sum(CASE WHEN a.kind IN ('wallet', 'receivable', 'provider_fee') THEN -p.amount ELSE 0 END) AS paid,
                 sum(CASE WHEN a.kind = 'merchant' AND a.owner_id = pay.merchant_id THEN p.amount ELSE 0 END) AS to_merchant,
                 sum(CASE WHEN a.kind = 'fee' THEN p.amount ELSE 0 END) AS to_fee
            FROM journals j JOIN payments pay ON pay.pidx = j.pidx
            JOIN postings p ON p.journal_id = j.id JOIN ledger_accounts a ON a.id = p.account_id
           WHERE j.kind = 'payment'
           GROUP BY pay.pidx, pay.amount, pay.fee, pay.merchant_id
          HAVING sum(CASE WHEN a.kind IN ('wallet', 'receivable', 'provider_fee') THEN -p.amount ELSE 0 END) <> pay.amount
              OR sum(CASE WHEN a.kind = 'merchant' AND a.owner_id = pay.merchant_id THEN p.amount ELSE 0 END) <> pay.amount - pay.fee
              OR sum(CASE WHEN a.kind = 'fee' THEN p.amount ELSE 0 END) <> pay.fee`,
  },
  {
    invariant: 'refunds never exceed the amount paid, and match the refunded amount',
    sql: `SELECT pay.pidx, pay.amount, pay.refunded_amount, coalesce(r.refunded, 0) AS journaled
            FROM payments pay
            LEFT JOIN (SELECT j.pidx, sum(p.amount) AS refunded
                         FROM journals j JOIN postings p ON p.journal_id = j.id JOIN ledger_accounts a ON a.id = p.account_id
                        WHERE j.kind = 'refund' AND a.kind IN ('wallet', 'refund_due') GROUP BY j.pidx) r ON r.pidx = pay.pidx
           WHERE coalesce(r.refunded, 0) <> pay.refunded_amount OR pay.refunded_amount > pay.amount
              OR (pay.refunded_amount > 0 AND pay.status NOT IN ('Partially refunded', 'Refunded'))`,
  },
  {
    invariant: 'each transaction record matches its payment',
    // A record of a payment that does not exist is reported with a null status.
    sql: `SELECT t.idx, t.state, pay.status FROM transactions t LEFT JOIN payments pay ON pay.pidx = t.pidx
           WHERE pay.pidx IS NULL OR (t.type <> 'Refund' AND (t.idx IS DISTINCT FROM pay.transaction_id OR t.amount <> pay.amount
              OR t.merchant_id <> pay.merchant_id OR t.environment <> pay.environment))`,
  },
  {
    invariant: 'payouts balance with their journals: requested, merchant to clearing; paid, clearing to bank; failed, clearing back',
    // One row per payout whose journals are not exactly those of its state, then payout journals without a payout.
    sql: `WITH moves AS (
            SELECT j.payout_id, j.kind, count(DISTINCT j.id) AS journals,
                   sum(CASE WHEN a.kind = 'merchant' AND a.owner_id = po.merchant_id THEN p.amount ELSE 0 END) AS to_merchant,
                   sum(CASE WHEN a.kind = 'clearing' THEN p.amount ELSE 0 END) AS to_clearing,
                   sum(CASE WHEN a.kind = 'bank' THEN p.amount ELSE 0 END) AS to_bank,
                   sum(CASE WHEN a.kind NOT IN ('merchant', 'clearing', 'bank') OR (a.kind = 'merchant' AND a.owner_id <> po.merchant_id) THEN abs(p.amount) ELSE 0 END) AS elsewhere
              FROM journals j JOIN payouts po ON po.id = j.payout_id
              JOIN postings p ON p.journal_id = j.id JOIN ledger_accounts a ON a.id = p.account_id
             GROUP BY j.payout_id, j.kind
          ), expected AS (
            SELECT po.id, po.idx, po.state, po.amount, k.kind, k.to_merchant, k.to_clearing, k.to_bank
              FROM payouts po CROSS JOIN LATERAL (VALUES
                ('payout', -po.amount, po.amount, 0::bigint),
                ('payout_paid', CASE WHEN po.state = 'Paid' THEN 0 END, CASE WHEN po.state = 'Paid' THEN -po.amount END, CASE WHEN po.state = 'Paid' THEN po.amount END),
                ('payout_failed', CASE WHEN po.state = 'Failed' THEN po.amount END, CASE WHEN po.state = 'Failed' THEN -po.amount END, CASE WHEN po.state = 'Failed' THEN 0 END)
              ) AS k (kind, to_merchant, to_clearing, to_bank)
          )
          SELECT e.idx AS payout, e.state, e.kind AS journal, e.amount, m.journals, m.to_merchant, m.to_clearing, m.to_bank
            FROM expected e LEFT JOIN moves m ON m.payout_id = e.id AND m.kind = e.kind
           WHERE CASE WHEN e.to_merchant IS NULL THEN m.payout_id IS NOT NULL
                      ELSE m.payout_id IS NULL OR m.journals <> 1 OR m.elsewhere <> 0 OR m.to_merchant <> e.to_merchant
                           OR m.to_clearing <> e.to_clearing OR m.to_bank <> e.to_bank END
          UNION ALL
          SELECT NULL, NULL, j.kind, NULL, 1, NULL, NULL, NULL FROM journals j
           WHERE (j.kind IN ('payout', 'payout_paid', 'payout_failed')) <> (j.payout_id IS NOT NULL)`,
  },
  {
    invariant: 'payouts through NPI agree with what NPI said: Paid only on its paid word, Failed only on its failed word (or an operator’s), each for the payout’s own amount and ids',
    // A transfer decided by an operator says so in its detail; one NPI never took may fail unsent.
    sql: `SELECT po.idx AS payout, po.state, po.amount, t.status AS npi, t.amount AS npi_amount, t.instruction_id
            FROM payouts po JOIN npi_transfers t ON t.payout_id = po.id
           WHERE t.amount <> po.amount OR t.instruction_id <> po.idx OR t.environment <> po.environment OR po.state = 'Requested'
              OR (po.state = 'Paid') <> (t.status = 'paid')
              OR (po.state = 'Failed' AND t.status <> 'failed')
              OR (po.state = 'Processing' AND t.status NOT IN ('unsent', 'sent'))`,
  },
  {
    invariant: 'sandbox covers are test only: each moves from the test funding account to the merchant of the one refund it names, at most that refund',
    // One row per cover that is not so, then covers without their refund and refund references on other journals.
    sql: `WITH covers AS (
            SELECT j.id, j.environment, j.pidx, j.refund_record_id, t.id AS record_id, t.type, t.environment AS record_environment,
                   t.pidx AS record_pidx, t.amount AS refunded,
                   sum(CASE WHEN a.kind = 'funding' THEN -p.amount ELSE 0 END) AS from_funding,
                   sum(CASE WHEN a.kind = 'merchant' AND a.owner_id = t.merchant_id THEN p.amount ELSE 0 END) AS to_merchant,
                   sum(CASE WHEN a.kind = 'funding' OR (a.kind = 'merchant' AND a.owner_id = t.merchant_id) THEN 0 ELSE abs(p.amount) END) AS elsewhere,
                   count(*) OVER (PARTITION BY j.refund_record_id) AS covers_of_refund
              FROM journals j JOIN postings p ON p.journal_id = j.id JOIN ledger_accounts a ON a.id = p.account_id
              LEFT JOIN transactions t ON t.id = j.refund_record_id
             WHERE j.kind = 'sandbox_cover'
             GROUP BY j.id, j.environment, j.pidx, j.refund_record_id, t.id, t.type, t.environment, t.pidx, t.amount
          )
          SELECT id AS journal_id, environment, refund_record_id, type AS record_type, refunded, from_funding, to_merchant, covers_of_refund
            FROM covers
           WHERE environment <> 'test' OR record_id IS NULL OR type <> 'Refund' OR record_environment <> 'test' OR record_pidx IS DISTINCT FROM pidx
              OR to_merchant <= 0 OR from_funding <> to_merchant OR elsewhere <> 0 OR to_merchant > refunded OR covers_of_refund > 1
          UNION ALL
          SELECT j.id, j.environment, j.refund_record_id, NULL, NULL, NULL, NULL, NULL FROM journals j
           WHERE (j.kind = 'sandbox_cover') <> (j.refund_record_id IS NOT NULL)`,
  },
  {
    invariant:
      'provider attempts and their payments agree: a Paid attempt completed its payment (same amount, its transaction id), each payment paid through a provider has one, a Surplus attempt is owed back in full, refunds at providers match what merchants refunded',
    sql: `SELECT a.idx AS attempt, a.state, p.status, 'a Paid attempt whose payment it did not complete' AS problem
            FROM provider_attempts a JOIN payments p ON p.pidx = a.pidx
           WHERE a.state = 'Paid' AND (p.status NOT IN ('Completed', 'Partially refunded', 'Refunded') OR p.transaction_id IS DISTINCT FROM a.transaction_id OR p.amount <> a.amount)
          UNION ALL
          SELECT t.idx, NULL, p.status, 'a payment paid through a provider without its Paid attempt' FROM transactions t JOIN payments p ON p.pidx = t.pidx
           WHERE t.type NOT IN ('Wallet payment', 'Refund') AND p.status IN ('Completed', 'Partially refunded', 'Refunded')
             AND NOT EXISTS (SELECT FROM provider_attempts a WHERE a.transaction_id = t.idx AND a.state = 'Paid')
          UNION ALL
          SELECT a.idx, a.state, NULL, 'a Surplus attempt not owed back once, in full' FROM provider_attempts a
           WHERE a.state = 'Surplus' AND (SELECT count(*) FROM provider_refunds r WHERE r.attempt_id = a.id AND r.reason = 'surplus' AND r.amount = a.amount) <> 1
          UNION ALL
          SELECT a.idx, a.state, p.status, 'refunds at the provider differ from the payment''s refunded amount' FROM provider_attempts a JOIN payments p ON p.pidx = a.pidx
           WHERE a.state = 'Paid' AND p.refunded_amount <> (SELECT coalesce(sum(r.amount), 0) FROM provider_refunds r WHERE r.attempt_id = a.id AND r.reason = 'refund')
          UNION ALL
          SELECT r.idx, r.state, j.kind, 'a provider refund whose journals do not match its state' FROM provider_refunds r
            LEFT JOIN journals j ON j.provider_refund_id = r.id
           GROUP BY r.idx, r.state, r.reason, j.kind
          HAVING count(j.id) > 1 OR (j.kind IS NULL AND r.reason = 'surplus') OR (j.kind = 'provider_refund' AND r.state <> 'Refunded')
          UNION ALL
          SELECT r.idx, r.state, NULL, 'a refunded provider refund without its journal' FROM provider_refunds r
           WHERE r.state = 'Refunded' AND NOT EXISTS (SELECT FROM journals j WHERE j.provider_refund_id = r.id AND j.kind = 'provider_refund')
          UNION ALL
          SELECT j.id::text, NULL, j.kind, 'a provider journal without its refund' FROM journals j
           WHERE j.kind IN ('provider_surplus', 'provider_refund') AND NOT EXISTS (SELECT FROM provider_refunds r WHERE r.id = j.provider_refund_id)`,
  },
  {
    invariant:
      'money is conserved with providers: each provider owes what its Paid and Surplus attempts collected less its fees and the refunds made there, kept those fees, and owes back the refunds not yet made',
    // Ledger balances are negative for money that came in (receivable, provider_fee), positive for money owed out (refund_due).
    // A provider's accounts are those of its ledger number (the registry's); an account of no
    // provider's number is named by its number.
    sql: `WITH names AS (
            SELECT * FROM unnest($1::text[], $2::int[]) AS n (name, number)
          ), expected AS (
            SELECT environment, provider, kind, sum(amount) AS amount FROM (
              SELECT environment, provider, 'receivable' AS kind, -(amount - provider_fee) AS amount FROM provider_attempts WHERE state IN ('Paid', 'Surplus')
              UNION ALL SELECT environment, provider, 'provider_fee', -provider_fee FROM provider_attempts WHERE state IN ('Paid', 'Surplus')
              UNION ALL SELECT environment, provider, 'receivable', amount FROM provider_refunds WHERE state = 'Refunded'
              UNION ALL SELECT environment, provider, 'refund_due', amount FROM provider_refunds WHERE state = 'Queued'
            ) moves GROUP BY environment, provider, kind
          ), held AS (
            SELECT a.environment, coalesce((SELECT name FROM names WHERE number = a.owner_id), a.owner_id::text) AS provider, a.kind, coalesce(sum(p.amount), 0) AS amount
              FROM ledger_accounts a LEFT JOIN postings p ON p.account_id = a.id
             WHERE a.kind IN ('receivable', 'provider_fee', 'refund_due') GROUP BY a.environment, a.owner_id, a.kind
          )
          SELECT coalesce(e.environment, h.environment) AS environment, coalesce(e.provider, h.provider) AS provider, coalesce(e.kind, h.kind) AS account,
                 coalesce(e.amount, 0) AS expected, coalesce(h.amount, 0) AS held
            FROM expected e FULL JOIN held h ON h.environment = e.environment AND h.provider = e.provider AND h.kind = e.kind
           WHERE coalesce(e.amount, 0) <> coalesce(h.amount, 0)`,
    params: providerNumbersForSql,
  },
  {
    invariant: 'no merchant balance goes negative',
    sql: `SELECT a.environment, a.owner_id AS merchant_id, sum(p.amount) AS balance
            FROM ledger_accounts a JOIN postings p ON p.account_id = a.id
           WHERE a.kind = 'merchant' GROUP BY a.id, a.environment, a.owner_id HAVING sum(p.amount) < 0`,
  },
  {
    invariant:
      'money is conserved across payments, refunds and payouts: each merchant holds what it was paid less refunds and payouts (plus what the sandbox covered of its test refunds), clearing what is on its way, the bank what was paid out',
    // A cover counts for the merchant of the refund it names; the check above proves each cover sound.
    sql: `WITH expected AS (
            SELECT environment, merchant_id, sum(net) AS amount FROM (
              SELECT environment, merchant_id, amount - fee - refunded_amount AS net FROM payments
               WHERE status IN ('Completed', 'Partially refunded', 'Refunded')
              UNION ALL
              SELECT environment, merchant_id, -amount FROM payouts WHERE state <> 'Failed'
              UNION ALL
              SELECT t.environment, t.merchant_id, p.amount FROM journals j JOIN transactions t ON t.id = j.refund_record_id
                JOIN postings p ON p.journal_id = j.id JOIN ledger_accounts a ON a.id = p.account_id AND a.kind = 'merchant'
               WHERE j.kind = 'sandbox_cover'
            ) moves GROUP BY environment, merchant_id
          ), held AS (
            SELECT a.environment, a.owner_id AS merchant_id, sum(p.amount) AS amount
              FROM ledger_accounts a JOIN postings p ON p.account_id = a.id
             WHERE a.kind = 'merchant' GROUP BY a.environment, a.owner_id
          ), service AS (
            SELECT a.environment, a.kind, coalesce(sum(p.amount), 0) AS amount
              FROM ledger_accounts a LEFT JOIN postings p ON p.account_id = a.id
             WHERE a.kind IN ('clearing', 'bank') GROUP BY a.environment, a.kind
          )
          SELECT 'merchant' AS account, coalesce(e.environment, h.environment) AS environment, coalesce(e.merchant_id, h.merchant_id) AS merchant_id,
                 coalesce(e.amount, 0) AS expected, coalesce(h.amount, 0) AS held
            FROM expected e FULL JOIN held h ON h.environment = e.environment AND h.merchant_id = e.merchant_id
           WHERE coalesce(e.amount, 0) <> coalesce(h.amount, 0)
          UNION ALL
          SELECT s.kind, s.environment, NULL, x.expected, s.amount FROM service s
            CROSS JOIN LATERAL (SELECT coalesce(sum(CASE WHEN s.kind = 'clearing' AND po.state IN ('Requested', 'Processing') THEN po.amount
                                                         WHEN s.kind = 'bank' AND po.state = 'Paid' THEN po.amount ELSE 0 END), 0) AS expected
                                  FROM payouts po WHERE po.environment = s.environment) x
           WHERE x.expected <> s.amount`,
  },
];

export async function verifyLedger(db: Queryable): Promise<InvariantResult[]> {
  const results: InvariantResult[] = [];
  for (const check of checks) {
    const rows = await db.query<Record<string, unknown>>(`${check.sql} LIMIT 20`, check.params?.());
    results.push({ invariant: check.invariant, holds: rows.length === 0, violations: rows });
  }
  return results;
}
