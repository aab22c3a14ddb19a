import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { displayPrefix, generateSecretKey, hashesEqual, hashSecretKey, keyEnvironment } from './secret-key.js';

describe('generateSecretKey', () => {
  it('makes test_secret_key_<32 hex> and live_secret_key_<32 hex>', () => {
    expect(generateSecretKey('test')).toMatch(/^test_secret_key_[0-9a-f]{32}$/);
    expect(generateSecretKey('live')).toMatch(/^live_secret_key_[0-9a-f]{32}$/);
  });

  it('never makes the same key twice', () => {
    const keys = new Set(Array.from({ length: 1000 }, () => generateSecretKey('test')));
    expect(keys.size).toBe(1000);
  });
});

describe('keyEnvironment', () => {
  it('reads the environment from the prefix', () => {
    expect(keyEnvironment(generateSecretKey('test'))).toBe('test');
    expect(keyEnvironment(generateSecretKey('live'))).toBe('live');
  });

  it.each([
    ['empty', ''],
    ['the prefix alone', 'test_secret_key_'],
    ['31 hex', `test_secret_key_${'a'.repeat(31)}`],
    ['33 hex', `test_secret_key_${'a'.repeat(33)}`],
    ['upper-case hex', `test_secret_key_${'A'.repeat(32)}`],
    ['an upper-case prefix', `TEST_SECRET_KEY_${'a'.repeat(32)}`],
    ['another environment', `prod_secret_key_${'a'.repeat(32)}`],
    ['a public key', `test_public_key_${'a'.repeat(32)}`],
    ['surrounding space', ` test_secret_key_${'a'.repeat(32)} `],
    ['a trailing newline', `test_secret_key_${'a'.repeat(32)}\n`],
    ['non-hex characters', `test_secret_key_${'g'.repeat(32)}`],
  ])('rejects a malformed key: %s', (_name, key) => {
    expect(keyEnvironment(key)).toBeUndefined();
  });
});

describe('hashSecretKey', () => {
  it('is the SHA-256 of the key, in hex', () => {
    const key = `test_secret_key_${'0123456789abcdef'.repeat(2)}`;
    expect(hashSecretKey(key)).toBe(createHash('sha256').update(key).digest('hex'));
    expect(hashSecretKey(key)).toMatch(/^[0-9a-f]{64}$/);
  });

  it('is stable, and differs between keys', () => {
    const key = generateSecretKey('test');
    expect(hashSecretKey(key)).toBe(hashSecretKey(key));
    expect(hashSecretKey(key)).not.toBe(hashSecretKey(generateSecretKey('test')));
  });

  it('tells a test key from the live key with the same hex', () => {
    const hex = 'f'.repeat(32);
    expect(hashSecretKey(`test_secret_key_${hex}`)).not.toBe(hashSecretKey(`live_secret_key_${hex}`));
  });
});

describe('hashesEqual', () => {
  it('compares hashes', () => {
    const a = hashSecretKey(generateSecretKey('test'));
    const b = hashSecretKey(generateSecretKey('test'));
    expect(hashesEqual(a, a)).toBe(true);
    expect(hashesEqual(a, b)).toBe(false);
  });

  it('answers false, without throwing, for hashes of another length', () => {
    const a = hashSecretKey(generateSecretKey('test'));
    expect(hashesEqual(a, a.slice(0, 62))).toBe(false);
    expect(hashesEqual(a, '')).toBe(false);
  });
});

describe('displayPrefix', () => {
  it('keeps the environment prefix and 6 hex digits, never the whole key', () => {
    const key = `live_secret_key_${'0123456789abcdef'.repeat(2)}`;
    expect(displayPrefix(key)).toBe('live_secret_key_012345…');
  });

  it('tells keys apart at a glance', () => {
    expect(displayPrefix(`test_secret_key_abcdef${'0'.repeat(26)}`)).not.toBe(displayPrefix(`test_secret_key_123456${'0'.repeat(26)}`));
  });
});
