import type { Queryable } from '../db/db.js';

export const IDEMPOTENCY_TTL_SECONDS = 24 * 3600;
/** How long a request may hold a key before another may take it over (its holder died). */
export const IDEMPOTENCY_LEASE_SECONDS = 60;

export interface IdempotencyScope {
  merchantId: number;
  environment: string;
  route: string;
  key: string;
}

export interface IdempotencyRow {
  request_hash: string;
  response_status: number | null;
  response_body: string | null;
  created_at: Date;
  locked_until: Date | null;
}

const WHERE = 'merchant_id = $1 AND environment = $2 AND route = $3 AND key = $4';
const params = (s: IdempotencyScope) => [s.merchantId, s.environment, s.route, s.key];

/** Takes the key for this request; false when another request has it (or had it). */
export async function claimIdempotencyKey(db: Queryable, scope: IdempotencyScope, requestHash: string, now: Date): Promise<boolean> {
  const lockedUntil = new Date(now.getTime() + IDEMPOTENCY_LEASE_SECONDS * 1000);
  const rows = await db.query(
    `INSERT INTO idempotency_keys (merchant_id, environment, route, key, request_hash, created_at, locked_until)
     VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT DO NOTHING RETURNING 1`,
    [...params(scope), requestHash, now, lockedUntil],
  );
  return rows.length === 1;
}

export async function findIdempotencyKey(db: Queryable, scope: IdempotencyScope): Promise<IdempotencyRow | undefined> {
  const rows = await db.query<IdempotencyRow>(`SELECT request_hash, response_status, response_body, created_at, locked_until FROM idempotency_keys WHERE ${WHERE}`, params(scope));
  return rows[0];
}

/** Takes over a key whose holder's lease ran out without a response, or whose response is older than 24 hours. */
export async function takeOverIdempotencyKey(db: Queryable, scope: IdempotencyScope, requestHash: string, now: Date): Promise<boolean> {
  const rows = await db.query(
    `UPDATE idempotency_keys SET request_hash = $5, created_at = $6, locked_until = $7, response_status = NULL, response_body = NULL
      WHERE ${WHERE} AND ((response_status IS NULL AND locked_until <= $6) OR created_at <= $8) RETURNING 1`,
    [...params(scope), requestHash, now, new Date(now.getTime() + IDEMPOTENCY_LEASE_SECONDS * 1000), new Date(now.getTime() - IDEMPOTENCY_TTL_SECONDS * 1000)],
  );
  return rows.length === 1;
}

export async function saveIdempotentResponse(db: Queryable, scope: IdempotencyScope, status: number, body: string): Promise<void> {
  await db.query(`UPDATE idempotency_keys SET response_status = $5, response_body = $6, locked_until = NULL WHERE ${WHERE}`, [...params(scope), status, body]);
}

export async function releaseIdempotencyKey(db: Queryable, scope: IdempotencyScope): Promise<void> {
  await db.query(`DELETE FROM idempotency_keys WHERE ${WHERE} AND response_status IS NULL`, params(scope));
}

export async function deleteExpiredIdempotencyKeys(db: Queryable, now: Date): Promise<void> {
  await db.query('DELETE FROM idempotency_keys WHERE created_at <= $1', [new Date(now.getTime() - IDEMPOTENCY_TTL_SECONDS * 1000)]);
}
