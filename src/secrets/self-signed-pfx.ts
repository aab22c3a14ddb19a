// A PKCS#12 (.pfx) holding a new RSA key and a self-signed certificate: what a sandbox stands in for
// when a real party (NCHL, for connectIPS and NPI) issues the certificate. The key from Node's
// crypto, the certificate and the PKCS#12 from node-forge.
import { generateKeyPairSync } from 'node:crypto';
import forge from 'node-forge';

export interface SelfSignedPfxOptions {
  /** The certificate's subject (and issuer): its common name, and its organisation when given. */
  commonName: string;
  organization?: string;
  notBefore: Date;
  notAfter: Date;
  passphrase?: string;
  /** 2048 unless said. */
  bits?: number;
  /** false: the key alone, no certificate in the file (what a broken export looks like). */
  withCertificate?: boolean;
}

export function selfSignedPfx(options: SelfSignedPfxOptions): { pfx: Buffer; publicKeyPem: string } {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: options.bits ?? 2048 });
  const publicKeyPem = publicKey.export({ type: 'spki', format: 'pem' }).toString();
  const key = forge.pki.privateKeyFromPem(privateKey.export({ type: 'pkcs1', format: 'pem' }).toString());
  const certificate = forge.pki.createCertificate();
  certificate.publicKey = forge.pki.publicKeyFromPem(publicKeyPem);
  certificate.serialNumber = '01';
  certificate.validity.notBefore = options.notBefore;
  certificate.validity.notAfter = options.notAfter;
  const name = [{ shortName: 'CN', value: options.commonName }, ...(options.organization ? [{ shortName: 'O', value: options.organization }] : [])];
  certificate.setSubject(name);
  certificate.setIssuer(name);
  certificate.sign(key, forge.md.sha256.create());
  // forge's types want a certificate; its code takes none, which makes the key-only file.
  const certificates = options.withCertificate === false ? (null as unknown as forge.pki.Certificate[]) : [certificate];
  const p12 = forge.pkcs12.toPkcs12Asn1(key, certificates, options.passphrase ?? '', { algorithm: '3des' });
  return { pfx: Buffer.from(forge.asn1.toDer(p12).getBytes(), 'binary'), publicKeyPem };
}
