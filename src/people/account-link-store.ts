// The SQL of single-use links e-mailed to merchant users (verify the e-mail, reset the password).
// Found by the SHA-256 of the link's token.
import type { Queryable } from '../db/db.js';

export type LinkPurpose = 'verify_email' | 'reset_password';

/** A new link; the user's older unused links of this purpose stop working. */
export async function insertLink(db: Queryable, row: { tokenHash: string; userId: number; purpose: LinkPurpose; now: Date; expiresAt: Date }): Promise<void> {
  await db.query('DELETE FROM merchant_user_links WHERE user_id = $1 AND purpose = $2', [row.userId, row.purpose]);
  await db.query('INSERT INTO merchant_user_links (token_hash, user_id, purpose, created_at, expires_at) VALUES ($1, $2, $3, $4, $5)', [
    row.tokenHash,
    row.userId,
    row.purpose,
    row.now,
    row.expiresAt,
  ]);
}

/** The user a link names if it can still be used at `now` (unused, unexpired, the user present). */
export async function findUsableLink(db: Queryable, tokenHash: string, purpose: LinkPurpose, now: Date): Promise<{ userId: number; email: string } | undefined> {
  const [row] = await db.query<{ user_id: number; email: string }>(
    `SELECT l.user_id, u.email FROM merchant_user_links l JOIN merchant_users u ON u.id = l.user_id
      WHERE l.token_hash = $1 AND l.purpose = $2 AND l.used_at IS NULL AND l.expires_at > $3 AND u.removed_at IS NULL`,
    [tokenHash, purpose, now],
  );
  return row && { userId: Number(row.user_id), email: row.email };
}

/** Spends a link if it still can be: exactly one caller wins. */
export async function useLink(db: Queryable, tokenHash: string, purpose: LinkPurpose, now: Date): Promise<number | undefined> {
  const [row] = await db.query<{ user_id: number }>(
    'UPDATE merchant_user_links SET used_at = $3 WHERE token_hash = $1 AND purpose = $2 AND used_at IS NULL AND expires_at > $3 RETURNING user_id',
    [tokenHash, purpose, now],
  );
  return row && Number(row.user_id);
}
