// The providers the hosted page offers for a payment's environment, in one statement: set up and
// enabled (in test, a provider nobody set up is its simulator, enabled), and not cooling down.
import type { AppContext } from '../context.js';
import type { Queryable } from '../db/db.js';
import type { Environment } from '../environment.js';
import type { Payment } from '../payments/payment.js';
import { khaltiAmounts } from './khalti/khalti-amounts.js';
import { providerNames, type AmountsAccepted, type ProviderName } from './provider.js';

const amountsAccepted: Record<ProviderName, AmountsAccepted> = { khalti: khaltiAmounts, esewa: {}, connectips: {} };

/** Whether `name` takes a payment of `amount` paisa. */
export const acceptsAmount = (name: ProviderName, amount: number) => amount >= (amountsAccepted[name].least ?? 0) && amount <= (amountsAccepted[name].most ?? Infinity);

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

const cached = new WeakMap<object, Map<Environment, { until: number; names: ProviderName[] }>>();

/**
 * The same, read at most once per KEY_CACHE_SECONDS by this instance (as secret keys are): a change
 * of set-up or a cool-down shows on every instance's hosted page within that time.
 */
export async function offeredProvidersCached(ctx: Pick<AppContext, 'db' | 'clock' | 'config'>, environment: Environment): Promise<ProviderName[]> {
  const ttlMs = ctx.config.keyCacheSeconds * 1000;
  if (ttlMs === 0) return offeredProviders(ctx.db, environment, ctx.clock.now());
  let byEnvironment = cached.get(ctx.config);
  if (!byEnvironment) cached.set(ctx.config, (byEnvironment = new Map()));
  const now = Date.now();
  const hit = byEnvironment.get(environment);
  if (hit && hit.until > now) return hit.names;
  const names = await offeredProviders(ctx.db, environment, ctx.clock.now());
  byEnvironment.set(environment, { until: now + ttlMs, names });
  return names;
}

/** Forgets this instance's cached lists (its own set-up changes show at once). */
export function forgetOfferedProviders(ctx: Pick<AppContext, 'config'>): void {
  cached.delete(ctx.config);
}

/** The providers the hosted page offers for `payment`: those offered in its environment that take its amount. */
export async function offeredProvidersFor(ctx: Pick<AppContext, 'db' | 'clock' | 'config'>, payment: Pick<Payment, 'environment' | 'amount'>): Promise<ProviderName[]> {
  return (await offeredProvidersCached(ctx, payment.environment)).filter((name) => acceptsAmount(name, payment.amount));
}
