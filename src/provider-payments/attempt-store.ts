// The SQL of provider attempts, apart from their moves (attempt-state-machine.ts).
import type { Queryable } from '../db/db.js';
import { attemptColumns, type Attempt } from './attempt-state-machine.js';

/** A reference as the store keeps it: its JSON, or NULL. */
const asJson = (reference: unknown) => (reference === null || reference === undefined ? null : JSON.stringify(reference));

export async function insertAttempt(db: Queryable, a: Pick<Attempt, 'idx' | 'pidx' | 'environment' | 'provider' | 'amount' | 'provider_reference'> & { now: Date; nextCheckAt: Date }): Promise<Attempt> {
  const [row] = await db.query<Attempt>(
    `WITH started AS (
       INSERT INTO provider_attempts (idx, pidx, environment, provider, amount, state, provider_reference, next_check_at, created_at, updated_at)
       VALUES ($1, $2, $3, $4, $5, 'Started', $8::jsonb, $7, $6, $6) RETURNING ${attemptColumns}
     ), event AS (
       INSERT INTO payment_events (pidx, occurred_at, event, detail) SELECT pidx, $6, 'attempt_start', json_build_object('attempt', idx, 'provider', provider) FROM started
     )
     SELECT ${attemptColumns} FROM started`,
    [a.idx, a.pidx, a.environment, a.provider, a.amount, a.now, a.nextCheckAt, asJson(a.provider_reference)],
  );
  return row;
}

/** An attempt's idx as it may come back in an address: letters and digits, at most 40 (Bhuktani's are 17). */
export const isAttemptIdx = (idx: string) => /^[A-Za-z0-9]{1,40}$/.test(idx);

export async function findAttempt(db: Queryable, idx: string): Promise<Attempt | undefined> {
  const [row] = await db.query<Attempt>(`SELECT ${attemptColumns} FROM provider_attempts WHERE idx = $1`, [idx]);
  return row;
}

/**
 * Keeps the reference a verified return gave a started attempt that had none (Fonepay's trace id);
 * the attempt as it is now.
 */
export async function setProviderReference(db: Queryable, id: number, reference: unknown): Promise<Attempt | undefined> {
  await db.query(`UPDATE provider_attempts SET provider_reference = $2::jsonb WHERE id = $1 AND state = 'Started' AND provider_reference IS NULL`, [id, asJson(reference)]);
  const [row] = await db.query<Attempt>(`SELECT ${attemptColumns} FROM provider_attempts WHERE id = $1`, [id]);
  return row;
}

/** The attempt that holds or completed a payment (the one with its transaction id). */
export async function findAttemptByTransactionId(db: Queryable, transactionId: string): Promise<Attempt | undefined> {
  const [row] = await db.query<Attempt>(`SELECT ${attemptColumns} FROM provider_attempts WHERE transaction_id = $1`, [transactionId]);
  return row;
}

export async function listPaymentAttempts(db: Queryable, pidx: string): Promise<Attempt[]> {
  return db.query<Attempt>(`SELECT ${attemptColumns} FROM provider_attempts WHERE pidx = $1 ORDER BY id`, [pidx]);
}

/** Locks the attempt's row until the transaction ends (two settlements of one attempt take turns). */
export async function lockAttempt(db: Queryable, id: number): Promise<Attempt | undefined> {
  const [row] = await db.query<Attempt>(`SELECT ${attemptColumns} FROM provider_attempts WHERE id = $1 FOR UPDATE`, [id]);
  return row;
}

/**
 * Leases up to `limit` attempts that are due to be asked about: each to one instance until
 * `leaseUntil` (an instance that dies frees its leases when they pass), the others skip them.
 */
export async function leaseDueAttempts(db: Queryable, now: Date, leaseUntil: Date, limit: number): Promise<Attempt[]> {
  return db.query<Attempt>(
    `WITH due AS (
       SELECT id FROM provider_attempts
        WHERE state IN ('Started', 'Unknown') AND next_check_at <= $1 AND (lease_until IS NULL OR lease_until <= $1)
        ORDER BY next_check_at LIMIT $3 FOR UPDATE SKIP LOCKED
     )
     UPDATE provider_attempts a SET lease_until = $2 FROM due WHERE a.id = due.id
        AND (a.lease_until IS NULL OR a.lease_until <= $1)
     RETURNING ${attemptColumns.split(', ').map((c) => `a.${c}`).join(', ')}`,
    [now, leaseUntil, limit],
  );
}

/**
 * The attempt's turn to be asked about (a watched one), claimed until `until` unless another request
 * or instance holds it (its claim still running at `now`): undefined when it is not this request's turn.
 */
export async function claimAttemptTurn(db: Queryable, id: number, now: Date, until: Date): Promise<Attempt | undefined> {
  const [row] = await db.query<Attempt>(
    `UPDATE provider_attempts SET lease_until = $2 WHERE id = $1 AND state IN ('Started', 'Unknown') AND (lease_until IS NULL OR lease_until <= $3) RETURNING ${attemptColumns}`,
    [id, until, now],
  );
  return row;
}

/** The turn of the request that claimed it ends: no question about the attempt before `until`, whoever would ask. */
export async function endTurnUntil(db: Queryable, id: number, until: Date): Promise<void> {
  await db.query('UPDATE provider_attempts SET lease_until = $2 WHERE id = $1', [id, until]);
}

/** The attempt was asked about and stays as it is: counted, asked again at `nextCheckAt`, its lease given back. */
export async function recordCheck(db: Queryable, id: number, answer: string, nextCheckAt: Date): Promise<void> {
  await db.query('UPDATE provider_attempts SET checks = checks + 1, last_answer = $2, next_check_at = $3, lease_until = NULL WHERE id = $1', [id, answer.slice(0, 500), nextCheckAt]);
}
