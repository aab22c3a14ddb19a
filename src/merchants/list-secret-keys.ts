// A merchant's secret keys as the keys page shows them: never the key, only its display prefix.
import type { AppContext } from '../context.js';
import type { Environment } from '../environment.js';
import { selectSecretKeys } from './secret-key-store.js';

export type KeyStatus = { name: 'active' } | { name: 'revoking'; at: Date } | { name: 'revoked'; at: Date };

export interface SecretKeySummary {
  environment: Environment;
  prefix: string;
  createdAt: Date;
  lastUsedAt: Date | null;
  status: KeyStatus;
}

/** Pure: active, revoked at a time still to come (a grace period), or revoked. */
export function keyStatus(revokedAt: Date | null, now: Date): KeyStatus {
  if (!revokedAt) return { name: 'active' };
  return revokedAt.getTime() > now.getTime() ? { name: 'revoking', at: revokedAt } : { name: 'revoked', at: revokedAt };
}

export async function listSecretKeys(ctx: AppContext, options: { merchantId: number }): Promise<SecretKeySummary[]> {
  const now = ctx.clock.now();
  const rows = await selectSecretKeys(ctx.db, options.merchantId);
  return rows.map((row) => ({
    environment: row.environment,
    prefix: row.prefix,
    createdAt: row.created_at,
    lastUsedAt: row.last_used_at,
    status: keyStatus(row.revoked_at, now),
  }));
}
