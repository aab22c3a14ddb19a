// The providers the hosted page offers for a payment's environment, in one statement: set up and
// enabled (in test, a provider nobody set up is its simulator, enabled), and not cooling down.
import type { Queryable } from '../db/db.js';
import type { Environment } from '../environment.js';
import { providerNames, type ProviderName } from './provider.js';

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
