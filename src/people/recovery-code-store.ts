// The SQL of recovery codes, for every kind of account that has two-factor (operators, the people of merchants' teams).
import type { Queryable } from '../db/db.js';

export type RecoveryAccountKind = 'operator' | 'merchant_person';

export async function replaceRecoveryCodes(db: Queryable, kind: RecoveryAccountKind, accountId: number, codeHashes: string[]): Promise<void> {
  await deleteRecoveryCodes(db, kind, accountId);
  for (const hash of codeHashes) await db.query('INSERT INTO recovery_codes (account_kind, account_id, code_hash) VALUES ($1, $2, $3)', [kind, accountId, hash]);
}

/** Two-factor turned off: the codes go with it. */
export async function deleteRecoveryCodes(db: Queryable, kind: RecoveryAccountKind, accountId: number): Promise<void> {
  await db.query('DELETE FROM recovery_codes WHERE account_kind = $1 AND account_id = $2', [kind, accountId]);
}

/** Uses a recovery code: true exactly once per code. */
export async function useRecoveryCode(db: Queryable, kind: RecoveryAccountKind, accountId: number, codeHash: string, now: Date): Promise<boolean> {
  const rows = await db.query(
    'UPDATE recovery_codes SET used_at = $4 WHERE account_kind = $1 AND account_id = $2 AND code_hash = $3 AND used_at IS NULL RETURNING code_hash',
    [kind, accountId, codeHash, now],
  );
  return rows.length === 1;
}

export async function countUnusedRecoveryCodes(db: Queryable, kind: RecoveryAccountKind, accountId: number): Promise<number> {
  const [row] = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM recovery_codes WHERE account_kind = $1 AND account_id = $2 AND used_at IS NULL', [kind, accountId]);
  return row.n;
}
