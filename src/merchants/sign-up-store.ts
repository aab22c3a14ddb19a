// The SQL of sign-ups waiting for their e-mail's link (merchant_sign_ups). Found by the SHA-256 of
// the link's token.
import type { Queryable } from '../db/db.js';

export interface SignUpRow {
  name: string;
  email: string;
  password_hash: string;
  expires_at: Date;
}

export async function insertSignUp(db: Queryable, row: { tokenHash: string; name: string; email: string; passwordHash: string; now: Date; expiresAt: Date }): Promise<void> {
  // This address's sign-ups never finished are of no use once their link has expired.
  await db.query('DELETE FROM merchant_sign_ups WHERE lower(email) = lower($1) AND expires_at <= $2', [row.email, row.now]);
  await db.query('INSERT INTO merchant_sign_ups (token_hash, name, email, password_hash, created_at, expires_at) VALUES ($1, $2, $3, $4, $5, $6)', [
    row.tokenHash,
    row.name,
    row.email,
    row.passwordHash,
    row.now,
    row.expiresAt,
  ]);
}

/** The sign-up a link names, while it can be finished at `now`. */
export async function findUsableSignUp(db: Queryable, tokenHash: string, now: Date): Promise<SignUpRow | undefined> {
  const [row] = await db.query<SignUpRow>('SELECT name, email, password_hash, expires_at FROM merchant_sign_ups WHERE token_hash = $1 AND used_at IS NULL AND expires_at > $2', [tokenHash, now]);
  return row;
}

/** Spends the link if it still can be: exactly one caller wins. */
export async function useSignUp(db: Queryable, tokenHash: string, now: Date): Promise<SignUpRow | undefined> {
  const [row] = await db.query<SignUpRow>(
    'UPDATE merchant_sign_ups SET used_at = $2 WHERE token_hash = $1 AND used_at IS NULL AND expires_at > $2 RETURNING name, email, password_hash, expires_at',
    [tokenHash, now],
  );
  return row;
}
