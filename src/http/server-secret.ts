import { randomBytes } from 'node:crypto';
import type { Queryable } from '../db/db.js';

/** The length of every random secret serverSecret makes. */
export const SERVER_SECRET_BYTES = 32;

/** A named secret shared by every instance on one database, created by the first to ask. */
export async function serverSecret(db: Queryable, name: string): Promise<Buffer> {
  // Read first: every start but the store's first finds it (a write costs a restart ~9 ms).
  const stored = await readServerValue(db, name);
  if (stored !== undefined) return Buffer.from(stored, 'base64url');
  await storeServerValue(db, name, randomBytes(SERVER_SECRET_BYTES).toString('base64url'));
  // Another instance's, if it stored one first.
  return Buffer.from((await readServerValue(db, name))!, 'base64url');
}

/** A named value kept as given (not random) beside the secrets; the first to store a name wins. */
export async function storeServerValue(db: Queryable, name: string, value: string): Promise<void> {
  await db.query('INSERT INTO server_secrets (name, value) VALUES ($1, $2) ON CONFLICT (name) DO NOTHING', [name, value]);
}

export async function readServerValue(db: Queryable, name: string): Promise<string | undefined> {
  const [row] = await db.query<{ value: string }>('SELECT value FROM server_secrets WHERE name = $1', [name]);
  return row?.value;
}
