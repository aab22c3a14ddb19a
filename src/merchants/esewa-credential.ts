// A merchant's eSewa credentials: per environment a product code, which
// selects the merchant and the environment, and an HMAC secret key that signs both ways. Pure: the
// rules of their form; the store is esewa-credential-store.ts.
import { randomBytes, randomInt } from 'node:crypto';
import type { Environment } from '../environment.js';

/** eSewa's published test pair: the demo merchant answers to it, in the test environment only. */
export const ESEWA_TEST_PAIR = { productCode: 'EPAYTEST', secretKey: '8gBm/:&EnhH.1/q' } as const;

const CODE_ALPHABET = '0123456789ABCDEFGHJKLMNPQRSTUVWXYZ';

/** `BK-TEST-7QX3M2PA` / `BK-LIVE-…`: upper-case like eSewa's codes, the environment readable in it. */
export function generateProductCode(environment: Environment): string {
  const tail = Array.from({ length: 8 }, () => CODE_ALPHABET[randomInt(CODE_ALPHABET.length)]).join('');
  return `BK-${environment.toUpperCase()}-${tail}`;
}

/** 32 characters of base64url (192 bits): text, as eSewa's keys are, used as the HMAC key as it is. */
export function generateEsewaSecretKey(): string {
  return randomBytes(24).toString('base64url');
}

/** What people see of a secret key after it was shown once. */
export function esewaKeyPrefix(secretKey: string): string {
  return `${secretKey.slice(0, 4)}…`;
}

/** Binds a sealed secret key to its product code (secrets/seal.ts): copied to another row, it does not open. */
export const sealContext = (productCode: string) => `esewa_credentials:${productCode}`;

/** A credential as the door uses it: the secret keys opened, the one signing first. */
export interface EsewaCredential {
  productCode: string;
  merchantId: number;
  environment: Environment;
  /** The current key, then the one it replaced while its grace period lasts: a form signed with either is accepted. */
  secretKeys: string[];
  /** eSewa's published test pair (the demo merchant), not a key of the merchant's own. */
  published: boolean;
}
