// connectIPS's TOKEN: the merchant's messages signed SHA256withRSA (RSASSA-PKCS1-v1_5 over SHA-256,
// base64) with the private key of the PFX (PKCS#12) NCHL issues. node-forge reads the PKCS#12 (Node
// cannot); Node's crypto signs. The messages' formats are NCHL's (docs/providers.md).
import { createPrivateKey, createPublicKey, sign, verify, type KeyObject } from 'node:crypto';
import forge from 'node-forge';

export interface PfxContents {
  privateKey: KeyObject;
  /** The certificate's public key, which NCHL keeps to check the merchant's tokens. */
  publicKey: KeyObject;
}

/** The private key (and its certificate's public key) of a PKCS#12 file; throws with the reason it does not open. */
export function readPfx(pfx: Buffer, passphrase: string): PfxContents {
  let p12: forge.pkcs12.Pkcs12Pfx;
  try {
    p12 = forge.pkcs12.pkcs12FromAsn1(forge.asn1.fromDer(forge.util.createBuffer(pfx.toString('binary'))), passphrase);
  } catch (error) {
    throw new Error(/mac|password|invalid/i.test(String((error as Error).message)) ? 'wrong passphrase, or not a PKCS#12 (.pfx) file' : 'not a PKCS#12 (.pfx) file');
  }
  const keyBag = [...(p12.getBags({ bagType: forge.pki.oids.pkcs8ShroudedKeyBag })[forge.pki.oids.pkcs8ShroudedKeyBag] ?? []), ...(p12.getBags({ bagType: forge.pki.oids.keyBag })[forge.pki.oids.keyBag] ?? [])][0];
  if (!keyBag?.key) throw new Error('the file holds no private key');
  const privateKey = createPrivateKey(forge.pki.privateKeyToPem(keyBag.key));
  const certificate = p12.getBags({ bagType: forge.pki.oids.certBag })[forge.pki.oids.certBag]?.[0]?.cert;
  const publicKey = certificate ? createPublicKey(forge.pki.publicKeyToPem(certificate.publicKey)) : createPublicKey(privateKey);
  return { privateKey, publicKey };
}

export const signToken = (privateKey: KeyObject, message: string): string => sign('sha256', Buffer.from(message, 'utf8'), privateKey).toString('base64');

export function tokenValid(publicKey: KeyObject, message: string, token: string): boolean {
  try {
    return verify('sha256', Buffer.from(message, 'utf8'), publicKey, Buffer.from(token, 'base64'));
  } catch {
    return false;
  }
}

/** The fields of the login page's form, in the order NCHL signs them. */
export const formFieldOrder = ['MERCHANTID', 'APPID', 'APPNAME', 'TXNID', 'TXNDATE', 'TXNCRNCY', 'TXNAMT', 'REFERENCEID', 'REMARKS', 'PARTICULARS'] as const;
export type FormFields = Record<(typeof formFieldOrder)[number], string>;

/** The message of the form's TOKEN: every field as NAME=value, then TOKEN=TOKEN. */
export const formTokenMessage = (fields: FormFields) => [...formFieldOrder.map((name) => `${name}=${fields[name]}`), 'TOKEN=TOKEN'].join(',');

/** The message of validatetxn's (and gettxndetail's) token. */
export const validationTokenMessage = (v: { merchantId: string; appId: string; referenceId: string; txnAmt: number | string }) =>
  `MERCHANTID=${v.merchantId},APPID=${v.appId},REFERENCEID=${v.referenceId},TXNAMT=${v.txnAmt}`;
