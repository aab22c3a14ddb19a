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
