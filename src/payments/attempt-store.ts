import type { Queryable } from '../db/db.js';

export interface PaymentAttempt {
  token: string;
  pidx: string;
  wallet_id: number;
  otp_hash: string;
  otp_expires_at: Date;
  otp_failures: number;
  ended: boolean;
}

export async function insertAttempt(db: Queryable, row: Omit<PaymentAttempt, 'otp_failures' | 'ended'> & { now: Date }): Promise<void> {
  await db.query(
    `WITH attempt AS (
       INSERT INTO payment_attempts (token, pidx, wallet_id, otp_hash, otp_expires_at, created_at) VALUES ($1, $2, $3, $4, $5, $6)
     )
     INSERT INTO payment_events (pidx, occurred_at, event, detail) VALUES ($2, $6, 'otp_sent', '{}')`,
    [row.token, row.pidx, row.wallet_id, row.otp_hash, row.otp_expires_at, row.now],
  );
}

export const attemptColumns = 'token, pidx, wallet_id, otp_hash, otp_expires_at, otp_failures, ended';

/** Counts a wrong OTP; the attempt ends at `max`. */
export async function recordOtpFailure(db: Queryable, token: string, max: number): Promise<{ otp_failures: number; ended: boolean } | undefined> {
  const rows = await db.query<{ otp_failures: number; ended: boolean }>(
    `UPDATE payment_attempts SET otp_failures = otp_failures + 1, ended = otp_failures + 1 >= $2
      WHERE token = $1 AND NOT ended RETURNING otp_failures, ended`,
    [token, max],
  );
  return rows[0];
}

export async function endAttempt(db: Queryable, token: string): Promise<void> {
  await db.query('UPDATE payment_attempts SET ended = true WHERE token = $1', [token]);
}

/** A payer's failed try, for the payment's timeline. */
export async function recordPayerEvent(db: Queryable, pidx: string, at: Date, event: string, detail: Record<string, unknown>): Promise<void> {
  await db.query('INSERT INTO payment_events (pidx, occurred_at, event, detail) VALUES ($1, $2, $3, $4)', [pidx, at, event, JSON.stringify(detail)]);
}
