// Rotation: a new secret key for one environment, shown once, and the old ones revoked, at once or
// after a grace period so the merchant can deploy the new key before the old one stops working.
import type { AppContext } from '../context.js';
import type { Environment } from '../environment.js';
import { insertSecretKey } from './merchant-store.js';
import { displayPrefix, generateSecretKey, hashSecretKey } from './secret-key.js';
import { lockMerchantKeys, revokeEnvironmentKeys } from './secret-key-store.js';

/** The grace periods offered, in seconds. */
export const ROTATION_GRACE_SECONDS = [0, 60 * 60, 24 * 60 * 60, 7 * 24 * 60 * 60] as const;
export type RotationGrace = (typeof ROTATION_GRACE_SECONDS)[number];

export interface RotatedKey {
  /** The new key in full: shown once, never stored. */
  key: string;
  prefix: string;
  /** When the keys it replaces stop working. */
  oldKeysRevokeAt: Date;
  revokedKeyIds: number[];
}

export async function rotateSecretKey(
  ctx: AppContext,
  options: { merchantId: number; environment: Environment; graceSeconds: RotationGrace },
): Promise<RotatedKey> {
  const now = ctx.clock.now();
  const revokeAt = new Date(now.getTime() + options.graceSeconds * 1000);
  const key = generateSecretKey(options.environment);
  const prefix = displayPrefix(key);
  const revokedKeyIds = await ctx.db.transaction(async (tx) => {
    await lockMerchantKeys(tx, options.merchantId);
    const revoked = await revokeEnvironmentKeys(tx, options.merchantId, options.environment, revokeAt);
    await insertSecretKey(tx, { merchantId: options.merchantId, environment: options.environment, keyHash: hashSecretKey(key), prefix, now });
    return revoked;
  });
  return { key, prefix, oldKeysRevokeAt: revokeAt, revokedKeyIds };
}
