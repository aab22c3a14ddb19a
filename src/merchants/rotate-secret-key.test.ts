// Rotation as a use case: the new key, the old ones' revocation time, and racing rotations.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newMerchant, startTestApp, type TestApp } from '../../test/test-app.js';
import { keyStatus, listSecretKeys } from './list-secret-keys.js';
import { rotateSecretKey } from './rotate-secret-key.js';

let t: TestApp;

beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

describe('keyStatus', () => {
  it('is active, revoking (a time still to come) or revoked', () => {
    const now = new Date('2026-11-22T00:00:00Z');
    expect(keyStatus(null, now)).toEqual({ name: 'active' });
    expect(keyStatus(new Date('2026-11-22T01:00:00Z'), now).name).toBe('revoking');
    expect(keyStatus(now, now).name).toBe('revoked');
  });
});

describe('rotateSecretKey', () => {
  it('revokes the environment’s keys at now + grace and leaves the other environment alone', async () => {
    const { merchant } = await newMerchant(t.ctx);
    const rotated = await rotateSecretKey(t.ctx, { merchantId: merchant.id, environment: 'live', graceSeconds: 86400 });
    expect(rotated.key).toMatch(/^live_secret_key_[0-9a-f]{32}$/);
    expect(rotated.oldKeysRevokeAt.getTime()).toBe(t.clock.now().getTime() + 86400_000);
    expect(rotated.revokedKeyIds).toHaveLength(1);
    const keys = await listSecretKeys(t.ctx, { merchantId: merchant.id });
    expect(keys.map((k) => [k.environment, k.status.name])).toEqual([
      ['test', 'active'],
      ['live', 'active'],
      ['live', 'revoking'],
    ]);
    expect(keys[1].prefix).toBe(`${rotated.key.slice(0, 22)}…`);
  });

  it('never moves a revocation later: a longer grace after a shorter one keeps the earlier time', async () => {
    const { merchant } = await newMerchant(t.ctx);
    const first = await rotateSecretKey(t.ctx, { merchantId: merchant.id, environment: 'test', graceSeconds: 3600 });
    await rotateSecretKey(t.ctx, { merchantId: merchant.id, environment: 'test', graceSeconds: 604800 });
    const rows = await t.db.query<{ prefix: string; revoked_at: Date | null }>(
      `SELECT prefix, revoked_at FROM secret_keys WHERE merchant_id = $1 AND environment = 'test' ORDER BY id`,
      [merchant.id],
    );
    expect(rows[0].revoked_at!.getTime()).toBe(first.oldKeysRevokeAt.getTime());
    expect(rows[1].revoked_at!.getTime()).toBe(t.clock.now().getTime() + 604800_000);
    expect(rows[2].revoked_at).toBeNull();
  });

  it('racing rotations leave exactly one working key', async () => {
    const { merchant } = await newMerchant(t.ctx);
    await Promise.all(Array.from({ length: 5 }, () => rotateSecretKey(t.ctx, { merchantId: merchant.id, environment: 'test', graceSeconds: 0 })));
    const active = (await listSecretKeys(t.ctx, { merchantId: merchant.id })).filter((k) => k.environment === 'test' && k.status.name === 'active');
    expect(active).toHaveLength(1);
  });
});
