// The `data` parameter eSewa adds to success_url (and, documented, to failure_url): base64 of a JSON
// object, signed over its own signed_field_names (which names itself). Pure: the door writes it; a
// merchant, a test or a client of eSewa reads and checks it with the same functions.
import { signatureMatches, signedFieldNames, signedMessage, signFields } from '../../protocols/esewa-epay/signature.js';

/** What an ePay v2 payment ended as, in eSewa's words. */
export interface EsewaResult {
  /** The payment's transaction id; absent when nothing was paid. */
  transaction_code?: string;
  status: 'COMPLETE' | 'PENDING' | 'CANCELED';
  /** As eSewa writes it (`"100.0"`). */
  total_amount: string;
  transaction_uuid: string;
  product_code: string;
}

export interface SignedResult extends EsewaResult {
  signed_field_names: string;
  signature: string;
}

/** The fields in eSewa's order, each one present. */
function fieldsOf(result: EsewaResult): Record<string, string> {
  const fields: Record<string, string> = {};
  if (result.transaction_code !== undefined) fields.transaction_code = result.transaction_code;
  Object.assign(fields, { status: result.status, total_amount: result.total_amount, transaction_uuid: result.transaction_uuid, product_code: result.product_code });
  return fields;
}

export function signResult(secretKey: string, result: EsewaResult): SignedResult {
  const fields = fieldsOf(result);
  const names = [...Object.keys(fields), 'signed_field_names'];
  const signed = { ...fields, signed_field_names: names.join(',') };
  return { ...(signed as EsewaResult & { signed_field_names: string }), signature: signFields(secretKey, signed, names) };
}

/** The `data` value: standard base64 of the signed JSON. */
export function resultData(secretKey: string, result: EsewaResult): string {
  return Buffer.from(JSON.stringify(signResult(secretKey, result)), 'utf8').toString('base64');
}

/** The object `data` carries, if it is base64 of a JSON object whose values are strings. */
export function readResultData(data: string): Record<string, string> | undefined {
  try {
    const value: unknown = JSON.parse(Buffer.from(data, 'base64').toString('utf8'));
    if (value === null || typeof value !== 'object' || Array.isArray(value)) return undefined;
    const entries = Object.entries(value);
    return entries.every(([, v]) => typeof v === 'string') ? Object.fromEntries(entries) : undefined;
  } catch {
    return undefined;
  }
}

/** Whether `data` is signed by one of `secretKeys` over its own signed_field_names, as a merchant checks it. */
export function resultDataVerified(secretKeys: readonly string[], data: string): boolean {
  const fields = readResultData(data);
  if (!fields?.signed_field_names || !fields.signature) return false;
  return signatureMatches(secretKeys, signedMessage(fields, signedFieldNames(fields.signed_field_names)), fields.signature);
}
