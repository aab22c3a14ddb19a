// TOTP two-factor (RFC 6238: 6 digits, 30 s steps, SHA-1 — what authenticator apps use). A code
// of the step before or after is accepted too (clocks drift); the step accepted is returned so the
// caller can refuse any code of that step or an earlier one again.
import { Secret, TOTP } from 'otpauth';

const PERIOD_SECONDS = 30;
const ISSUER = 'Bhuktani';

function totpOf(base32Secret: string, label = ''): TOTP {
  return new TOTP({ issuer: ISSUER, label, algorithm: 'SHA1', digits: 6, period: PERIOD_SECONDS, secret: Secret.fromBase32(base32Secret) });
}

/** A new random secret (160 bits, as RFC 4226 recommends), base32 as apps take it typed in. */
export function newTotpSecret(): string {
  return new Secret({ size: 20 }).base32;
}

/** The `otpauth://totp/…` URI an app reads from the QR code. */
export function totpUri(base32Secret: string, accountName: string): string {
  return totpOf(base32Secret, accountName).toString();
}

/** The time step a code is valid in (±1 around `now`), or undefined for a wrong or malformed code. */
export function totpStepOf(base32Secret: string, code: string, now: Date): number | undefined {
  const token = code.replace(/\s+/g, '');
  if (!/^\d{6}$/.test(token)) return undefined;
  const delta = totpOf(base32Secret).validate({ token, timestamp: now.getTime(), window: 1 });
  if (delta === null) return undefined;
  return Math.floor(now.getTime() / 1000 / PERIOD_SECONDS) + delta;
}

/** The code of `now` (for tests and the CLI's own checks). */
export function totpCode(base32Secret: string, now: Date): string {
  return totpOf(base32Secret).generate({ timestamp: now.getTime() });
}
