// eSewa's ePay v2 signature (contract section 12): HMAC-SHA256 with the secret key's text, base64,
// over `name=value` pairs joined by `,` in the order of signed_field_names.
import { createHmac, timingSafeEqual } from 'node:crypto';

export function esewaSignature(secretKey: string, fields: Record<string, string>, signedFieldNames: string): string {
  const message = signedFieldNames
    .split(',')
    .map((name) => `${name}=${fields[name] ?? ''}`)
    .join(',');
  return createHmac('sha256', secretKey).update(message, 'utf8').digest('base64');
}

export function esewaSignatureValid(secretKey: string, fields: Record<string, string>, signedFieldNames: string, signature: string): boolean {
  const expected = Buffer.from(esewaSignature(secretKey, fields, signedFieldNames));
  const given = Buffer.from(signature);
  return expected.length === given.length && timingSafeEqual(expected, given);
}

/** Paisa as eSewa's rupees: `100`, `100.5` → `100.50`. */
export const rupees = (paisa: number) => (paisa % 100 === 0 ? String(paisa / 100) : (paisa / 100).toFixed(2));

/** eSewa's rupees (`100`, `100.0`, `100.50`, or a number) as paisa; undefined when it is not an amount. */
export function paisaOf(value: unknown): number | undefined {
  const text = typeof value === 'number' ? String(value) : typeof value === 'string' ? value.replace(/,/g, '') : '';
  if (!/^\d{1,13}(\.\d{1,2})?$/.test(text)) return undefined;
  const [whole, fraction = ''] = text.split('.');
  return Number(whole) * 100 + Number(fraction.padEnd(2, '0'));
}
