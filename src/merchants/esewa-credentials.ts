// Issuing and reading eSewa credentials. The secret keys are sealed at rest (secrets/seal.ts) and
// opened only to sign or verify; they are never logged. Reads for the door are cached for
// KEY_CACHE_SECONDS, like secret keys, so a busy checkout costs no read per form.
import { setNewest } from '../bounded-map.js';
import type { AppContext } from '../context.js';
import type { Queryable } from '../db/db.js';
import { environments, type Environment } from '../environment.js';
import { open, seal, sealKeys, type SealKeys } from '../secrets/seal.js';
import type { Merchant } from './merchant.js';
import { ESEWA_TEST_PAIR, esewaKeyPrefix, generateEsewaSecretKey, generateProductCode, sealContext, type EsewaCredential } from './esewa-credential.js';
import { findEsewaCredentialRow, insertEsewaCredential, type EsewaCredentialRow } from './esewa-credential-store.js';

/** A credential in full: shown once, when it is made (and printed by `merchant create --json`). */
export interface IssuedEsewaCredential {
  product_code: string;
  secret_key: string;
}

type Ctx = Pick<AppContext, 'db' | 'clock' | 'config'>;

const keysOf = (ctx: Ctx, db: Queryable = ctx.db): Promise<SealKeys> => sealKeys(db, ctx.config.secretsKey);

/** A product code and secret key per environment for a new merchant, in the caller's transaction. */
export async function issueEsewaCredentials(ctx: Ctx, tx: Queryable, merchantId: number): Promise<Record<Environment, IssuedEsewaCredential>> {
  const keys = await keysOf(ctx, tx);
  const issued = {} as Record<Environment, IssuedEsewaCredential>;
  for (const environment of environments) {
    issued[environment] = await issueOne(ctx, tx, keys, { merchantId, environment });
  }
  return issued;
}

/** The merchant's own credential of `environment`, for one that has none (made before eSewa's door). */
export async function issueEsewaCredential(ctx: Ctx, tx: Queryable, options: { merchantId: number; environment: Environment }): Promise<IssuedEsewaCredential> {
  return issueOne(ctx, tx, await keysOf(ctx, tx), options);
}

async function issueOne(ctx: Ctx, tx: Queryable, keys: SealKeys, { merchantId, environment }: { merchantId: number; environment: Environment }): Promise<IssuedEsewaCredential> {
  const productCode = generateProductCode(environment);
  const secretKey = generateEsewaSecretKey();
  const sealed = seal(keys, secretKey, sealContext(productCode));
  await insertEsewaCredential(tx, { productCode, merchantId, environment, sealed, prefix: esewaKeyPrefix(secretKey), published: false, now: ctx.clock.now() });
  return { product_code: productCode, secret_key: secretKey };
}

/** The demo merchant's second pair: eSewa's published test pair, so eSewa's examples run unchanged (once; test only). */
export async function addPublishedTestPair(ctx: Ctx, merchantId: number): Promise<void> {
  const { productCode, secretKey } = ESEWA_TEST_PAIR;
  const sealed = seal(await keysOf(ctx), secretKey, sealContext(productCode));
  await insertEsewaCredential(ctx.db, { productCode, merchantId, environment: 'test', sealed, prefix: esewaKeyPrefix(secretKey), published: true, now: ctx.clock.now() });
}

/** The credential with its secret keys opened: the current one, then the one before while its grace period lasts. */
export function openCredential(keys: SealKeys, row: EsewaCredentialRow, now: Date): EsewaCredential {
  const context = sealContext(row.product_code);
  const secretKeys = [open(keys, row.secret_key_sealed, context)];
  if (row.previous_secret_key_sealed && row.previous_revokes_at && row.previous_revokes_at.getTime() > now.getTime()) {
    secretKeys.push(open(keys, row.previous_secret_key_sealed, context));
  }
  return { productCode: row.product_code, merchantId: row.merchant_id, environment: row.environment, secretKeys, published: row.published };
}

export interface EsewaCaller extends EsewaCredential {
  merchant: Merchant;
}

/** The merchant and opened keys a product code selects, or undefined for a code nobody has. */
export async function findEsewaCredential(ctx: Ctx, productCode: string): Promise<EsewaCaller | undefined> {
  const row = await findEsewaCredentialRow(ctx.db, productCode);
  if (!row) return undefined;
  return { ...openCredential(await keysOf(ctx), row, ctx.clock.now()), merchant: row.merchant };
}

export type EsewaCredentialResolver = (productCode: string) => Promise<EsewaCaller | undefined>;

const MAX_ENTRIES = 10_000;

/** findEsewaCredential, cached for KEY_CACHE_SECONDS: a rotation, an approval or a suspension shows within that time. */
export function esewaCredentialResolver(ctx: Ctx): EsewaCredentialResolver {
  const cache = new Map<string, { until: number; found: Promise<EsewaCaller | undefined> }>();
  const ttlMs = ctx.config.keyCacheSeconds * 1000;
  return (productCode) => {
    if (ttlMs === 0) return findEsewaCredential(ctx, productCode);
    const now = Date.now();
    const entry = cache.get(productCode);
    if (entry && entry.until > now) return entry.found;
    const found = findEsewaCredential(ctx, productCode);
    setNewest(cache, productCode, { until: now + ttlMs, found }, MAX_ENTRIES);
    found.catch(() => cache.delete(productCode));
    return found;
  };
}
