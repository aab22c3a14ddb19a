// The connectIPS simulator's merchant certificate: NCHL issues a PFX to each merchant; the sandbox
// makes one on first use (an RSA key from Node's crypto, a self-signed certificate and the PKCS#12
// from node-forge), kept in the store so every instance signs with the same key. NCHL checks a
// merchant's tokens with the certificate's public key, and so does the simulator.
import { createPublicKey, generateKeyPairSync, type KeyObject } from 'node:crypto';
import forge from 'node-forge';
import type { Queryable } from '../../db/db.js';
import { readServerValue, storeServerValue } from '../../http/server-secret.js';

const NAME = 'sandbox-connectips-pfx';

/** A merchant's PFX as NCHL issues one: its private key and a certificate, under `passphrase`. */
export function makePfx(passphrase = ''): Buffer {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const key = forge.pki.privateKeyFromPem(privateKey.export({ type: 'pkcs1', format: 'pem' }).toString());
  const certificate = forge.pki.createCertificate();
  certificate.publicKey = forge.pki.publicKeyFromPem(publicKey.export({ type: 'spki', format: 'pem' }).toString());
  certificate.serialNumber = '01';
  certificate.validity.notBefore = new Date();
  certificate.validity.notAfter = new Date(Date.now() + 10 * 365 * 24 * 3600 * 1000);
  const subject = [{ name: 'commonName', value: 'Bhuktani connectIPS sandbox' }];
  certificate.setSubject(subject);
  certificate.setIssuer(subject);
  certificate.sign(key, forge.md.sha256.create());
  const p12 = forge.pkcs12.toPkcs12Asn1(key, [certificate], passphrase, { algorithm: '3des' });
  return Buffer.from(forge.asn1.toDer(p12).getBytes(), 'binary');
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
