// The SQL of merchant users. Password hashes and sealed TOTP secrets leave this file only where a
// use case needs them to check a log-in.
import type { Queryable } from '../db/db.js';
import type { Merchant } from './merchant.js';
import { MERCHANT_COLUMNS } from './merchant-store.js';
import type { MerchantRole, MerchantUser } from './merchant-user.js';

export const USER_COLUMNS = 'u.id, u.merchant_id, u.email, u.role, u.email_verified_at, u.totp_enrolled_at, u.created_at';

export async function insertMerchantUser(
  db: Queryable,
  row: { merchantId: number; email: string; role: MerchantRole; passwordHash: string; emailVerifiedAt: Date | null; now: Date },
): Promise<MerchantUser> {
  const [user] = await db.query<MerchantUser>(
    `INSERT INTO merchant_users AS u (merchant_id, email, role, password_hash, email_verified_at, created_at)
     VALUES ($1, $2, $3, $4, $5, $6) RETURNING ${USER_COLUMNS}`,
    [row.merchantId, row.email, row.role, row.passwordHash, row.emailVerifiedAt, row.now],
  );
  return user;
}

/** The present (not removed) user with this e-mail, whatever its case, with its merchant and password hash. */
export async function findUserForLogIn(db: Queryable, email: string): Promise<{ user: MerchantUser; merchant: Merchant; passwordHash: string } | undefined> {
  const rows = await db.query<Merchant & { u_id: number; u_email: string; role: MerchantRole; email_verified_at: Date | null; totp_enrolled_at: Date | null; u_created_at: Date; password_hash: string }>(
    `SELECT ${MERCHANT_COLUMNS}, u.id AS u_id, u.email AS u_email, u.role, u.email_verified_at, u.totp_enrolled_at, u.created_at AS u_created_at, u.password_hash
       FROM merchant_users u JOIN merchants m ON m.id = u.merchant_id
      WHERE lower(u.email) = lower($1) AND u.removed_at IS NULL`,
    [email],
  );
  const row = rows[0];
  if (!row) return undefined;
  const { u_id, u_email, role, email_verified_at, totp_enrolled_at, u_created_at, password_hash, ...merchant } = row;
  return {
    user: { id: u_id, merchant_id: merchant.id, email: u_email, role, email_verified_at, totp_enrolled_at, created_at: u_created_at },
    merchant,
    passwordHash: password_hash,
  };
}

export interface UserSecrets {
  id: number;
  email: string;
  passwordHash: string;
  /** The sealed TOTP secret: of the app set up (totp_enrolled_at set) or being set up (null). */
  totpSecretSealed: string | null;
  totpEnrolledAt: Date | null;
}

/** A present user's hashes, for checking a code or a password; `forUpdate` locks the row. */
export async function findUserSecrets(db: Queryable, id: number, forUpdate = false): Promise<UserSecrets | undefined> {
  const [row] = await db.query<{ id: number; email: string; password_hash: string; totp_secret_sealed: string | null; totp_enrolled_at: Date | null }>(
    `SELECT id, email, password_hash, totp_secret_sealed, totp_enrolled_at FROM merchant_users WHERE id = $1 AND removed_at IS NULL${forUpdate ? ' FOR UPDATE' : ''}`,
    [id],
  );
  return row && { id: Number(row.id), email: row.email, passwordHash: row.password_hash, totpSecretSealed: row.totp_secret_sealed, totpEnrolledAt: row.totp_enrolled_at };
}

/** The present user with this e-mail, whatever its case (for a password reset). */
export async function findUserByEmail(db: Queryable, email: string): Promise<MerchantUser | undefined> {
  const [user] = await db.query<MerchantUser>(`SELECT ${USER_COLUMNS} FROM merchant_users u WHERE lower(u.email) = lower($1) AND u.removed_at IS NULL`, [email.trim()]);
  return user;
}

/** Moves the last accepted step forward and marks the enrolment done; false when `step` is not after it. */
export async function acceptUserTotpStep(db: Queryable, id: number, step: number, now: Date): Promise<boolean> {
  const rows = await db.query(
    `UPDATE merchant_users SET totp_last_step = $2, totp_enrolled_at = coalesce(totp_enrolled_at, $3)
      WHERE id = $1 AND totp_last_step < $2 AND totp_secret_sealed IS NOT NULL AND removed_at IS NULL RETURNING id`,
    [id, step, now],
  );
  return rows.length === 1;
}

/** A new secret being set up (not yet enrolled); refused (false) once the user is enrolled. */
export async function setPendingTotpSecret(db: Queryable, id: number, sealed: string): Promise<boolean> {
  const rows = await db.query('UPDATE merchant_users SET totp_secret_sealed = $2, totp_last_step = 0 WHERE id = $1 AND totp_enrolled_at IS NULL AND removed_at IS NULL RETURNING id', [id, sealed]);
  return rows.length === 1;
}

export async function clearTotp(db: Queryable, id: number): Promise<void> {
  await db.query('UPDATE merchant_users SET totp_secret_sealed = NULL, totp_enrolled_at = NULL WHERE id = $1', [id]);
}

export async function updateUserPasswordHash(db: Queryable, id: number, passwordHash: string): Promise<void> {
  await db.query('UPDATE merchant_users SET password_hash = $2 WHERE id = $1 AND removed_at IS NULL', [id, passwordHash]);
}

/** Marks the e-mail verified now, unless it was already; false then. */
export async function markEmailVerified(db: Queryable, id: number, now: Date): Promise<boolean> {
  const rows = await db.query('UPDATE merchant_users SET email_verified_at = $2 WHERE id = $1 AND email_verified_at IS NULL RETURNING id', [id, now]);
  return rows.length === 1;
}

/** Sets the team's rule; false when it was so already. */
export async function setRequireTwoFactor(db: Queryable, merchantId: number, required: boolean): Promise<boolean> {
  const rows = await db.query('UPDATE merchants SET require_two_factor = $2 WHERE id = $1 AND require_two_factor <> $2 RETURNING id', [merchantId, required]);
  return rows.length === 1;
}
