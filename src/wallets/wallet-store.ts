import type { Queryable } from '../db/db.js';
import type { Environment } from '../environment.js';
import type { Wallet } from './wallet.js';

export const walletColumns = 'id, idx, environment, mobile, name, mpin_hash, sandbox, created_at';

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
