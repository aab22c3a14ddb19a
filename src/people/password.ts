import { randomBytes, scrypt as scryptCallback, timingSafeEqual, type ScryptOptions } from 'node:crypto';

const scrypt = (password: string, salt: Buffer, keylen: number, options: ScryptOptions) =>
  new Promise<Buffer>((resolve, reject) =>
    scryptCallback(password, salt, keylen, options, (error, key) => (error ? reject(error) : resolve(key))),
  );

/** scrypt's cost in every process of the service. */
const PRODUCTION = { N: 16384, r: 8, p: 1 };
/** A 16th of the work, for the in-process test suites (test/cheap-passwords.ts). */
const TESTS = { N: 1024, r: 8, p: 1 };
let PARAMS = PRODUCTION;

/**
 * The cost new hashes are made with. The in-process test suites take the cheap one, as Rails' test
 * environment takes bcrypt's least cost: a hash carries its own parameters, so every hash still
 * verifies whichever cost made it. Nothing in src/ calls this: the service always hashes at
 * PRODUCTION's cost, and so do the processes the tests start (the server, the CLI).
 */
export function usePasswordCost(cost: 'production' | 'tests'): void {
  PARAMS = cost === 'production' ? PRODUCTION : TESTS;
}
const KEY_LENGTH = 32;

/** What an account nobody may log in to stores (the demo merchant): no password matches it. */
export const NO_PASSWORD = '!';

/** `scrypt$N$r$p$salt$hash`, base64url parts, so the parameters can be raised later. */
export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const hash = await scrypt(password, salt, KEY_LENGTH, PARAMS);
  return ['scrypt', PARAMS.N, PARAMS.r, PARAMS.p, salt.toString('base64url'), hash.toString('base64url')].join('$');
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [scheme, n, r, p, salt, hash] = stored.split('$');
  if (scheme !== 'scrypt' || !salt || !hash) return false;
  const expected = Buffer.from(hash, 'base64url');
  const actual = await scrypt(password, Buffer.from(salt, 'base64url'), expected.length, { N: Number(n), r: Number(r), p: Number(p) });
  return timingSafeEqual(actual, expected);
}
