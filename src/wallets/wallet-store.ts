import type { Queryable } from '../db/db.js';
import type { Environment } from '../environment.js';
import { MOBILE_PATTERN, type Wallet } from './wallet.js';

export const walletColumns = 'id, idx, environment, mobile, name, mpin_hash, sandbox, created_at, frozen_at, frozen_reason';

export async function insertWallet(
  db: Queryable,
  row: { idx: string; environment: Environment; mobile: string; name: string; mpinHash: string | null; sandbox: boolean; now: Date },
): Promise<Wallet | undefined> {
  const rows = await db.query<Wallet>(
    `INSERT INTO wallets (idx, environment, mobile, name, mpin_hash, sandbox, created_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT (environment, mobile) DO NOTHING RETURNING ${walletColumns}`,
    [row.idx, row.environment, row.mobile, row.name, row.mpinHash, row.sandbox, row.now],
  );
  return rows[0];
}

export async function findWallet(db: Queryable, environment: Environment, mobile: string): Promise<Wallet | undefined> {
  const rows = await db.query<Wallet>(`SELECT ${walletColumns} FROM wallets WHERE environment = $1 AND mobile = $2`, [environment, mobile]);
  return rows[0];
}


export interface MpinFailures {
  failures: number;
  locked_until: Date | null;
}

export async function findMpinFailures(db: Queryable, walletId: number, scope: string): Promise<MpinFailures> {
  const rows = await db.query<MpinFailures>('SELECT failures, locked_until FROM mpin_failures WHERE wallet_id = $1 AND scope = $2', [walletId, scope]);
  return rows[0] ?? { failures: 0, locked_until: null };
}

/**
 * Counts one wrong MPIN atomically; the count restarts after an expired lock. At `max` failures
 * the wallet (or, for sandbox wallets, this payment's use of it) is locked until `lockUntil`.
 */
export async function recordMpinFailure(
  db: Queryable,
  walletId: number,
  scope: string,
  options: { now: Date; max: number; lockUntil: Date },
): Promise<MpinFailures> {
  const [row] = await db.query<MpinFailures>(
    `INSERT INTO mpin_failures AS f (wallet_id, scope, failures, locked_until) VALUES ($1, $2, 1, NULL)
     ON CONFLICT (wallet_id, scope) DO UPDATE SET
       failures = CASE WHEN f.locked_until IS NOT NULL AND f.locked_until <= $3 THEN 1 ELSE f.failures + 1 END,
       locked_until = CASE
         WHEN f.locked_until IS NOT NULL AND f.locked_until <= $3 THEN NULL
         WHEN f.failures + 1 >= $4 THEN $5::timestamptz
         ELSE f.locked_until END
     RETURNING failures, locked_until`,
    [walletId, scope, options.now, options.max, options.lockUntil],
  );
  return row;
}

export async function clearMpinFailures(db: Queryable, walletId: number, scope: string): Promise<void> {
  await db.query('DELETE FROM mpin_failures WHERE wallet_id = $1 AND scope = $2', [walletId, scope]);
}

/** Whether any wallet can take real money (decides whether OTP_SENDER=log may start). */
export async function liveWalletExists(db: Queryable): Promise<boolean> {
  const rows = await db.query<{ found: boolean }>(`SELECT EXISTS (SELECT 1 FROM wallets WHERE environment = 'live' AND NOT sandbox) AS found`);
  return rows[0].found;
}

export async function findWalletByIdx(db: Queryable, idx: string): Promise<Wallet | undefined> {
  const rows = await db.query<Wallet>(`SELECT ${walletColumns} FROM wallets WHERE idx = $1`, [idx]);
  return rows[0];
}

/**
 * Newest first. A whole mobile number is one lookup in the unique (environment, mobile) index; a
 * number's first digits narrow by prefix, which reads the table (the console's browsing, not a hot path).
 */
export async function listWallets(db: Queryable, filter: { environment?: Environment; mobile?: string; limit: number }): Promise<Wallet[]> {
  const params: unknown[] = [];
  const where: string[] = [];
  const mobile = filter.mobile?.replace(/[\\%_]/g, '') ?? '';
  if (MOBILE_PATTERN.test(mobile)) {
    where.push(`environment = ANY($${params.push(filter.environment ? [filter.environment] : ['live', 'test'])}::text[]) AND mobile = $${params.push(mobile)}`);
  } else {
    if (filter.environment) where.push(`environment = $${params.push(filter.environment)}`);
    if (mobile) where.push(`mobile LIKE $${params.push(`${mobile}%`)}`);
  }
  return db.query<Wallet>(
    `SELECT ${walletColumns} FROM wallets ${where.length ? `WHERE ${where.join(' AND ')}` : ''} ORDER BY id DESC LIMIT $${params.push(filter.limit)}`,
    params,
  );
}

/**
 * Freezes (reason given) or unfreezes (null) a wallet that is not in that state already; sandbox
 * wallets never. The updated wallet, or undefined when the move did not apply.
 */
export async function setWalletFrozen(db: Queryable, walletId: number, frozen: { at: Date; reason: string } | null): Promise<Wallet | undefined> {
  const rows = await db.query<Wallet>(
    frozen
      ? `UPDATE wallets SET frozen_at = $2, frozen_reason = $3 WHERE id = $1 AND frozen_at IS NULL AND NOT sandbox RETURNING ${walletColumns}`
      : `UPDATE wallets SET frozen_at = NULL, frozen_reason = NULL WHERE id = $1 AND frozen_at IS NOT NULL RETURNING ${walletColumns}`,
    frozen ? [walletId, frozen.at, frozen.reason] : [walletId],
  );
  return rows[0];
}
