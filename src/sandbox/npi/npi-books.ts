// The NPI simulator's books: its tokens, the batches and transactions posted, and the entries of
// money moved (migration 100). SQL only; what to write is decided in npi-simulator.ts.
import type { Db, Queryable } from '../../db/db.js';
import { PgCode, violates } from '../../db/db.js';
import type { PostedBatch, PostedTransaction, Rail } from './npi-request.js';

/** Where a debited batch's money waits between the debit and its credits or reversals. */
export const settlementAccount = 'NCHL:SETTLEMENT';
export const accountOf = (agent: string, account: string) => `${agent}:${account}`;

// ---- tokens

export async function issueToken(db: Queryable, t: { token: string; kind: 'access' | 'refresh'; clientId: string; username: string; expiresAt: Date }): Promise<void> {
  await db.query('INSERT INTO npi_sim_tokens (token, kind, client_id, username, expires_at) VALUES ($1, $2, $3, $4, $5)', [t.token, t.kind, t.clientId, t.username, t.expiresAt]);
}

/** The user a token of `kind` was issued to, while it lasts. */
export async function tokenHolder(db: Queryable, token: string, kind: 'access' | 'refresh', now: Date): Promise<{ username: string; client_id: string } | undefined> {
  const [row] = await db.query<{ username: string; client_id: string }>('SELECT username, client_id FROM npi_sim_tokens WHERE token = $1 AND kind = $2 AND expires_at > $3', [token, kind, now]);
  return row;
}

// ---- postings

export interface BatchRow {
  id: number;
  member: string;
  rail: Rail;
  batch_id: string;
  batch_amount: number;
  batch_count: number;
  batch_crncy: string;
  category_purpose: string;
  debtor_agent: string;
  debtor_branch: string;
  debtor_name: string;
  debtor_account: string;
  debit_status: string;
  ips_batch_id: string | null;
  details: Record<string, unknown>;
  rec_date: string;
  created_at: Date;
}

export interface TransactionRow {
  id: number;
  batch: number;
  position: number;
  instruction_id: string;
  end_to_end_id: string;
  amount: number;
  creditor_agent: string;
  creditor_branch: string;
  creditor_name: string;
  creditor_account: string;
  credit_status: string;
  final_status: string;
  reason_code: string | null;
  reason_desc: string | null;
  reversal_status: string | null;
  ips_txn_id: string | null;
  details: Record<string, unknown>;
  created_at: Date;
}

const batchColumns = 'id, member, rail, batch_id, batch_amount, batch_count, batch_crncy, category_purpose, debtor_agent, debtor_branch, debtor_name, debtor_account, debit_status, ips_batch_id, details, rec_date::text AS rec_date, created_at';
const transactionColumns =
  'id, batch, position, instruction_id, end_to_end_id, amount, creditor_agent, creditor_branch, creditor_name, creditor_account, credit_status, final_status, reason_code, reason_desc, reversal_status, ips_txn_id, details, created_at';

export interface NewPosting {
  member: string;
  rail: Rail;
  batch: PostedBatch;
  transactions: (PostedTransaction & { creditStatus: string; finalStatus: string })[];
  recDate: string;
  now: Date;
  /** The batch's NCHL-IPS id from NCHL's own batch id (the batch rail only). */
  ipsBatchId?: (id: number) => string;
}

/**
 * Records a posted batch and its debit, in one transaction: `duplicate` when the member posted this
 * batch id before (nothing written, nothing debited again), `instruction_reused` when one of its
 * instruction ids is in an earlier batch.
 */
export async function recordPosting(db: Db, p: NewPosting): Promise<{ batch: BatchRow; transactions: TransactionRow[] } | 'duplicate' | 'instruction_reused'> {
  try {
    return await db.transaction(async (tx) => {
      const [inserted] = await tx.query<{ id: number }>(
        `INSERT INTO npi_sim_batches (member, rail, batch_id, batch_amount, batch_count, batch_crncy, category_purpose, debtor_agent, debtor_branch, debtor_name, debtor_account, debit_status, details, rec_date, created_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, '000', $12, $13, $14) ON CONFLICT (member, batch_id) DO NOTHING RETURNING id`,
        [p.member, p.rail, p.batch.batchId, p.batch.batchAmount, p.batch.batchCount, p.batch.batchCrncy, p.batch.categoryPurpose, p.batch.debtorAgent, p.batch.debtorBranch, p.batch.debtorName, p.batch.debtorAccount, JSON.stringify(p.batch.details), p.recDate, p.now],
      );
      if (!inserted) return 'duplicate' as const;
      const ipsBatchId = p.ipsBatchId?.(inserted.id) ?? null;
      if (ipsBatchId) await tx.query('UPDATE npi_sim_batches SET ips_batch_id = $2 WHERE id = $1', [inserted.id, ipsBatchId]);
      const rows = p.transactions.map((t, position) => ({
        position,
        instruction_id: t.instructionId,
        end_to_end_id: t.endToEndId,
        amount: t.amount,
        creditor_agent: t.creditorAgent,
        creditor_branch: t.creditorBranch,
        creditor_name: t.creditorName,
        creditor_account: t.creditorAccount,
        credit_status: t.creditStatus,
        final_status: t.finalStatus,
        // NCHL-IPS's transaction id: the batch's and three characters (research notes §11, weak).
        ips_txn_id: ipsBatchId ? `${ipsBatchId}${position.toString(36).toUpperCase().padStart(2, '0')}B` : null,
        details: t.details,
      }));
      await tx.query(
        `INSERT INTO npi_sim_transactions (batch, member, position, instruction_id, end_to_end_id, amount, creditor_agent, creditor_branch, creditor_name, creditor_account, credit_status, final_status, ips_txn_id, details, created_at)
         SELECT $1, $2, r.position, r.instruction_id, r.end_to_end_id, r.amount, r.creditor_agent, r.creditor_branch, r.creditor_name, r.creditor_account, r.credit_status, r.final_status, r.ips_txn_id, r.details, $3
         FROM jsonb_to_recordset($4::jsonb) AS r(position integer, instruction_id text, end_to_end_id text, amount bigint, creditor_agent text, creditor_branch text, creditor_name text, creditor_account text,
           credit_status text, final_status text, ips_txn_id text, details jsonb)`,
        [inserted.id, p.member, p.now, JSON.stringify(rows)],
      );
      // The debit of the whole batch amount, at once.
      await tx.query(`INSERT INTO npi_sim_entries (member, batch, txn, kind, from_account, to_account, amount, at) VALUES ($1, $2, NULL, 'debit', $3, $4, $5, $6) ON CONFLICT DO NOTHING`, [
        p.member,
        inserted.id,
        accountOf(p.batch.debtorAgent, p.batch.debtorAccount),
        settlementAccount,
        p.batch.batchAmount,
        p.now,
      ]);
      const [batch] = await tx.query<BatchRow>(`SELECT ${batchColumns} FROM npi_sim_batches WHERE id = $1`, [inserted.id]);
      return { batch, transactions: await tx.query<TransactionRow>(`SELECT ${transactionColumns} FROM npi_sim_transactions WHERE batch = $1 ORDER BY position`, [inserted.id]) };
    });
  } catch (error) {
    if (violates(error, PgCode.uniqueViolation, 'npi_sim_transactions_member_instruction_id_key')) return 'instruction_reused';
    if (violates(error, PgCode.uniqueViolation, 'npi_sim_batches_member_batch_id_key')) return 'duplicate';
    throw error;
  }
}

/** One credit's move from one status to the next; the final one carries its reason. */
export interface CreditMove {
  id: number;
  from: string;
  to: string;
  credited: boolean;
  reason_code?: string;
  reason_desc?: string;
  reversal_status?: string;
}

/**
 * Moves credits, each only from the status it is in (a race has one winner); a credit reaching its
 * final status moves the money in the same statement: to the creditor, or back to the debtor.
 */
export async function moveCredits(db: Queryable, moves: CreditMove[], now: Date): Promise<void> {
  if (moves.length === 0) return;
  await db.query(
    `WITH moved AS (
       UPDATE npi_sim_transactions t SET credit_status = m."to",
         reason_code = coalesce(m.reason_code, t.reason_code), reason_desc = coalesce(m.reason_desc, t.reason_desc), reversal_status = coalesce(m.reversal_status, t.reversal_status)
       FROM jsonb_to_recordset($1::jsonb) AS m(id bigint, "from" text, "to" text, credited boolean, reason_code text, reason_desc text, reversal_status text)
       WHERE t.id = m.id AND t.credit_status = m."from"
       RETURNING t.id, t.batch, t.member, t.amount, t.creditor_agent, t.creditor_account, t.credit_status, t.final_status, m.credited
     )
     INSERT INTO npi_sim_entries (member, batch, txn, kind, from_account, to_account, amount, at)
     SELECT moved.member, moved.batch, moved.id, CASE WHEN moved.credited THEN 'credit' ELSE 'reversal' END, $2,
       CASE WHEN moved.credited THEN moved.creditor_agent || ':' || moved.creditor_account ELSE b.debtor_agent || ':' || b.debtor_account END, moved.amount, $3
     FROM moved JOIN npi_sim_batches b ON b.id = moved.batch
     WHERE moved.credit_status = moved.final_status
     ON CONFLICT DO NOTHING`,
    [JSON.stringify(moves), settlementAccount, now],
  );
}

/** A member's credits not yet at their final status. */
export async function pendingCredits(db: Queryable, member: string): Promise<(Pick<TransactionRow, 'id' | 'credit_status' | 'final_status' | 'created_at'> & { rail: Rail })[]> {
  return db.query(
    'SELECT t.id, t.credit_status, t.final_status, t.created_at, b.rail FROM npi_sim_transactions t JOIN npi_sim_batches b ON b.id = t.batch WHERE t.member = $1 AND t.credit_status <> t.final_status',
    [member],
  );
}

// ---- reports

export async function findBatch(db: Queryable, member: string, rail: Rail, batchId: string): Promise<BatchRow | undefined> {
  const [row] = await db.query<BatchRow>(`SELECT ${batchColumns} FROM npi_sim_batches WHERE member = $1 AND rail = $2 AND batch_id = $3`, [member, rail, batchId]);
  return row;
}

export async function batchesOfDays(db: Queryable, member: string, rail: Rail, from: string, to: string): Promise<BatchRow[]> {
  return db.query<BatchRow>(`SELECT ${batchColumns} FROM npi_sim_batches WHERE member = $1 AND rail = $2 AND rec_date BETWEEN $3::date AND $4::date ORDER BY id`, [member, rail, from, to]);
}

/** The transactions of `batches`, in their batches' order. */
export async function transactionsOf(db: Queryable, batches: number[], instructionId?: string): Promise<TransactionRow[]> {
  if (batches.length === 0) return [];
  return db.query<TransactionRow>(`SELECT ${transactionColumns} FROM npi_sim_transactions WHERE batch = ANY($1::bigint[]) AND ($2::text IS NULL OR instruction_id = $2) ORDER BY batch, position`, [batches, instructionId ?? null]);
}

/** What each account holds by the entries (negative: paid out more than received), for the books' checks. */
export async function balances(db: Queryable, member: string): Promise<Record<string, number>> {
  const rows = await db.query<{ account: string; balance: number }>(
    `SELECT account, sum(amount) AS balance FROM (
       SELECT to_account AS account, amount FROM npi_sim_entries WHERE member = $1
       UNION ALL SELECT from_account, -amount FROM npi_sim_entries WHERE member = $1) e GROUP BY account`,
    [member],
  );
  return Object.fromEntries(rows.map((r) => [r.account, r.balance]));
}

/** The entries of one batch, oldest first. */
export async function entriesOf(db: Queryable, batch: number): Promise<{ kind: string; from_account: string; to_account: string; amount: number; txn: number | null }[]> {
  return db.query('SELECT kind, from_account, to_account, amount, txn FROM npi_sim_entries WHERE batch = $1 ORDER BY id', [batch]);
}
