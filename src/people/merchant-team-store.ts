// The SQL of a merchant's team: its users (by merchant, never another's), role changes, removal with
// the end of the sessions looking at this business, and the team's own log (merchant_team_events) of
// changes to the team and of each user's security acts.
import type { Queryable } from '../db/db.js';
import type { MerchantRole, MerchantUser } from '../merchants/merchant-user.js';
import { normalUser, USER_COLUMNS, USERS } from '../merchants/merchant-user-store.js';

export interface TeamEvent {
  id: number;
  occurred_at: Date;
  actor_email: string;
  action: string;
  subject_email: string;
  detail: string;
}

/** The present users of one merchant: the owner first, then by when they joined. */
export async function listTeamUsers(db: Queryable, merchantId: number): Promise<MerchantUser[]> {
  const rows = await db.query<MerchantUser>(
    `SELECT ${USER_COLUMNS} FROM ${USERS} WHERE u.merchant_id = $1 AND u.removed_at IS NULL ORDER BY u.role = 'owner' DESC, u.id`,
    [merchantId],
  );
  return rows.map(normalUser);
}

/** A present user of this merchant, or undefined (another merchant's, removed, unknown). */
export async function findTeamUser(db: Queryable, merchantId: number, userId: number): Promise<MerchantUser | undefined> {
  const [row] = await db.query<MerchantUser>(`SELECT ${USER_COLUMNS} FROM ${USERS} WHERE u.merchant_id = $1 AND u.id = $2 AND u.removed_at IS NULL`, [merchantId, userId]);
  return row && normalUser(row);
}

export async function findOwner(db: Queryable, merchantId: number): Promise<MerchantUser | undefined> {
  const [row] = await db.query<MerchantUser>(`SELECT ${USER_COLUMNS} FROM ${USERS} WHERE u.merchant_id = $1 AND u.role = 'owner' AND u.removed_at IS NULL`, [merchantId]);
  return row && normalUser(row);
}

/** Whether the person with this e-mail is a present user of this merchant (its team page shows it anyway). */
export async function emailIsInTeam(db: Queryable, merchantId: number, email: string): Promise<boolean> {
  const rows = await db.query(`SELECT 1 FROM ${USERS} WHERE u.merchant_id = $1 AND lower(p.email) = lower($2) AND u.removed_at IS NULL`, [merchantId, email]);
  return rows.length > 0;
}

/** Sets the role of a present user whose role is `from` (so two admins at once cannot both win on a stale read). */
export async function updateUserRole(db: Queryable, options: { merchantId: number; userId: number; from: MerchantRole; to: MerchantRole }): Promise<boolean> {
  const rows = await db.query(
    'UPDATE merchant_users SET role = $4 WHERE merchant_id = $1 AND id = $2 AND role = $3 AND removed_at IS NULL RETURNING id',
    [options.merchantId, options.userId, options.from, options.to],
  );
  return rows.length > 0;
}

/**
 * Removes a present user who is not the owner, and deletes the sessions looking at this business
 * through them: logged out of it at once. The person's sessions on their other businesses stay.
 */
export async function markUserRemoved(db: Queryable, options: { merchantId: number; userId: number; now: Date }): Promise<boolean> {
  const rows = await db.query(
    `UPDATE merchant_users SET removed_at = $3 WHERE merchant_id = $1 AND id = $2 AND role <> 'owner' AND removed_at IS NULL RETURNING id`,
    [options.merchantId, options.userId, options.now],
  );
  if (rows.length === 0) return false;
  await db.query('DELETE FROM merchant_sessions WHERE user_id = $1', [options.userId]);
  return true;
}

export async function insertTeamEvent(db: Queryable, event: { merchantId: number; now: Date; actorUserId: number | null; actorEmail: string; action: string; subjectEmail: string; detail?: string }): Promise<void> {
  await db.query(
    'INSERT INTO merchant_team_events (merchant_id, occurred_at, actor_user_id, actor_email, action, subject_email, detail) VALUES ($1, $2, $3, $4, $5, $6, $7)',
    [event.merchantId, event.now, event.actorUserId, event.actorEmail, event.action, event.subjectEmail, event.detail ?? ''],
  );
}

/**
 * A user's own act in their merchant's log, or (`personId`) a person's in the log of every team they
 * belong to: they are its actor and its subject (e-mail and merchants read from their rows).
 */
export async function insertUserEvent(db: Queryable, event: ({ userId: number } | { personId: number }) & { now: Date; action: string; detail?: string }): Promise<void> {
  const [column, id] = 'userId' in event ? ['u.id', event.userId] : ['u.person_id', event.personId];
  await db.query(
    `INSERT INTO merchant_team_events (merchant_id, occurred_at, actor_user_id, actor_email, action, subject_email, detail)
     SELECT u.merchant_id, $2, u.id, p.email, $3, p.email, $4 FROM ${USERS} WHERE ${column} = $1 AND u.removed_at IS NULL`,
    [id, event.now, event.action, event.detail ?? ''],
  );
}

/** One merchant's team log, newest first; `beforeId` pages by keyset (lines older than that one), as the audit log does. */
export async function listTeamEvents(db: Queryable, merchantId: number, page: { beforeId?: number; limit: number }): Promise<TeamEvent[]> {
  const older = page.beforeId === undefined ? '' : ' AND id < $3';
  const rows = await db.query<TeamEvent>(
    `SELECT id, occurred_at, actor_email, action, subject_email, detail FROM merchant_team_events WHERE merchant_id = $1${older} ORDER BY id DESC LIMIT $2`,
    page.beforeId === undefined ? [merchantId, page.limit] : [merchantId, page.limit, page.beforeId],
  );
  return rows.map((row) => ({ ...row, id: Number(row.id) }));
}

/** Locks a present user's row and returns their role (a role change or a removal at once waits, or is waited for). */
export async function lockTeamUserRole(db: Queryable, merchantId: number, userId: number): Promise<MerchantRole | undefined> {
  const [row] = await db.query<{ role: MerchantRole }>('SELECT role FROM merchant_users WHERE merchant_id = $1 AND id = $2 AND removed_at IS NULL FOR UPDATE', [merchantId, userId]);
  return row?.role;
}
