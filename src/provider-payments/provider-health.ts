// Providers' health across instances: every call counted in the store and in
// /metrics; a provider that fails PROVIDER_FAILURE_LIMIT times in a row is left off the hosted page
// for PROVIDER_COOLDOWN_SECONDS, whichever instance saw the failures. After the cool-down it is
// offered again; one more failure then sends it back, one success clears it.
import type { AppContext } from '../context.js';
import type { Queryable } from '../db/db.js';
import type { Environment } from '../environment.js';
import type { ProviderName } from '../providers/registry.js';

export type Operation = 'start' | 'status' | 'refund';

interface Pending {
  calls: number;
  failed: number;
  ms: number;
  /** Whether the store may hold failures in a row for it (then a success must clear them). */
  failing: boolean;
}

/** Per instance: the calls not yet counted in the store, by provider and environment. */
const pendingOf = new WeakMap<object, Map<string, Pending>>();

/**
 * Counts a call (`refused`: the provider refused the request as invalid, which is `ok` for its health): in /metrics at once; in the store (shared by the instances) at once when it failed or
 * clears failures, otherwise with the next such write or the reconciliation job's run, so a healthy
 * provider's calls cost no write each.
 */
export async function recordCall(ctx: AppContext, call: { name: ProviderName; environment: Environment; operation: Operation; ok: boolean; refused?: boolean; ms: number }): Promise<void> {
  ctx.metrics.providerCalls.inc({ provider: call.name, environment: call.environment, operation: call.operation, result: call.refused ? 'refused' : call.ok ? 'ok' : 'failed' });
  ctx.metrics.providerLatency.observe({ provider: call.name, operation: call.operation }, call.ms / 1000);
  let pending = pendingOf.get(ctx.config);
  if (!pending) pendingOf.set(ctx.config, (pending = new Map()));
  const key = `${call.name}:${call.environment}`;
  const entry = pending.get(key) ?? { calls: 0, failed: 0, ms: 0, failing: true };
  entry.calls += 1;
  entry.ms += call.ms;
  if (!call.ok) entry.failed += 1;
  pending.set(key, entry);
  if (call.ok && !entry.failing) return;
  pending.delete(key);
  await writeHealth(ctx, call.name, call.environment, call.ok, entry);
  pending.set(key, { calls: 0, failed: 0, ms: 0, failing: !call.ok });
}

/** Writes the calls counted since the last write (the reconciliation job's run), without touching failures in a row. */
export async function flushHealth(ctx: AppContext): Promise<void> {
  const pending = pendingOf.get(ctx.config);
  if (!pending) return;
  for (const [key, entry] of pending) {
    if (entry.calls === 0) continue;
    const [name, environment] = key.split(':') as [ProviderName, Environment];
    pending.set(key, { calls: 0, failed: 0, ms: 0, failing: entry.failing });
    await ctx.db.query(
      `INSERT INTO provider_health AS h (name, environment, calls, failed_calls, call_ms) VALUES ($1, $2, $3, $4, $5)
       ON CONFLICT (name, environment) DO UPDATE SET calls = h.calls + $3, failed_calls = h.failed_calls + $4, call_ms = h.call_ms + $5`,
      [name, environment, entry.calls, entry.failed, Math.round(entry.ms)],
    );
  }
}

async function writeHealth(ctx: AppContext, name: ProviderName, environment: Environment, ok: boolean, counted: Pending): Promise<void> {
  const now = ctx.clock.now();
  await ctx.db.query(
    `INSERT INTO provider_health AS h (name, environment, failures_in_a_row, cooldown_until, calls, failed_calls, call_ms)
     VALUES ($1, $2, CASE WHEN $3 THEN 0 ELSE 1 END, CASE WHEN NOT $3 AND 1 >= $5 THEN $6::timestamptz ELSE NULL END, $7, $8, $4)
     ON CONFLICT (name, environment) DO UPDATE SET
       calls = h.calls + $7,
       failed_calls = h.failed_calls + $8,
       call_ms = h.call_ms + $4,
       failures_in_a_row = CASE WHEN $3 THEN 0 ELSE h.failures_in_a_row + 1 END,
       cooldown_until = CASE WHEN $3 THEN NULL WHEN h.failures_in_a_row + 1 >= $5 THEN $6::timestamptz ELSE h.cooldown_until END`,
    [name, environment, ok, Math.round(counted.ms), ctx.config.providerFailureLimit, new Date(now.getTime() + ctx.config.providerCooldownSeconds * 1000), counted.calls, counted.failed],
  );
}

/** The providers of `environment` cooling down now: not offered on the hosted page. */
export async function coolingDown(db: Queryable, environment: Environment, now: Date): Promise<Set<ProviderName>> {
  const rows = await db.query<{ name: ProviderName }>('SELECT name FROM provider_health WHERE environment = $1 AND cooldown_until > $2', [environment, now]);
  return new Set(rows.map((r) => r.name));
}

export interface ProviderHealthRow {
  name: ProviderName;
  environment: Environment;
  failures_in_a_row: number;
  cooldown_until: Date | null;
  calls: number;
  failed_calls: number;
  call_ms: number;
}

export async function listProviderHealth(db: Queryable): Promise<ProviderHealthRow[]> {
  return db.query<ProviderHealthRow>('SELECT name, environment, failures_in_a_row, cooldown_until, calls, failed_calls, call_ms FROM provider_health');
}
