// The SQL of the payout rails' set-up: one row per environment, an NPI set-up's credentials sealed.
import type { Queryable } from '../db/db.js';
import type { Environment } from '../environment.js';

export type PayoutRailName = 'file' | 'npi';

export interface PayoutRailRow {
  environment: Environment;
  rail: PayoutRailName;
  settings: Record<string, string>;
  credentials_sealed: string | null;
  updated_at: Date;
}

const columns = 'environment, rail, settings, credentials_sealed, updated_at';

export async function findPayoutRailRow(db: Queryable, environment: Environment): Promise<PayoutRailRow | undefined> {
  const [row] = await db.query<PayoutRailRow>(`SELECT ${columns} FROM payout_rails WHERE environment = $1`, [environment]);
  return row;
}

export async function listPayoutRailRows(db: Queryable): Promise<PayoutRailRow[]> {
  return db.query<PayoutRailRow>(`SELECT ${columns} FROM payout_rails ORDER BY environment`);
}

/** Inserts or replaces the environment's rail; returns the row as it was before (undefined: none). */
export async function upsertPayoutRailRow(db: Queryable, row: PayoutRailRow): Promise<PayoutRailRow | undefined> {
  const [before] = await db.query<PayoutRailRow>(`SELECT ${columns} FROM payout_rails WHERE environment = $1 FOR UPDATE`, [row.environment]);
  await db.query(
    `INSERT INTO payout_rails (environment, rail, settings, credentials_sealed, updated_at) VALUES ($1, $2, $3, $4, $5)
     ON CONFLICT (environment) DO UPDATE SET rail = EXCLUDED.rail, settings = EXCLUDED.settings, credentials_sealed = EXCLUDED.credentials_sealed, updated_at = EXCLUDED.updated_at`,
    [row.environment, row.rail, JSON.stringify(row.settings), row.credentials_sealed, row.updated_at],
  );
  return before;
}
