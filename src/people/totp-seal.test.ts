// TOTP secrets are sealed by secrets/seal.ts like every secret at rest, bound to their kind of
// account; a secret sealed in the format before (`v1`, under the store's `totp-seal` key) still opens.
import { randomBytes, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestDb } from '../../test/test-app.js';
import type { Db } from '../db/db.js';
import { storeServerValue } from '../http/server-secret.js';
import { keyId, openV1, SealError } from '../secrets/seal.js';
import { openTotpSecret, sealTotpSecret } from './totp-seal.js';

let db: Db;
beforeAll(async () => {
  db = await openTestDb();
});
afterAll(() => db.close());

const SECRET = 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP';
const withoutSecretsKey = { config: { secretsKey: undefined } };

// Written by the sealing code before this one (main at 30648d9, src/people/totp-seal.ts) under this key.
const V1_KEY = 'hbs-c1RxfFVfu9pUSctU_7HJNt-wEw3sKkXQ9Q-2OuA';
const V1_SEALED = 'v1.x4nTDs9JBXPDXAKo.huOWUnjmij5oDzefUdAlhA.4XCJX9IiTfpXm87ImAtSoh-kqk2sUW_nQ_oEEgm0Ln0';

describe('TOTP secrets at rest', () => {
  it('are sealed in the one format of secrets/seal.ts and open for their own kind of account only', async () => {
    const sealed = await sealTotpSecret(withoutSecretsKey, db, 'operator', SECRET);
    expect(sealed).toMatch(/^s1\.store\./);
    expect(sealed).not.toContain(SECRET);
    expect(await openTotpSecret(withoutSecretsKey, db, 'operator', sealed)).toBe(SECRET);
    await expect(openTotpSecret(withoutSecretsKey, db, 'merchant_person', sealed)).rejects.toThrow(SealError);
  });

  it('are sealed under SECRETS_KEY when it is set, and need it to open', async () => {
    const secretsKey = randomBytes(32);
    const sealed = await sealTotpSecret({ config: { secretsKey } }, db, 'merchant_person', SECRET);
    expect(sealed.split('.')[1]).toBe(keyId(secretsKey));
    expect(await openTotpSecret({ config: { secretsKey } }, db, 'merchant_person', sealed)).toBe(SECRET);
    await expect(openTotpSecret(withoutSecretsKey, db, 'merchant_person', sealed)).rejects.toThrow('sealed with another key');
  });

  it('sealed in the format before still open, and only unaltered with their whole tag', async () => {
    const keyName = `v1-fixture-${randomUUID()}`;
    await storeServerValue(db, keyName, V1_KEY);
    expect(await openV1(db, keyName, V1_SEALED)).toBe(SECRET);
    const [version, iv, tag, data] = V1_SEALED.split('.');
    const flipped = Buffer.from(data, 'base64url').map((b, i) => (i === 0 ? b ^ 1 : b));
    await expect(openV1(db, keyName, [version, iv, tag, Buffer.from(flipped).toString('base64url')].join('.'))).rejects.toThrow(SealError);
    const shortTag = Buffer.from(tag, 'base64url').subarray(0, 4).toString('base64url');
    await expect(openV1(db, keyName, [version, iv, shortTag, data].join('.'))).rejects.toThrow(SealError);
  });
});
