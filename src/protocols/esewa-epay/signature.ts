// eSewa's ePay v2 signature: HMAC-SHA256 with the secret key's text as key, base64 (standard
// alphabet, padded), over `name=value` pairs joined by `,` in the order of signed_field_names. One
// module for every side that speaks it: the eSewa door checks merchants' forms and signs its
// answers; the eSewa connector signs its forms and checks eSewa's answers; the eSewa simulator does
// what eSewa does. Pure, and held to eSewa's published vectors (signature.test.ts).
import { createHmac, timingSafeEqual } from 'node:crypto';

/** The fields every signature covers, in this order in eSewa's own examples. */
export const REQUIRED_SIGNED_FIELDS = ['total_amount', 'transaction_uuid', 'product_code'] as const;

/** `total_amount=110,transaction_uuid=241028,product_code=EPAYTEST` for those names. */
export function signedMessage(fields: Readonly<Record<string, string>>, names: readonly string[]): string {
  return names.map((name) => `${name}=${fields[name] ?? ''}`).join(',');
}

export function esewaSignature(secretKey: string, message: string): string {
  return createHmac('sha256', secretKey).update(message, 'utf8').digest('base64');
}

/** `names` in the order signed_field_names gives them. */
export const signedFieldNames = (text: string): string[] => text.split(',');

/** Signs `fields` over `names` (signed_field_names). */
export function signFields(secretKey: string, fields: Readonly<Record<string, string>>, names: readonly string[]): string {
  return esewaSignature(secretKey, signedMessage(fields, names));
}

/** Standard base64 of 32 bytes, padded: what a SHA-256 HMAC is written as. Anything else matches nothing. */
const SIGNATURE = /^[A-Za-z0-9+/]{43}=$/;

/**
 * Whether `signature` is the signature of `message` under one of `secretKeys`, compared in constant
 * time (a bad base64 or another length is refused before any comparison, and says nothing of the key).
 */
export function signatureMatches(secretKeys: readonly string[], message: string, signature: string): boolean {
  if (!SIGNATURE.test(signature)) return false;
  const given = Buffer.from(signature, 'base64');
  let matched = false;
  for (const key of secretKeys) {
    const expected = createHmac('sha256', key).update(message, 'utf8').digest();
    // Every key is tried, so the time taken does not tell which one matched.
    matched = timingSafeEqual(expected, given) || matched;
  }
  return matched;
}

/** Whether `fields` carry in `signature` a signature by one of `secretKeys` over their own signed_field_names. */
export function signedBy(secretKeys: readonly string[], fields: Readonly<Record<string, string>>): boolean {
  const names = fields.signed_field_names;
  return !!names && !!fields.signature && signatureMatches(secretKeys, signedMessage(fields, signedFieldNames(names)), fields.signature);
}
