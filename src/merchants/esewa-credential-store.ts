// The SQL of eSewa credentials. The secret keys are stored sealed (secrets/seal.ts), never in the clear.
import type { Queryable } from '../db/db.js';
import type { Environment } from '../environment.js';
import type { Merchant } from './merchant.js';
import { MERCHANT_COLUMNS } from './merchant-store.js';

export interface EsewaCredentialRow {
  product_code: string;
  merchant_id: number;
  environment: Environment;
  secret_key_sealed: string;
  secret_key_prefix: string;
  previous_secret_key_sealed: string | null;
  previous_revokes_at: Date | null;
  published: boolean;
  created_at: Date;
  rotated_at: Date | null;
}

const COLUMNS = `c.product_code, c.merchant_id, c.environment, c.secret_key_sealed, c.secret_key_prefix, c.previous_secret_key_sealed,
  c.previous_revokes_at, c.published, c.created_at, c.rotated_at`;

/** A merchant's own credential must be new (a conflict is an error); the published pair is added once (`published`: kept if there). */
export async function insertEsewaCredential(
  db: Queryable,
  row: { productCode: string; merchantId: number; environment: Environment; sealed: string; prefix: string; published: boolean; now: Date },
): Promise<void> {
  await db.query(
    `INSERT INTO esewa_credentials (product_code, merchant_id, environment, secret_key_sealed, secret_key_prefix, published, created_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7)${row.published ? ' ON CONFLICT (product_code) DO NOTHING' : ''}`,
    [row.productCode, row.merchantId, row.environment, row.sealed, row.prefix, row.published, row.now],
  );
}

/** A product code's credential and its merchant, in one indexed read. */
export async function findEsewaCredentialRow(db: Queryable, productCode: string): Promise<(EsewaCredentialRow & { merchant: Merchant }) | undefined> {
  const rows = await db.query<EsewaCredentialRow & Merchant & { m_created_at: Date }>(
    `SELECT ${COLUMNS}, ${MERCHANT_COLUMNS.replace('m.created_at', 'm.created_at AS m_created_at')}
       FROM esewa_credentials c JOIN merchants m ON m.id = c.merchant_id WHERE c.product_code = $1`,
    [productCode],
  );
  const row = rows[0];
  if (!row) return undefined;
  const merchant: Merchant = { id: row.id, idx: row.idx, name: row.name, email: row.email, mobile: row.mobile, fee_bps: row.fee_bps, created_at: row.m_created_at, status: row.status, status_reason: row.status_reason };
  return { ...pick(row), merchant };
}

const pick = (row: EsewaCredentialRow): EsewaCredentialRow => ({
  product_code: row.product_code,
  merchant_id: row.merchant_id,
  environment: row.environment,
  secret_key_sealed: row.secret_key_sealed,
  secret_key_prefix: row.secret_key_prefix,
  previous_secret_key_sealed: row.previous_secret_key_sealed,
  previous_revokes_at: row.previous_revokes_at,
  published: row.published,
  created_at: row.created_at,
  rotated_at: row.rotated_at,
});

/** The merchant's own credentials (not the published test pair), test first. */
export async function selectEsewaCredentials(db: Queryable, merchantId: number): Promise<EsewaCredentialRow[]> {
  return db.query<EsewaCredentialRow>(`SELECT ${COLUMNS} FROM esewa_credentials c WHERE c.merchant_id = $1 AND NOT c.published ORDER BY c.environment DESC`, [merchantId]);
}

/** The merchant's own credential of one environment, locked for a rotation. */
export async function lockEsewaCredential(db: Queryable, merchantId: number, environment: Environment): Promise<EsewaCredentialRow | undefined> {
  const rows = await db.query<EsewaCredentialRow>(
    `SELECT ${COLUMNS} FROM esewa_credentials c WHERE c.merchant_id = $1 AND c.environment = $2 AND NOT c.published FOR UPDATE`,
    [merchantId, environment],
  );
  return rows[0];
}

/** A new secret key; the one it replaces keeps working until `previousRevokesAt` (null: stops at once). */
export async function replaceEsewaSecretKey(
  db: Queryable,
  row: { productCode: string; sealed: string; prefix: string; previousSealed: string | null; previousRevokesAt: Date | null; now: Date },
): Promise<void> {
  await db.query(
    `UPDATE esewa_credentials SET secret_key_sealed = $2, secret_key_prefix = $3, previous_secret_key_sealed = $4, previous_revokes_at = $5, rotated_at = $6
      WHERE product_code = $1`,
    [row.productCode, row.sealed, row.prefix, row.previousSealed, row.previousRevokesAt, row.now],
  );
}
