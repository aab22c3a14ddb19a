// A year of history for one merchant, written set-based in SQL: a million live payments, one every
// 30 seconds, 95% Completed, 4% held (Pending, record Confirmed), 1% canceled after the hold (User
// canceled, record Canceled), each with its transaction record. Every Completed payment gets its
// payment journal (payer −amount, merchant amount − fee, fee account fee) and every payer wallet a
// top-up journal and a running balance to match, so `bhuktani ledger verify` holds over the seed.
import pg from 'pg';
import { hashPassword } from '../src/people/password.js';
import { databaseUrl, pg as pgSettings } from './settings.js';

const PAYERS = 100;
/** What each seeded wallet keeps after all its payments. */
const LEFT_IN_WALLET = 10_000_000;

/** A session to seed through: a `pg` client's shape, which bench/backup.ts gives an embedded store (PGlite) too. */
export interface SeedSession {
  query<R = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<{ rows: R[]; rowCount: number | null }>;
}

/**
 * `target`: the database to seed, the bench's service database unless another is named by its URL
 * (bench/backup.ts seeds the cluster's), or a session of the caller's, left open.
 */
export async function seedList(merchantId: number, rows: number, log: (line: string) => void, target: string | SeedSession = databaseUrl(pgSettings.serviceDb)): Promise<{ seconds: number }> {
  const started = performance.now();
  const own = typeof target === 'string' ? new pg.Client({ connectionString: target }) : undefined;
  await own?.connect();
  const client: SeedSession = own ? { query: async <R>(sql: string, params?: unknown[]) => own.query(sql, params) as Promise<pg.QueryResult & { rows: R[] }> } : (target as SeedSession);
  const step = async (what: string, sql: string, params: unknown[] = []) => {
    const t = performance.now();
    const result = await client.query(sql, params);
    log(`  seed: ${what} (${result.rowCount ?? 0} rows, ${((performance.now() - t) / 1000).toFixed(1)} s)`);
  };
  try {
    // The seed's own durability does not matter: a crash means a new run.
    await client.query('SET synchronous_commit = off');
    await client.query('SET maintenance_work_mem = \'256MB\'');
    // Made whole by construction (every row joins what it names), so PostgreSQL's per-row foreign-key
    // checks are skipped for this session, as a replica applying changes skips them (the seed took
    // 74 s instead of 128 s on the 2-core machine). The keys stay declared, and `bhuktani ledger
    // verify` checks the whole ledger after the run.
    await client.query('SET session_replication_role = replica');
    const mpinHash = await hashPassword('1111');
    const [{ fee_bps: feeBps }] = (await client.query<{ fee_bps: number }>('SELECT fee_bps FROM merchants WHERE id = $1', [merchantId])).rows;

    await client.query('BEGIN');
    await step(
      'payer wallets',
      `INSERT INTO wallets (idx, environment, mobile, name, mpin_hash, sandbox, created_at)
       SELECT 'seed-wallet-' || g, 'live', '97' || lpad(g::text, 8, '0'), 'Seed Payer ' || g, $1, false, now() - interval '400 days'
         FROM generate_series(0, $2 - 1) g`,
      [mpinHash, PAYERS],
    );
    await step(
      'ledger accounts',
      `INSERT INTO ledger_accounts (environment, kind, owner_id, balance)
       SELECT 'live', 'wallet', id, 0 FROM wallets WHERE idx LIKE 'seed-wallet-%'
       UNION ALL SELECT 'live', 'merchant', $1::bigint, NULL::bigint
       UNION ALL SELECT 'live', 'fee', 0, NULL
       UNION ALL SELECT 'live', 'funding', 0, NULL
       ON CONFLICT (environment, kind, owner_id) DO NOTHING`,
      [merchantId],
    );
    await client.query(
      `CREATE TEMP TABLE seed_payers ON COMMIT DROP AS
       SELECT (substr(w.idx, 13))::int AS n, w.id AS wallet_id, w.idx, w.mobile, w.name, a.id AS account_id
         FROM wallets w JOIN ledger_accounts a ON a.environment = 'live' AND a.kind = 'wallet' AND a.owner_id = w.id
        WHERE w.idx LIKE 'seed-wallet-%'`,
    );
    await client.query('CREATE UNIQUE INDEX ON seed_payers (n)');
    // g = 1 is the oldest; the newest is a few minutes ago. Status by g mod 100: 0–94 Completed,
    // 95–98 Pending, 99 User canceled; the payer by g / 7, so every payer has every status.
    // Amounts vary from Rs. 10 to Rs. 1,009.99.
    await step(
      'payments',
      `INSERT INTO payments (pidx, merchant_id, environment, purchase_order_id, purchase_order_name, amount, fee,
         return_url, website_url, customer_info, merchant_fields, status, transaction_id, payer_mobile,
         refunded_amount, created_at, expires_at, updated_at)
       SELECT 'seed' || lpad(g::text, 18, '0'), $1, 'live', 'seed-order-' || g, 'Seeded order ' || g, a.amount,
              (a.amount * $3 + 5000) / 10000,
              'https://shop.example.com/payment/return', 'https://shop.example.com', NULL, '{}',
              CASE WHEN g % 100 < 95 THEN 'Completed' WHEN g % 100 < 99 THEN 'Pending' ELSE 'User canceled' END,
              'seedtx' || lpad(g::text, 16, '0'), p.mobile, 0, a.at, a.at + interval '1 hour', a.at + interval '20 seconds'
         FROM generate_series(1, $2::bigint) g
         CROSS JOIN LATERAL (SELECT 1000 + (g * 7919) % 100000 AS amount,
                                    date_trunc('second', now()) - interval '5 minutes' - ($2 - g) * interval '30 seconds' AS at) a
         JOIN seed_payers p ON p.n = (g / 7) % ${PAYERS}`,
      [merchantId, rows, feeBps],
    );
    await step(
      'transaction records',
      `INSERT INTO transactions (idx, merchant_id, environment, type, state, pidx, purchase_order_id, amount, fee_amount,
         refunded, payer_idx, payer_mobile, payer_name, created_at)
       SELECT pay.transaction_id, pay.merchant_id, 'live', 'Wallet payment',
              CASE pay.status WHEN 'Completed' THEN 'Completed' WHEN 'Pending' THEN 'Confirmed' ELSE 'Canceled' END,
              pay.pidx, pay.purchase_order_id, pay.amount, pay.fee, false, p.idx, p.mobile, p.name, pay.created_at + interval '20 seconds'
         FROM payments pay JOIN seed_payers p ON p.mobile = pay.payer_mobile
        WHERE pay.merchant_id = $1 AND pay.pidx LIKE 'seed%'
        ORDER BY pay.created_at`,
      [merchantId],
    );
    await step(
      'payment journals and postings',
      `WITH accounts AS (
         SELECT (SELECT id FROM ledger_accounts WHERE environment = 'live' AND kind = 'merchant' AND owner_id = $1) AS merchant,
                (SELECT id FROM ledger_accounts WHERE environment = 'live' AND kind = 'fee' AND owner_id = 0) AS fee
       ), journal AS (
         INSERT INTO journals (environment, kind, pidx, created_at)
         SELECT 'live', 'payment', pidx, created_at + interval '20 seconds' FROM payments
          WHERE merchant_id = $1 AND pidx LIKE 'seed%' AND status = 'Completed' ORDER BY created_at
         RETURNING id, pidx
       )
       INSERT INTO postings (journal_id, account_id, amount)
       SELECT journal.id, x.account_id, x.amount
         FROM journal JOIN payments pay ON pay.pidx = journal.pidx
         JOIN seed_payers p ON p.mobile = pay.payer_mobile
         CROSS JOIN accounts
         CROSS JOIN LATERAL (VALUES (p.account_id, -pay.amount), (accounts.merchant, pay.amount - pay.fee), (accounts.fee, pay.fee)) x (account_id, amount)
        WHERE x.amount <> 0`,
      [merchantId],
    );
    // Each payer wallet was topped up, before its first payment, with what it paid plus what is left.
    await step(
      'wallet top-ups and balances',
      `WITH paid AS (
         SELECT p.account_id, coalesce(-sum(po.amount), 0) AS paid
           FROM seed_payers p LEFT JOIN postings po ON po.account_id = p.account_id GROUP BY p.account_id
       ), journal AS (
         INSERT INTO journals (environment, kind, pidx, created_at)
         SELECT 'live', 'topup', NULL, now() - interval '399 days' FROM paid
         RETURNING id
       ), numbered_journal AS (
         SELECT id, row_number() OVER (ORDER BY id) AS k FROM journal
       ), numbered_paid AS (
         SELECT account_id, paid, row_number() OVER (ORDER BY account_id) AS k FROM paid
       ), funding AS (
         SELECT id FROM ledger_accounts WHERE environment = 'live' AND kind = 'funding' AND owner_id = 0
       ), posted AS (
         INSERT INTO postings (journal_id, account_id, amount)
         SELECT j.id, x.account_id, x.amount FROM numbered_journal j JOIN numbered_paid p USING (k) CROSS JOIN funding
          CROSS JOIN LATERAL (VALUES (funding.id, -(p.paid + $1)), (p.account_id, p.paid + $1)) x (account_id, amount)
       )
       UPDATE ledger_accounts a SET balance = $1 FROM seed_payers p WHERE a.id = p.account_id`,
      [LEFT_IN_WALLET],
    );
    await client.query('COMMIT');
    // What autovacuum would have done over a year: statistics, the visibility map, hint bits.
    const t = performance.now();
    await client.query('VACUUM (ANALYZE) payments, transactions, journals, postings, ledger_accounts, wallets');
    log(`  seed: vacuum analyze (${((performance.now() - t) / 1000).toFixed(1)} s)`);
  } catch (error) {
    await client.query('ROLLBACK').catch(() => {});
    throw error;
  } finally {
    await own?.end();
  }
  return { seconds: (performance.now() - started) / 1000 };
}
