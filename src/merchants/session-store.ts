// The SQL of merchant website sessions. Rows are found by the SHA-256 of the cookie's token.
import type { Queryable } from '../db/db.js';
import type { Environment } from '../environment.js';
import type { ApprovalStatus, Merchant } from './merchant.js';

export interface SessionRow {
  token_hash: string;
  merchant_id: number;
  environment: Environment;
  created_at: Date;
  expires_at: Date;
}

export async function insertSession(db: Queryable, row: Omit<SessionRow, 'environment'>): Promise<void> {
  await db.query('INSERT INTO merchant_sessions (token_hash, merchant_id, created_at, expires_at) VALUES ($1, $2, $3, $4)', [
    row.token_hash,
    row.merchant_id,
    row.created_at,
    row.expires_at,
  ]);
}

/** A session that has not expired at `now`, with its merchant. */
export async function findLiveSession(db: Queryable, tokenHash: string, now: Date): Promise<{ session: SessionRow; merchant: Merchant } | undefined> {
  const rows = await db.query<SessionRow & { m_id: number; idx: string; name: string; email: string; mobile: string; fee_bps: number; m_created_at: Date; status: ApprovalStatus; status_reason: string | null }>(
    `SELECT s.token_hash, s.merchant_id, s.environment, s.created_at, s.expires_at,
            m.id AS m_id, m.idx, m.name, m.email, m.mobile, m.fee_bps, m.created_at AS m_created_at, m.status, m.status_reason
       FROM merchant_sessions s JOIN merchants m ON m.id = s.merchant_id
      WHERE s.token_hash = $1 AND s.expires_at > $2`,
    [tokenHash, now],
  );
  const row = rows[0];
  if (!row) return undefined;
  return {
    session: { token_hash: row.token_hash, merchant_id: row.merchant_id, environment: row.environment, created_at: row.created_at, expires_at: row.expires_at },
    merchant: { id: row.m_id, idx: row.idx, name: row.name, email: row.email, mobile: row.mobile, fee_bps: row.fee_bps, created_at: row.m_created_at, status: row.status, status_reason: row.status_reason },
  };
}

export async function updateSessionEnvironment(db: Queryable, tokenHash: string, environment: Environment): Promise<void> {
  await db.query('UPDATE merchant_sessions SET environment = $2 WHERE token_hash = $1', [tokenHash, environment]);
}

export async function deleteSessionRow(db: Queryable, tokenHash: string): Promise<void> {
  await db.query('DELETE FROM merchant_sessions WHERE token_hash = $1', [tokenHash]);
}

/** Expired sessions of one merchant: cleaned up whenever the merchant logs in, so the table does not grow. */
export async function deleteExpiredSessions(db: Queryable, merchantId: number, now: Date): Promise<void> {
  await db.query('DELETE FROM merchant_sessions WHERE merchant_id = $1 AND expires_at <= $2', [merchantId, now]);
}
