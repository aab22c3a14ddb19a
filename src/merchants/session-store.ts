// The SQL of merchant website sessions. Rows are found by the SHA-256 of the cookie's token. A session
// is a person's (person_id), looking at one business through their membership of it (user_id,
// merchant_id).
import type { Queryable } from '../db/db.js';
import type { Environment } from '../environment.js';
import type { ApprovalStatus, Merchant } from './merchant.js';
import type { MerchantRole, MerchantUser } from './merchant-user.js';
import type { SessionStage } from '../people/session-store.js';

export interface SessionRow {
  token_hash: string;
  merchant_id: number;
  user_id: number;
  person_id: number;
  environment: Environment;
  stage: SessionStage;
  created_at: Date;
  last_seen_at: Date;
  expires_at: Date;
  /** The last time the user proved who they are in this session (step-up reads it). */
  confirmed_at: Date | null;
  ip: string;
  user_agent: string;
}

export async function insertSession(db: Queryable, row: Omit<SessionRow, 'environment' | 'last_seen_at'>): Promise<void> {
  await db.query(
    `INSERT INTO merchant_sessions (token_hash, merchant_id, user_id, person_id, stage, created_at, last_seen_at, expires_at, confirmed_at, ip, user_agent)
     VALUES ($1, $2, $3, $4, $5, $6, $6, $7, $8, $9, $10)`,
    [row.token_hash, row.merchant_id, row.user_id, row.person_id, row.stage, row.created_at, row.expires_at, row.confirmed_at, row.ip, row.user_agent],
  );
}

const SESSION_COLUMNS = 's.token_hash, s.merchant_id, s.user_id, s.person_id, s.environment, s.stage, s.created_at, s.last_seen_at, s.expires_at, s.confirmed_at, s.ip, s.user_agent';
const sessionOfRow = (row: SessionRow): SessionRow => ({
  token_hash: row.token_hash, merchant_id: Number(row.merchant_id), user_id: Number(row.user_id), person_id: Number(row.person_id), environment: row.environment, stage: row.stage, created_at: row.created_at,
  last_seen_at: row.last_seen_at, expires_at: row.expires_at, confirmed_at: row.confirmed_at, ip: row.ip, user_agent: row.user_agent,
});

type SessionJoinRow = SessionRow & {
  m_id: number; idx: string; name: string; email: string; mobile: string; fee_bps: number; m_created_at: Date; status: ApprovalStatus; status_reason: string | null;
  u_email: string; role: MerchantRole; email_verified_at: Date | null; totp_enrolled_at: Date | null; u_created_at: Date; require_two_factor: boolean;
};

/**
 * A session that has not expired at `now`, with its merchant and the user it looks at it through:
 * that membership must still be the session's person's, and not removed.
 */
export async function findLiveSession(
  db: Queryable,
  tokenHash: string,
  now: Date,
): Promise<{ session: SessionRow; merchant: Merchant; user: MerchantUser; requireTwoFactor: boolean } | undefined> {
  const rows = await db.query<SessionJoinRow>(
    `SELECT ${SESSION_COLUMNS},
            m.id AS m_id, m.idx, m.name, m.email, m.mobile, m.fee_bps, m.created_at AS m_created_at, m.status, m.status_reason, m.require_two_factor,
            p.email AS u_email, u.role, p.email_verified_at, p.totp_enrolled_at, u.created_at AS u_created_at
       FROM merchant_sessions s JOIN merchant_users u ON u.id = s.user_id AND u.person_id = s.person_id AND u.merchant_id = s.merchant_id
            JOIN merchants m ON m.id = u.merchant_id JOIN merchant_people p ON p.id = s.person_id
      WHERE s.token_hash = $1 AND s.expires_at > $2 AND u.removed_at IS NULL`,
    [tokenHash, now],
  );
  const row = rows[0];
  if (!row) return undefined;
  return {
    session: sessionOfRow(row),
    merchant: { id: row.m_id, idx: row.idx, name: row.name, email: row.email, mobile: row.mobile, fee_bps: row.fee_bps, created_at: row.m_created_at, status: row.status, status_reason: row.status_reason },
    user: { id: Number(row.user_id), merchant_id: Number(row.merchant_id), person_id: Number(row.person_id), email: row.u_email, role: row.role, email_verified_at: row.email_verified_at, totp_enrolled_at: row.totp_enrolled_at, created_at: row.u_created_at },
    requireTwoFactor: row.require_two_factor,
  };
}

export async function updateSessionEnvironment(db: Queryable, tokenHash: string, environment: Environment): Promise<void> {
  await db.query('UPDATE merchant_sessions SET environment = $2 WHERE token_hash = $1', [tokenHash, environment]);
}

export async function deleteSessionRow(db: Queryable, tokenHash: string): Promise<void> {
  await db.query('DELETE FROM merchant_sessions WHERE token_hash = $1', [tokenHash]);
}

/** Expired sessions of one person: cleaned up whenever they log in, so the table does not grow. */
export async function deleteExpiredSessions(db: Queryable, personId: number, now: Date): Promise<void> {
  await db.query('DELETE FROM merchant_sessions WHERE person_id = $1 AND expires_at <= $2', [personId, now]);
}

/**
 * The session looks at another business of its person's: the membership named by the merchant's idx,
 * if it is the person's and not removed. Undefined (nothing changed) otherwise.
 */
export async function updateSessionBusiness(db: Queryable, tokenHash: string, merchantIdx: string): Promise<{ userId: number; merchantId: number } | undefined> {
  const [row] = await db.query<{ user_id: number; merchant_id: number }>(
    `UPDATE merchant_sessions s SET user_id = u.id, merchant_id = u.merchant_id
       FROM merchant_users u JOIN merchants m ON m.id = u.merchant_id
      WHERE s.token_hash = $1 AND u.person_id = s.person_id AND m.idx = $2 AND u.removed_at IS NULL
      RETURNING s.user_id, s.merchant_id`,
    [tokenHash, merchantIdx],
  );
  return row && { userId: Number(row.user_id), merchantId: Number(row.merchant_id) };
}

export async function touchSession(db: Queryable, tokenHash: string, now: Date): Promise<void> {
  await db.query('UPDATE merchant_sessions SET last_seen_at = $2 WHERE token_hash = $1 AND last_seen_at < $2', [tokenHash, now]);
}

/** The second factor is done (or the user proved who they are again): the stage, a new end, the time of proof. */
export async function updateSessionStage(db: Queryable, tokenHash: string, values: { stage: SessionStage; expiresAt: Date; confirmedAt: Date }): Promise<void> {
  await db.query('UPDATE merchant_sessions SET stage = $2, expires_at = $3, confirmed_at = $4, last_seen_at = greatest(last_seen_at, $4) WHERE token_hash = $1', [
    tokenHash,
    values.stage,
    values.expiresAt,
    values.confirmedAt,
  ]);
}

export async function updateSessionConfirmed(db: Queryable, tokenHash: string, now: Date): Promise<void> {
  await db.query('UPDATE merchant_sessions SET confirmed_at = $2 WHERE token_hash = $1', [tokenHash, now]);
}

/** One person's sessions that have not ended, newest first, with the business each looks at (the sessions page). */
export async function listPersonSessions(db: Queryable, personId: number, now: Date): Promise<(SessionRow & { merchant_name: string })[]> {
  const rows = await db.query<SessionRow & { merchant_name: string }>(
    `SELECT ${SESSION_COLUMNS}, m.name AS merchant_name FROM merchant_sessions s JOIN merchants m ON m.id = s.merchant_id
      WHERE s.person_id = $1 AND s.expires_at > $2 ORDER BY s.created_at DESC, s.token_hash`,
    [personId, now],
  );
  return rows.map((row) => ({ ...sessionOfRow(row), merchant_name: row.merchant_name }));
}

/** Every session of one person (but the one given): logged out everywhere, or the password changed. */
export async function deletePersonSessions(db: Queryable, personId: number, exceptTokenHash = ''): Promise<void> {
  await db.query('DELETE FROM merchant_sessions WHERE person_id = $1 AND token_hash <> $2', [personId, exceptTokenHash]);
}

/** One session, only if it is this person's. */
export async function deletePersonSession(db: Queryable, personId: number, tokenHash: string): Promise<boolean> {
  const rows = await db.query('DELETE FROM merchant_sessions WHERE person_id = $1 AND token_hash = $2 RETURNING token_hash', [personId, tokenHash]);
  return rows.length === 1;
}
