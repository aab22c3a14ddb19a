// Resolves an API key to its merchant. Results are cached for a few seconds (KEY_CACHE_SECONDS), so
// a busy integration does not cost a database read per request, while a revoked key stops working
// within that time. Unknown keys are cached too: keys are random, so an unknown one stays unknown.
import { setNewest } from '../bounded-map.js';
import type { AppContext } from '../context.js';
import type { ApiCaller } from './merchant.js';
import { findSecretKeyOwner, touchSecretKey, type SecretKeyOwner } from './merchant-store.js';
import { hashesEqual, hashSecretKey, keyEnvironment } from './secret-key.js';

const MAX_ENTRIES = 10_000;
// `last_used_at` is for people ("used 2 minutes ago"): one write a minute per key is plenty.
const TOUCH_EVERY_MS = 60_000;

export type SecretKeyResolver = (key: string) => Promise<ApiCaller | undefined>;

export function secretKeyResolver(ctx: AppContext): SecretKeyResolver {
  const cache = new Map<string, { until: number; owner: SecretKeyOwner | undefined }>();
  const ttlMs = ctx.config.keyCacheSeconds * 1000;
  const touched = new Map<number, number>();

  const touch = (keyId: number, now: number) => {
    if ((touched.get(keyId) ?? 0) + TOUCH_EVERY_MS > now) return;
    setNewest(touched, keyId, now, MAX_ENTRIES);
    touchSecretKey(ctx.db, keyId, ctx.clock.now()).catch(() => touched.delete(keyId));
  };

  return async (key) => {
    const environment = keyEnvironment(key);
    if (!environment) return undefined;
    const hash = hashSecretKey(key);
    const now = Date.now();
    let entry = cache.get(hash);
    if (!entry || entry.until <= now) {
      entry = { until: now + ttlMs, owner: await findSecretKeyOwner(ctx.db, hash) };
      if (ttlMs > 0) setNewest(cache, hash, entry, MAX_ENTRIES);
    }
    const owner = entry.owner;
    if (!owner || !hashesEqual(owner.keyHash, hash) || owner.environment !== environment) return undefined;
    if (owner.revokedAt && owner.revokedAt.getTime() <= ctx.clock.now().getTime()) return undefined;
    touch(owner.keyId, now);
    return { merchant: owner.merchant, environment, keyId: owner.keyId };
  };
}
