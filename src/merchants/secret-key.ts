// Secret keys: `test_secret_key_<32 hex>` / `live_secret_key_<32 hex>`. Only a SHA-256 hash and a
// short display prefix are stored; the full key is shown once, when it is made.
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Environment } from '../environment.js';

const KEY_PATTERN = /^(test|live)_secret_key_[0-9a-f]{32}$/;

export function generateSecretKey(environment: Environment): string {
  return `${environment}_secret_key_${randomBytes(16).toString('hex')}`;
}

/** The environment a well-formed key selects, or undefined for anything else. */
export function keyEnvironment(key: string): Environment | undefined {
  const match = KEY_PATTERN.exec(key);
  return match ? (match[1] as Environment) : undefined;
}

export function hashSecretKey(key: string): string {
  return createHash('sha256').update(key).digest('hex');
}

/** What people see of a key after it was shown once: enough to tell keys apart. */
export function displayPrefix(key: string): string {
  return `${key.slice(0, 'test_secret_key_'.length + 6)}…`;
}

export function hashesEqual(a: string, b: string): boolean {
  const left = Buffer.from(a, 'hex');
  const right = Buffer.from(b, 'hex');
  return left.length === right.length && timingSafeEqual(left, right);
}
