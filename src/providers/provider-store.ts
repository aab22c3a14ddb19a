// The SQL of providers' set-up: one row per provider and environment, credentials sealed.
import type { Queryable } from '../db/db.js';
import type { Environment } from '../environment.js';
import type { ProviderName } from './registry.js';

export interface ProviderRow {
  name: ProviderName;
  environment: Environment;
  enabled: boolean;
  settings: Record<string, string>;
  credentials_sealed: string;
  updated_at: Date;
}

const columns = 'name, environment, enabled, settings, credentials_sealed, updated_at';

export async function findProviderRow(db: Queryable, name: ProviderName, environment: Environment): Promise<ProviderRow | undefined> {
  const [row] = await db.query<ProviderRow>(`SELECT ${columns} FROM providers WHERE name = $1 AND environment = $2`, [name, environment]);
  return row;
}

export async function listProviderRows(db: Queryable): Promise<ProviderRow[]> {
  return db.query<ProviderRow>(`SELECT ${columns} FROM providers ORDER BY environment, name`);
}

/** Inserts or replaces the set-up; returns the row as it was before (undefined: new). */
export async function upsertProviderRow(db: Queryable, row: Omit<ProviderRow, 'enabled'> & { enabled: boolean }): Promise<ProviderRow | undefined> {
  const before = await db.query<ProviderRow>(`SELECT ${columns} FROM providers WHERE name = $1 AND environment = $2 FOR UPDATE`, [row.name, row.environment]);
  await db.query(
    `INSERT INTO providers (name, environment, enabled, settings, credentials_sealed, updated_at) VALUES ($1, $2, $3, $4, $5, $6)
     ON CONFLICT (name, environment) DO UPDATE SET settings = EXCLUDED.settings, credentials_sealed = EXCLUDED.credentials_sealed, updated_at = EXCLUDED.updated_at`,
    [row.name, row.environment, row.enabled, JSON.stringify(row.settings), row.credentials_sealed, row.updated_at],
  );
  return before[0];
}

/** Sets `enabled`; the row before, or undefined when there is none. */
export async function setProviderEnabled(db: Queryable, name: ProviderName, environment: Environment, enabled: boolean, now: Date): Promise<ProviderRow | undefined> {
  const [before] = await db.query<ProviderRow>(`SELECT ${columns} FROM providers WHERE name = $1 AND environment = $2 FOR UPDATE`, [name, environment]);
  if (before) await db.query('UPDATE providers SET enabled = $3, updated_at = $4 WHERE name = $1 AND environment = $2', [name, environment, enabled, now]);
  return before;
}

/** Whether any live provider is set up (PROVIDER_SECRETS_KEY is then required). */
export async function hasLiveProvider(db: Queryable): Promise<boolean> {
  const rows = await db.query("SELECT 1 FROM providers WHERE environment = 'live' LIMIT 1");
  return rows.length > 0;
}
