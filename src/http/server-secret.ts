import { randomBytes } from 'node:crypto';
import type { Queryable } from '../db/db.js';

/** A named secret shared by every instance on one database, created by the first to ask. */
/** The length of every random secret serverSecret makes. */
export const SERVER_SECRET_BYTES = 32;

export async function serverSecret(db: Queryable, name: string): Promise<Buffer> {
  await db.query('INSERT INTO server_secrets (name, value) VALUES ($1, $2) ON CONFLICT (name) DO NOTHING', [name, randomBytes(SERVER_SECRET_BYTES).toString('base64url')]);
  const [row] = await db.query<{ value: string }>('SELECT value FROM server_secrets WHERE name = $1', [name]);
  return Buffer.from(row.value, 'base64url');
}

/** A named value kept as given (not random) beside the secrets; the first to store a name wins. */
export async function storeServerValue(db: Queryable, name: string, value: string): Promise<void> {
  await db.query('INSERT INTO server_secrets (name, value) VALUES ($1, $2) ON CONFLICT (name) DO NOTHING', [name, value]);
}

export async function readServerValue(db: Queryable, name: string): Promise<string | undefined> {
  const [row] = await db.query<{ value: string }>('SELECT value FROM server_secrets WHERE name = $1', [name]);
  return row?.value;
}
