// The connectIPS simulator's merchant certificate: NCHL issues a PFX to each merchant; the sandbox
// makes one on first use (an RSA key and a self-signed certificate: secrets/self-signed-pfx.ts),
// kept in the store so every instance signs with the same key. NCHL checks a
// merchant's tokens with the certificate's public key, and so does the simulator.
import { createPublicKey, type KeyObject } from 'node:crypto';
import forge from 'node-forge';
import type { Queryable } from '../../db/db.js';
import { readServerValue, storeServerValue } from '../../http/server-secret.js';
import { selfSignedPfx } from '../../secrets/self-signed-pfx.js';

const NAME = 'sandbox-connectips-pfx';

/** A merchant's PFX as NCHL issues one: its private key and a certificate, under `passphrase`. */
export function makePfx(passphrase = ''): Buffer {
  const now = Date.now();
  return selfSignedPfx({ commonName: 'Bhuktani connectIPS sandbox', notBefore: new Date(now), notAfter: new Date(now + 10 * 365 * 24 * 3600 * 1000), passphrase }).pfx;
}

/** The sandbox's PFX (no passphrase); the first instance to ask makes it. */
export async function sandboxPfx(db: Queryable): Promise<Buffer> {
  const stored = await readServerValue(db, NAME);
  if (stored) return Buffer.from(stored, 'base64');
  await storeServerValue(db, NAME, makePfx().toString('base64'));
  return Buffer.from((await readServerValue(db, NAME))!, 'base64');
}

/** The public key of the certificate in a PFX: what NCHL checks a merchant's tokens with. */
export function certificateKey(pfx: Buffer, passphrase = ''): KeyObject {
  const p12 = forge.pkcs12.pkcs12FromAsn1(forge.asn1.fromDer(forge.util.createBuffer(pfx.toString('binary'))), passphrase);
  const certificate = p12.getBags({ bagType: forge.pki.oids.certBag })[forge.pki.oids.certBag]?.[0]?.cert;
  if (!certificate) throw new Error('the PFX holds no certificate');
  return createPublicKey(forge.pki.publicKeyToPem(certificate.publicKey));
}
