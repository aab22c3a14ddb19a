// The per-environment secret that signs a merchant's callbacks and webhooks. Unlike API keys it is
// kept in plain text: signing needs it. Made on first use; shown to the merchant in the dashboard.
import { randomBytes } from 'node:crypto';
import type { Queryable } from '../db/db.js';
import type { Environment } from '../environment.js';

/** Per store (a process may hold several: tests do), so a merchant id only ever means its own store's merchant. */
const knownByStore = new WeakMap<Queryable, Map<string, string>>();

export async function signingSecret(db: Queryable, merchantId: number, environment: Environment, now = new Date()): Promise<string> {
  let known = knownByStore.get(db);
  if (!known) knownByStore.set(db, (known = new Map()));
  const cacheKey = `${merchantId}:${environment}`;
  const cached = known.get(cacheKey);
  if (cached) return cached;
  await db.query(
    'INSERT INTO signing_secrets (merchant_id, environment, secret, created_at) VALUES ($1, $2, $3, $4) ON CONFLICT (merchant_id, environment) DO NOTHING',
    [merchantId, environment, `whsec_${randomBytes(24).toString('hex')}`, now],
  );
  const [row] = await db.query<{ secret: string }>('SELECT secret FROM signing_secrets WHERE merchant_id = $1 AND environment = $2', [merchantId, environment]);
  if (known.size > 10_000) known.clear();
  known.set(cacheKey, row.secret);
  return row.secret;
}
