// The sandbox NPI member's key: NCHL signs a member's certificate; the sandbox makes its own pair on
// first use (secrets/self-signed-pfx.ts), kept in the store so every instance signs as the same member.
import type { Queryable } from '../db/db.js';
import { readServerValue, storeServerValue } from '../http/server-secret.js';
import { selfSignedPfx } from '../secrets/self-signed-pfx.js';

const NAME = 'sandbox-npi-pfx';

/** A PKCS#12 (.pfx) as an NPI member exports one: its key and a self-signed certificate. */
function makeNpiPfx(subject: string): Buffer {
  // Valid whatever a test's clock says (some run twenty years ahead): a sandbox key never expires.
  return selfSignedPfx({ commonName: subject, organization: 'Bhuktani NPI sandbox', notBefore: new Date('2000-01-01T00:00:00Z'), notAfter: new Date('2099-12-31T23:59:59Z') }).pfx;
}

/** The sandbox member's PFX (no passphrase), base64; the first instance to ask makes it. */
export async function sandboxNpiPfx(db: Queryable, subject: string): Promise<string> {
  const stored = await readServerValue(db, NAME);
  if (stored) return stored;
  await storeServerValue(db, NAME, makeNpiPfx(subject).toString('base64'));
  return (await readServerValue(db, NAME))!;
}
