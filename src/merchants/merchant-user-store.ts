// The SQL of merchant users: a person's membership of one merchant's team, read with the person's
// e-mail and account state (merchant-person-store.ts keeps the person's secrets).
import type { Queryable } from '../db/db.js';
import type { MerchantRole, MerchantUser, Membership } from './merchant-user.js';

/** The columns of a MerchantUser, from `USERS`. */
export const USER_COLUMNS = 'u.id, u.merchant_id, u.person_id, p.email, u.role, p.email_verified_at, p.totp_enrolled_at, u.created_at';
export const USERS = 'merchant_users u JOIN merchant_people p ON p.id = u.person_id';

export const normalUser = (user: MerchantUser): MerchantUser => ({ ...user, id: Number(user.id), merchant_id: Number(user.merchant_id), person_id: Number(user.person_id) });

/** The person joins the merchant's team; fails on merchant_users_membership when they are in it already. */
export async function insertMerchantUser(db: Queryable, row: { merchantId: number; personId: number; role: MerchantRole; now: Date }): Promise<MerchantUser> {
  const [{ id }] = await db.query<{ id: number }>('INSERT INTO merchant_users (merchant_id, person_id, role, created_at, chosen_at) VALUES ($1, $2, $3, $4, $4) RETURNING id', [
    row.merchantId,
    row.personId,
    row.role,
    row.now,
  ]);
  const [user] = await db.query<MerchantUser>(`SELECT ${USER_COLUMNS} FROM ${USERS} WHERE u.id = $1`, [id]);
  return normalUser(user);
}

/** The businesses a person belongs to now, by name (the switcher's order, which switching does not change). */
export async function listMemberships(db: Queryable, personId: number): Promise<Membership[]> {
  const rows = await db.query<{ id: number; merchant_id: number; idx: string; name: string; role: MerchantRole }>(
    `SELECT u.id, u.merchant_id, m.idx, m.name, u.role FROM merchant_users u JOIN merchants m ON m.id = u.merchant_id
      WHERE u.person_id = $1 AND u.removed_at IS NULL ORDER BY lower(m.name), u.id`,
    [personId],
  );
  return rows.map((r) => ({ userId: Number(r.id), merchantId: Number(r.merchant_id), merchantIdx: r.idx, merchantName: r.name, role: r.role }));
}

/** The present user the person logs in as: of the business they chose last (the first one they joined before any choice). */
export async function findLandingUser(db: Queryable, personId: number): Promise<MerchantUser | undefined> {
  const [user] = await db.query<MerchantUser>(`SELECT ${USER_COLUMNS} FROM ${USERS} WHERE u.person_id = $1 AND u.removed_at IS NULL ORDER BY u.chosen_at DESC NULLS LAST, u.id LIMIT 1`, [personId]);
  return user && normalUser(user);
}

/** The person chose this business (log-in lands on the latest). */
export async function markMembershipChosen(db: Queryable, userId: number, now: Date): Promise<void> {
  await db.query('UPDATE merchant_users SET chosen_at = $2 WHERE id = $1', [userId, now]);
}

/** Whether a team the person belongs to requires two-factor (then they may not turn theirs off). */
export async function anyTeamRequiresTwoFactor(db: Queryable, personId: number): Promise<boolean> {
  const rows = await db.query('SELECT 1 FROM merchant_users u JOIN merchants m ON m.id = u.merchant_id WHERE u.person_id = $1 AND u.removed_at IS NULL AND m.require_two_factor', [personId]);
  return rows.length > 0;
}

/** Sets the team's rule; false when it was so already. */
export async function setRequireTwoFactor(db: Queryable, merchantId: number, required: boolean): Promise<boolean> {
  const rows = await db.query('UPDATE merchants SET require_two_factor = $2 WHERE id = $1 AND require_two_factor <> $2 RETURNING id', [merchantId, required]);
  return rows.length === 1;
}
