// The SQL of listing and rotating secret keys (the key lookup by hash is in merchant-store.ts).
import type { Queryable } from '../db/db.js';
import type { Environment } from '../environment.js';

export interface SecretKeyRow {
  id: number;
  environment: Environment;
  prefix: string;
  created_at: Date;
  last_used_at: Date | null;
  revoked_at: Date | null;
}

export async function selectSecretKeys(db: Queryable, merchantId: number): Promise<SecretKeyRow[]> {
  return db.query<SecretKeyRow>(
    `SELECT id, environment, prefix, created_at, last_used_at, revoked_at FROM secret_keys
      WHERE merchant_id = $1 ORDER BY environment DESC, created_at DESC, id DESC`,
    [merchantId],
  );
}

/** Revokes at `at` every key of the environment that would otherwise work longer; returns their ids. */
export async function revokeEnvironmentKeys(db: Queryable, merchantId: number, environment: Environment, at: Date): Promise<number[]> {
  const rows = await db.query<{ id: number }>(
    `UPDATE secret_keys SET revoked_at = $3
      WHERE merchant_id = $1 AND environment = $2 AND (revoked_at IS NULL OR revoked_at > $3) RETURNING id`,
    [merchantId, environment, at],
  );
  return rows.map((r) => r.id);
}

/** Serialises rotations of one merchant's keys (two at once would leave two new keys working). */
export async function lockMerchantKeys(db: Queryable, merchantId: number): Promise<void> {
  await db.query('SELECT id FROM merchants WHERE id = $1 FOR UPDATE', [merchantId]);
}
