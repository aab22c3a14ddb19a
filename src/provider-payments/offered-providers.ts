// The providers the hosted page offers for a payment, in one statement: set up and enabled in its
// environment (in test, a provider nobody set up is its simulator, enabled), not cooling down, and
// taking its amount.
import type { AppContext } from '../context.js';
import type { Queryable } from '../db/db.js';
import type { Environment } from '../environment.js';
import { setupChanges } from '../providers/provider-setup.js';
import { acceptsAmount, providerNames, type ProviderName } from '../providers/registry.js';

export async function offeredProviders(db: Queryable, environment: Environment, now: Date): Promise<ProviderName[]> {
  const rows = await db.query<{ name: ProviderName }>(
    `SELECT n.name FROM unnest($2::text[]) WITH ORDINALITY AS n (name, ord)
       LEFT JOIN providers p ON p.name = n.name AND p.environment = $1
       LEFT JOIN provider_health h ON h.name = n.name AND h.environment = $1
      WHERE coalesce(p.enabled, $1 = 'test') AND (h.cooldown_until IS NULL OR h.cooldown_until <= $3)
      ORDER BY n.ord`,
    [environment, providerNames, now],
  );
  return rows.map((r) => r.name);
}

const cached = new WeakMap<object, Map<Environment, { until: number; changes: number; names: ProviderName[] }>>();

/**
 * The same, read at most once per KEY_CACHE_SECONDS by this instance (as secret keys are): a change
 * of set-up or a cool-down shows on every instance's hosted page within that time.
 */
async function offeredProvidersCached(ctx: Pick<AppContext, 'db' | 'clock' | 'config'>, environment: Environment): Promise<ProviderName[]> {
  const ttlMs = ctx.config.keyCacheSeconds * 1000;
  if (ttlMs === 0) return offeredProviders(ctx.db, environment, ctx.clock.now());
  let byEnvironment = cached.get(ctx.config);
  if (!byEnvironment) cached.set(ctx.config, (byEnvironment = new Map()));
  const now = Date.now();
  // This instance's own set-up changes show at once.
  const changes = setupChanges(ctx);
  const hit = byEnvironment.get(environment);
  if (hit && hit.until > now && hit.changes === changes) return hit.names;
  const names = await offeredProviders(ctx.db, environment, ctx.clock.now());
  byEnvironment.set(environment, { until: now + ttlMs, changes, names });
  return names;
}

/** The providers offered for `payment`: those of its environment that take its amount. */
export async function offeredFor(ctx: Pick<AppContext, 'db' | 'clock' | 'config'>, payment: { environment: Environment; amount: number }): Promise<ProviderName[]> {
  return (await offeredProvidersCached(ctx, payment.environment)).filter((name) => acceptsAmount(name, payment.amount));
}
