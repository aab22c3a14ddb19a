// Sealed secrets: AES-256-GCM under SECRETS_KEY or the store's own key; a value opens only with a
// key it names and in the row it was sealed for; what SECRETS_KEY did not seal keeps opening.
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestDb } from '../../test/test-app.js';
import type { Db } from '../db/db.js';
import { keyId, open, seal, SealError, sealKeys } from './seal.js';

let db: Db;
beforeAll(async () => {
  db = await openTestDb();
});
afterAll(() => db.close());

const SECRET = '8gBm/:&EnhH.1/q';

describe('seal and open', () => {
  it('open what seal made, in the same context; the sealed text holds no part of the secret', async () => {
    const keys = await sealKeys(db, undefined);
    const sealed = seal(keys, SECRET, 'row:A');
    expect(sealed).toMatch(/^s1\.store\.[\w-]+\.[\w-]+\.[\w-]+$/);
    expect(sealed).not.toContain('EnhH');
    expect(open(keys, sealed, 'row:A')).toBe(SECRET);
    expect(seal(keys, SECRET, 'row:A')).not.toBe(sealed);
  });

  it('a value moved to another row, or altered, does not open', async () => {
    const keys = await sealKeys(db, undefined);
    const sealed = seal(keys, SECRET, 'row:A');
    expect(() => open(keys, sealed, 'row:B')).toThrow(SealError);
    const parts = sealed.split('.');
    parts[4] = Buffer.from(Buffer.from(parts[4], 'base64url').map((b, i) => (i === 0 ? b ^ 1 : b))).toString('base64url');
    expect(() => open(keys, parts.join('.'), 'row:A')).toThrow(SealError);
    expect(() => open(keys, 'not sealed', 'row:A')).toThrow(SealError);
  });

  it('SECRETS_KEY seals new values under its fingerprint; the store’s key still opens what it sealed; another SECRETS_KEY opens neither', async () => {
    const before = seal(await sealKeys(db, undefined), SECRET, 'row:A');
    const configured = randomBytes(32);
    const keys = await sealKeys(db, configured);
    const after = seal(keys, SECRET, 'row:A');
    expect(after.split('.')[1]).toBe(keyId(configured));
    expect(after).not.toContain(configured.toString('base64url'));
    expect([open(keys, before, 'row:A'), open(keys, after, 'row:A')]).toEqual([SECRET, SECRET]);
    const other = await sealKeys(db, randomBytes(32));
    expect(() => open(other, after, 'row:A')).toThrow(`sealed with another key (${keyId(configured)})`);
    expect(open(other, before, 'row:A')).toBe(SECRET);
  });
});
