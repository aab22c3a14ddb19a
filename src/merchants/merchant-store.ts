import type { Queryable } from '../db/db.js';
import type { Environment } from '../environment.js';
import type { ApprovalStatus, Merchant } from './merchant.js';

export const MERCHANT_COLUMNS = 'm.id, m.idx, m.name, m.email, m.mobile, m.fee_bps, m.created_at, m.status, m.status_reason';

export async function insertMerchant(
  db: Queryable,
  row: { idx: string; name: string; email: string; mobile: string; feeBps: number; status: ApprovalStatus; now: Date },
): Promise<Merchant> {
  const [merchant] = await db.query<Merchant>(
    `INSERT INTO merchants AS m (idx, name, email, mobile, fee_bps, status, status_changed_at, created_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $7) RETURNING ${MERCHANT_COLUMNS}`,
    [row.idx, row.name, row.email, row.mobile, row.feeBps, row.status, row.now],
  );
  return merchant;
}

export async function insertSecretKey(
  db: Queryable,
  row: { merchantId: number; environment: Environment; keyHash: string; prefix: string; now: Date },
): Promise<number> {
  const [key] = await db.query<{ id: number }>(
    `INSERT INTO secret_keys (merchant_id, environment, key_hash, prefix, created_at) VALUES ($1, $2, $3, $4, $5) RETURNING id`,
    [row.merchantId, row.environment, row.keyHash, row.prefix, row.now],
  );
  return key.id;
}

export interface SecretKeyOwner {
  keyId: number;
  keyHash: string;
  environment: Environment;
  revokedAt: Date | null;
  merchant: Merchant;
}

/** One indexed read by hash: no table scan, whatever the number of keys. */
export async function findSecretKeyOwner(db: Queryable, keyHash: string): Promise<SecretKeyOwner | undefined> {
  const rows = await db.query<Merchant & { key_id: number; key_hash: string; environment: Environment; revoked_at: Date | null }>(
    `SELECT ${MERCHANT_COLUMNS}, k.id AS key_id, k.key_hash, k.environment, k.revoked_at
       FROM secret_keys k JOIN merchants m ON m.id = k.merchant_id
      WHERE k.key_hash = $1`,
    [keyHash],
  );
  const row = rows[0];
  if (!row) return undefined;
  const { key_id, key_hash, environment, revoked_at, ...merchant } = row;
  return { keyId: key_id, keyHash: key_hash, environment, revokedAt: revoked_at, merchant };
}

export async function revokeSecretKey(db: Queryable, keyId: number, at: Date): Promise<void> {
  await db.query('UPDATE secret_keys SET revoked_at = $2 WHERE id = $1 AND (revoked_at IS NULL OR revoked_at > $2)', [keyId, at]);
}

export async function touchSecretKey(db: Queryable, keyId: number, at: Date): Promise<void> {
  await db.query('UPDATE secret_keys SET last_used_at = $2 WHERE id = $1', [keyId, at]);
}

export async function findMerchantById(db: Queryable, id: number): Promise<Merchant | undefined> {
  const rows = await db.query<Merchant>(`SELECT ${MERCHANT_COLUMNS} FROM merchants m WHERE m.id = $1`, [id]);
  return rows[0];
}

export async function findMerchantByIdx(db: Queryable, idx: string): Promise<Merchant | undefined> {
  const rows = await db.query<Merchant>(`SELECT ${MERCHANT_COLUMNS} FROM merchants m WHERE m.idx = $1`, [idx]);
  return rows[0];
}

/** Sets the fee; returns the merchant and the fee it had, or undefined for an unknown idx. */
export async function updateMerchantFee(db: Queryable, idx: string, feeBps: number): Promise<{ before: number; merchant: Merchant } | undefined> {
  const rows = await db.query<Merchant & { before: number }>(
    `WITH current AS (SELECT id, fee_bps FROM merchants WHERE idx = $1 FOR UPDATE)
     UPDATE merchants m SET fee_bps = $2 FROM current c WHERE m.id = c.id
     RETURNING ${MERCHANT_COLUMNS}, c.fee_bps AS before`,
    [idx, feeBps],
  );
  if (!rows[0]) return undefined;
  const { before, ...merchant } = rows[0];
  return { before, merchant };
}
