// One-time recovery codes for a lost phone: ten per person, shown once, kept as SHA-256 (each code
// carries 50 random bits, so a fast hash is enough: there is nothing to guess from it).
import { createHash, randomBytes } from 'node:crypto';

export const RECOVERY_CODE_COUNT = 10;
const ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789';

/** `xxxxx-xxxxx`, lower case without look-alikes (0/o, 1/l/i). */
export function newRecoveryCodes(): string[] {
  return Array.from({ length: RECOVERY_CODE_COUNT }, () => {
    const chars = [...randomBytes(10)].map((b) => ALPHABET[b % ALPHABET.length]).join('');
    return `${chars.slice(0, 5)}-${chars.slice(5)}`;
  });
}

/** What is stored and looked up; a typed code is forgiven its case, spaces and a missing dash. */
export function hashRecoveryCode(code: string): string {
  const normal = code.toLowerCase().replace(/[^a-z0-9]/g, '');
  return createHash('sha256').update(`recovery:${normal.slice(0, 5)}-${normal.slice(5)}`).digest('hex');
}

/** Does a typed value look like a recovery code (rather than a 6-digit TOTP code)? */
export const looksLikeRecoveryCode = (value: string) => value.toLowerCase().replace(/[^a-z0-9]/g, '').length === 10;
