// The sandbox NPI member's key: NCHL signs a member's certificate; the sandbox makes its own pair on
// first use (an RSA key from Node's crypto, a self-signed certificate and the PKCS#12 from
// node-forge), kept in the store so every instance signs as the same member.
import { generateKeyPairSync } from 'node:crypto';
import forge from 'node-forge';
import type { Queryable } from '../db/db.js';
import { readServerValue, storeServerValue } from '../http/server-secret.js';

const NAME = 'sandbox-npi-pfx';

/** A PKCS#12 (.pfx) as an NPI member exports one: its key and a self-signed certificate. */
function makeNpiPfx(subject: string): Buffer {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const key = forge.pki.privateKeyFromPem(privateKey.export({ type: 'pkcs1', format: 'pem' }).toString());
  const certificate = forge.pki.createCertificate();
  certificate.publicKey = forge.pki.publicKeyFromPem(publicKey.export({ type: 'spki', format: 'pem' }).toString());
  certificate.serialNumber = '01';
  // Valid whatever a test's clock says (some run twenty years ahead): a sandbox key never expires.
  certificate.validity.notBefore = new Date('2000-01-01T00:00:00Z');
  certificate.validity.notAfter = new Date('2099-12-31T23:59:59Z');
  const name = [{ shortName: 'CN', value: subject }, { shortName: 'O', value: 'Bhuktani NPI sandbox' }];
  certificate.setSubject(name);
  certificate.setIssuer(name);
  certificate.sign(key, forge.md.sha256.create());
  const p12 = forge.pkcs12.toPkcs12Asn1(key, [certificate], '', { algorithm: '3des' });
  return Buffer.from(forge.asn1.toDer(p12).getBytes(), 'binary');
}

/** The sandbox member's PFX (no passphrase), base64; the first instance to ask makes it. */
export async function sandboxNpiPfx(db: Queryable, subject: string): Promise<string> {
  const stored = await readServerValue(db, NAME);
  if (stored) return stored;
  await storeServerValue(db, NAME, makeNpiPfx(subject).toString('base64'));
  return (await readServerValue(db, NAME))!;
}
