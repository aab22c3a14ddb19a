// An eSewa secret key rotated with the secret key's rules (rotate-secret-key.ts): a new key, shown
// once; the old one works for a grace period (forms signed with either are accepted) or stops at
// once. One previous key at a time: a rotation during a grace period ends the earlier old key at
// once. A merchant made before eSewa's door has no credential yet: its first "rotation" issues one.
import type { AppContext } from '../context.js';
import type { Environment } from '../environment.js';
import { open, seal, sealKeys } from '../secrets/seal.js';
import { esewaKeyPrefix, generateEsewaSecretKey, sealContext } from './esewa-credential.js';
import { lockEsewaCredential, replaceEsewaSecretKey, selectEsewaCredentials } from './esewa-credential-store.js';
import { issueEsewaCredential } from './esewa-credentials.js';
import { keyStatus, type KeyStatus } from './list-secret-keys.js';
import { lockMerchantKeys } from './secret-key-store.js';
import type { RotationGrace } from './rotate-secret-key.js';

export interface RotatedEsewaKey {
  productCode: string;
  /** In full: shown once. */
  secretKey: string;
  /** When the key it replaced stops working; null when there was none or it stopped at once. */
  previousRevokesAt: Date | null;
  /** True when the merchant had no credential of the environment and this made its first. */
  issued: boolean;
}

export async function rotateEsewaSecretKey(ctx: AppContext, options: { merchantId: number; environment: Environment; graceSeconds: RotationGrace }): Promise<RotatedEsewaKey> {
  const now = ctx.clock.now();
  return ctx.db.transaction(async (tx) => {
    // Two rotations at once would both keep "the current key" as the previous one: one waits.
    await lockMerchantKeys(tx, options.merchantId);
    const current = await lockEsewaCredential(tx, options.merchantId, options.environment);
    if (!current) {
      const issued = await issueEsewaCredential(ctx, tx, options);
      return { productCode: issued.product_code, secretKey: issued.secret_key, previousRevokesAt: null, issued: true };
    }
    const keys = await sealKeys(tx, ctx.config.secretsKey);
    const context = sealContext(current.product_code);
    const secretKey = generateEsewaSecretKey();
    const previousRevokesAt = options.graceSeconds > 0 ? new Date(now.getTime() + options.graceSeconds * 1000) : null;
    // Resealed with the current key: a rotation moves an old value onto SECRETS_KEY too.
    const previousSealed = previousRevokesAt ? seal(keys, open(keys, current.secret_key_sealed, context), context) : null;
    await replaceEsewaSecretKey(tx, { productCode: current.product_code, sealed: seal(keys, secretKey, context), prefix: esewaKeyPrefix(secretKey), previousSealed, previousRevokesAt, now });
    return { productCode: current.product_code, secretKey, previousRevokesAt, issued: false };
  });
}

/** A credential as the keys page shows it: the product code, never the secret key, only its start. */
export interface EsewaCredentialSummary {
  environment: Environment;
  productCode: string;
  prefix: string;
  createdAt: Date;
  rotatedAt: Date | null;
  /** The key before the last rotation, while it still works. */
  previous: Extract<KeyStatus, { name: 'revoking' }> | undefined;
}

export async function listEsewaCredentials(ctx: AppContext, options: { merchantId: number }): Promise<EsewaCredentialSummary[]> {
  const now = ctx.clock.now();
  return (await selectEsewaCredentials(ctx.db, options.merchantId)).map((row) => {
    const previous = row.previous_secret_key_sealed ? keyStatus(row.previous_revokes_at, now) : undefined;
    return {
      environment: row.environment,
      productCode: row.product_code,
      prefix: row.secret_key_prefix,
      createdAt: row.created_at,
      rotatedAt: row.rotated_at,
      previous: previous?.name === 'revoking' ? previous : undefined,
    };
  });
}
