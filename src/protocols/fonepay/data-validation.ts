// Fonepay's data validation (DV), the same rule in both of its merchant protocols: HMAC-SHA512 keyed
// with the merchant's secret key as UTF-8 text (never hex-decoded), over the fields' raw values (not
// URL-encoded) joined by `,`, written in hex. Fonepay prints hex in either case, so a DV received is
// compared without regard to case. The published rule, shared by the connector and the simulator
// and tested against Fonepay's own worked examples (data-validation.test.ts).
import { createHmac, timingSafeEqual } from 'node:crypto';

/** The DV of `values` in the order the message names them, lowercase hex. */
export function dataValidation(secretKey: string, values: readonly string[]): string {
  return createHmac('sha512', Buffer.from(secretKey, 'utf8')).update(Buffer.from(values.join(','), 'utf8')).digest('hex');
}

/** Whether `given` is the DV of `values`, in either case; constant time for a DV of the right length. */
export function dataValidationMatches(secretKey: string, values: readonly string[], given: unknown): boolean {
  if (typeof given !== 'string' || !/^[0-9a-fA-F]{128}$/.test(given)) return false;
  return timingSafeEqual(Buffer.from(dataValidation(secretKey, values), 'hex'), Buffer.from(given, 'hex'));
}
