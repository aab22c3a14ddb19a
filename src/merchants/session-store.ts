// The SQL of merchant website sessions. Rows are found by the SHA-256 of the cookie's token.
import type { Queryable } from '../db/db.js';
import type { Environment } from '../environment.js';
import type { ApprovalStatus, Merchant } from './merchant.js';
import type { MerchantRole, MerchantUser } from './merchant-user.js';

export interface SessionRow {
  token_hash: string;
  merchant_id: number;
  user_id: number;
  environment: Environment;
  created_at: Date;
  expires_at: Date;
}

export async function insertSession(db: Queryable, row: Omit<SessionRow, 'environment'>): Promise<void> {
  await db.query('INSERT INTO merchant_sessions (token_hash, merchant_id, user_id, created_at, expires_at) VALUES ($1, $2, $3, $4, $5)', [
    row.token_hash,
    row.merchant_id,
    row.user_id,
    row.created_at,
    row.expires_at,
  ]);
}

type SessionJoinRow = SessionRow & {
  m_id: number; idx: string; name: string; email: string; mobile: string; fee_bps: number; m_created_at: Date; status: ApprovalStatus; status_reason: string | null;
  u_email: string; role: MerchantRole; email_verified_at: Date | null; totp_enrolled_at: Date | null; u_created_at: Date;
};

/** A session that has not expired at `now`, of a user not removed, with its merchant and user. */
export async function findLiveSession(db: Queryable, tokenHash: string, now: Date): Promise<{ session: SessionRow; merchant: Merchant; user: MerchantUser } | undefined> {
  const rows = await db.query<SessionJoinRow>(
    `SELECT s.token_hash, s.merchant_id, s.user_id, s.environment, s.created_at, s.expires_at,
            m.id AS m_id, m.idx, m.name, m.email, m.mobile, m.fee_bps, m.created_at AS m_created_at, m.status, m.status_reason,
            u.email AS u_email, u.role, u.email_verified_at, u.totp_enrolled_at, u.created_at AS u_created_at
       FROM merchant_sessions s JOIN merchants m ON m.id = s.merchant_id JOIN merchant_users u ON u.id = s.user_id
      WHERE s.token_hash = $1 AND s.expires_at > $2 AND u.removed_at IS NULL`,
    [tokenHash, now],
  );
  const row = rows[0];
  if (!row) return undefined;
  return {
    session: { token_hash: row.token_hash, merchant_id: row.merchant_id, user_id: row.user_id, environment: row.environment, created_at: row.created_at, expires_at: row.expires_at },
    merchant: { id: row.m_id, idx: row.idx, name: row.name, email: row.email, mobile: row.mobile, fee_bps: row.fee_bps, created_at: row.m_created_at, status: row.status, status_reason: row.status_reason },
    user: { id: row.user_id, merchant_id: row.merchant_id, email: row.u_email, role: row.role, email_verified_at: row.email_verified_at, totp_enrolled_at: row.totp_enrolled_at, created_at: row.u_created_at },
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
