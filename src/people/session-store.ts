// The SQL of people's sessions (table people_sessions). Rows are found by the SHA-256 of the token.
import type { Queryable } from '../db/db.js';

export type AccountKind = 'operator';
export type SessionStage = 'second_factor' | 'enrolment' | 'signed_in';

export interface PeopleSessionRow {
  token_hash: string;
  account_kind: AccountKind;
  account_id: number;
  stage: SessionStage;
  created_at: Date;
  last_seen_at: Date;
  expires_at: Date;
}

export async function insertPeopleSession(db: Queryable, row: PeopleSessionRow): Promise<void> {
  await db.query(
    `INSERT INTO people_sessions (token_hash, account_kind, account_id, stage, created_at, last_seen_at, expires_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7)`,
    [row.token_hash, row.account_kind, row.account_id, row.stage, row.created_at, row.last_seen_at, row.expires_at],
  );
}

/** A session of this kind neither past its absolute end nor idle since `idleSince`. */
export async function findLivePeopleSession(db: Queryable, kind: AccountKind, tokenHash: string, now: Date, idleSince: Date): Promise<PeopleSessionRow | undefined> {
  const [row] = await db.query<PeopleSessionRow>(
    `SELECT token_hash, account_kind, account_id, stage, created_at, last_seen_at, expires_at FROM people_sessions
      WHERE token_hash = $1 AND account_kind = $2 AND expires_at > $3 AND last_seen_at > $4`,
    [tokenHash, kind, now, idleSince],
  );
  return row;
}

export async function touchPeopleSession(db: Queryable, tokenHash: string, now: Date): Promise<void> {
  await db.query('UPDATE people_sessions SET last_seen_at = $2 WHERE token_hash = $1 AND last_seen_at < $2', [tokenHash, now]);
}

export async function updatePeopleSessionStage(db: Queryable, tokenHash: string, stage: SessionStage, expiresAt: Date, now: Date): Promise<void> {
  await db.query('UPDATE people_sessions SET stage = $2, expires_at = $3, last_seen_at = $4 WHERE token_hash = $1', [tokenHash, stage, expiresAt, now]);
}

export async function deletePeopleSession(db: Queryable, tokenHash: string): Promise<void> {
  await db.query('DELETE FROM people_sessions WHERE token_hash = $1', [tokenHash]);
}

/** Every session of one account (signed out everywhere: removed, role changed, password changed). */
export async function deleteAccountSessions(db: Queryable, kind: AccountKind, accountId: number, exceptTokenHash = ''): Promise<void> {
  await db.query('DELETE FROM people_sessions WHERE account_kind = $1 AND account_id = $2 AND token_hash <> $3', [kind, accountId, exceptTokenHash]);
}

/** Sessions of one account that ended by `before` (absolute end or idle): cleaned up at each sign-in. */
export async function deleteEndedSessions(db: Queryable, kind: AccountKind, accountId: number, now: Date, idleSince: Date): Promise<void> {
  await db.query('DELETE FROM people_sessions WHERE account_kind = $1 AND account_id = $2 AND (expires_at <= $3 OR last_seen_at <= $4)', [kind, accountId, now, idleSince]);
}
