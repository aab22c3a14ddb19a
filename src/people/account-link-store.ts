// The SQL of single-use links e-mailed to the people of merchants' teams (verify the e-mail, reset the password).
// Found by the SHA-256 of the link's token.
import type { Queryable } from '../db/db.js';

export type LinkPurpose = 'verify_email' | 'reset_password';

/** A new link; the person's older unused links of this purpose stop working. */
export async function insertLink(db: Queryable, row: { tokenHash: string; personId: number; purpose: LinkPurpose; now: Date; expiresAt: Date }): Promise<void> {
  await db.query('DELETE FROM merchant_user_links WHERE person_id = $1 AND purpose = $2', [row.personId, row.purpose]);
  await db.query('INSERT INTO merchant_user_links (token_hash, person_id, purpose, created_at, expires_at) VALUES ($1, $2, $3, $4, $5)', [
    row.tokenHash,
    row.personId,
    row.purpose,
    row.now,
    row.expiresAt,
  ]);
}

/** The person a link names if it can still be used at `now` (unused, unexpired). */
export async function findUsableLink(db: Queryable, tokenHash: string, purpose: LinkPurpose, now: Date): Promise<{ personId: number; email: string } | undefined> {
  const [row] = await db.query<{ person_id: number; email: string }>(
    `SELECT l.person_id, p.email FROM merchant_user_links l JOIN merchant_people p ON p.id = l.person_id
      WHERE l.token_hash = $1 AND l.purpose = $2 AND l.used_at IS NULL AND l.expires_at > $3`,
    [tokenHash, purpose, now],
  );
  return row && { personId: Number(row.person_id), email: row.email };
}

/** Spends a link if it still can be: exactly one caller wins. */
export async function useLink(db: Queryable, tokenHash: string, purpose: LinkPurpose, now: Date): Promise<number | undefined> {
  const [row] = await db.query<{ person_id: number }>(
    'UPDATE merchant_user_links SET used_at = $3 WHERE token_hash = $1 AND purpose = $2 AND used_at IS NULL AND expires_at > $3 RETURNING person_id',
    [tokenHash, purpose, now],
  );
  return row && Number(row.person_id);
}
