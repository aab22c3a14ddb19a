// The operator's NPI key: the PKCS#12 (.pfx) holding the RSA key whose certificate NCHL signed (NPI
// Specification §5.2, "Digital Signature"). It signs each posting's `token` field SHA256withRSA
// (RSASSA-PKCS1-v1_5 over SHA-256), Base64. node-forge reads the PKCS#12 (Node cannot); Node's crypto
// signs. NCHL says the whole exchange is repeated when the certificate expires, so an expired (or not
// yet valid) certificate is refused at set-up rather than discovered as E003 on a payout.
import { createPrivateKey, createPublicKey, sign, type KeyObject } from 'node:crypto';
import forge from 'node-forge';

export interface NpiKey {
  privateKey: KeyObject;
  /** The certificate's public key: what NCHL checks the tokens with. */
  publicKey: KeyObject;
  /** The certificate's subject and last valid moment, for the operators' pages. */
  subject: string;
  notAfter: Date;
}

export type NpiKeyCheck = { ok: true; key: NpiKey } | { ok: false; reason: string };

/** The key of `pfx` if it opens with `passphrase` and its certificate is valid at `now`; else why not. */
export function checkNpiKey(pfx: Buffer, passphrase: string, now: Date): NpiKeyCheck {
  let p12: forge.pkcs12.Pkcs12Pfx;
  try {
    p12 = forge.pkcs12.pkcs12FromAsn1(forge.asn1.fromDer(forge.util.createBuffer(pfx.toString('binary'))), passphrase);
  } catch (error) {
    return { ok: false, reason: /mac|password|invalid/i.test(String((error as Error).message)) ? 'the key file does not open: wrong passphrase, or not a PKCS#12 (.pfx) file' : 'the key file is not a PKCS#12 (.pfx) file' };
  }
  const shrouded = p12.getBags({ bagType: forge.pki.oids.pkcs8ShroudedKeyBag })[forge.pki.oids.pkcs8ShroudedKeyBag] ?? [];
  const plain = p12.getBags({ bagType: forge.pki.oids.keyBag })[forge.pki.oids.keyBag] ?? [];
  const forgeKey = [...shrouded, ...plain][0]?.key;
  if (!forgeKey) return { ok: false, reason: 'the key file holds no private key' };
  const certificate = (p12.getBags({ bagType: forge.pki.oids.certBag })[forge.pki.oids.certBag] ?? []).map((bag) => bag.cert).find((cert) => cert !== undefined);
  // Without the certificate NCHL signed, nothing says the key is the one NCHL knows, nor until when.
  if (!certificate) return { ok: false, reason: 'the key file holds no certificate (import the .cer NCHL signed into the keystore before exporting it)' };
  const privateKey = createPrivateKey(forge.pki.privateKeyToPem(forgeKey));
  const publicKey = createPublicKey(forge.pki.publicKeyToPem(certificate.publicKey));
  if (publicKey.asymmetricKeyType !== 'rsa') return { ok: false, reason: 'the certificate’s key is not RSA' };
  if (createPublicKey(privateKey).export({ format: 'der', type: 'spki' }).compare(publicKey.export({ format: 'der', type: 'spki' })) !== 0) {
    return { ok: false, reason: 'the private key is not the certificate’s' };
  }
  const subject = certificate.subject.attributes.map((a) => `${a.shortName ?? a.name}=${String(a.value)}`).join(', ');
  const { notBefore, notAfter } = certificate.validity;
  if (now.getTime() > notAfter.getTime()) return { ok: false, reason: `the certificate (${subject}) expired on ${notAfter.toISOString().slice(0, 10)}` };
  if (now.getTime() < notBefore.getTime()) return { ok: false, reason: `the certificate (${subject}) is valid only from ${notBefore.toISOString().slice(0, 10)}` };
  return { ok: true, key: { privateKey, publicKey, subject, notAfter } };
}

/** The `token` field: `tokenString` signed SHA256withRSA with the operator's key, Base64. */
export const signNpiToken = (key: NpiKey, tokenString: string): string => sign('sha256', Buffer.from(tokenString, 'utf8'), key.privateKey).toString('base64');
