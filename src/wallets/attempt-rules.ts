// How many tries a payer gets. Pure rules; the store keeps the counts.
import { randomInt } from 'node:crypto';

export const MAX_MPIN_FAILURES = 5;
export const MPIN_LOCK_SECONDS = 15 * 60;
export const MAX_OTP_FAILURES = 3;
export const OTP_TTL_SECONDS = 5 * 60;

export function generateOtp(): string {
  return String(randomInt(0, 1_000_000)).padStart(6, '0');
}

export function isLocked(lockedUntil: Date | null, now: Date): boolean {
  return lockedUntil !== null && lockedUntil.getTime() > now.getTime();
}
