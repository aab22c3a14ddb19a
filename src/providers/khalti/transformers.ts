// Khalti's wire types (the v2 web checkout: initiate, lookup, refund; docs/providers.md) mapped to
// ours. Every field is checked: an answer for another pidx or amount is not a payment.
import { jsonOf, type HttpAnswer } from '../provider-http.js';
import type { ProviderAnswer, RefundAnswer, RefundedRecord } from '../provider.js';

export interface KhaltiInitiated {
  pidx: string;
  payment_url: string;
}

/**
 * Khalti's refusal of a request as invalid, in a line (its documented 400: each field's messages and
 * `error_key: validation_error`); undefined for any other answer.
 */
export function validationRefusal(answer: HttpAnswer): string | undefined {
  if (answer.status !== 400) return undefined;
  let body: Record<string, unknown>;
  try {
    body = jsonOf(answer);
  } catch {
    return undefined;
  }
  if (body.error_key !== 'validation_error') return undefined;
  const fields = Object.entries(body).filter(([name]) => name !== 'error_key' && name !== 'status_code');
  return `Khalti refused it: ${fields.map(([name, messages]) => `${name}: ${Array.isArray(messages) ? messages.join(' ') : JSON.stringify(messages)}`).join('; ')}`.slice(0, 300);
}

/** The initiate answer, or the reason it is not one. */
export function initiated(answer: HttpAnswer): KhaltiInitiated | string {
  if (answer.status !== 200) return `initiate answered ${answer.status}`;
  const body = jsonOf(answer);
  const { pidx, payment_url } = body;
  if (typeof pidx !== 'string' || !/^[\w-]{1,64}$/.test(pidx)) return 'initiate answered without a pidx';
  if (typeof payment_url !== 'string' || !/^https?:\/\//.test(payment_url)) return 'initiate answered without an http(s) payment_url';
  // Khalti's payment_url names its payment (…/?pidx=<pidx>): one naming another is not this answer.
  if (new URL(payment_url).searchParams.get('pidx') !== pidx) return 'initiate answered a payment_url of another pidx';
  return { pidx, payment_url };
}

const integer = (value: unknown) => (typeof value === 'number' && Number.isSafeInteger(value) ? value : typeof value === 'string' && /^\d{1,15}$/.test(value) ? Number(value) : undefined);

/** What a lookup of `pidx`, initiated for `amount`, says. */
export function lookupAnswer(answer: HttpAnswer, expected: { pidx: string; amount: number }): ProviderAnswer {
  if (answer.status === 404) return { kind: 'unknown', detail: 'lookup: Khalti does not know the pidx' };
  if (answer.status !== 200 && answer.status !== 400) return { kind: 'unknown', detail: `lookup answered ${answer.status}`, fault: true };
  const body = jsonOf(answer);
  const status = body.status;
  if (body.pidx !== expected.pidx) return { kind: 'unknown', detail: 'lookup answered for another pidx', fault: true };
  if (answer.status === 400) {
    // Expired and User canceled come with 400 and the lookup's shape.
    if (status === 'Expired' || status === 'User canceled') return { kind: 'failed', detail: `Khalti: ${status}` };
    return { kind: 'unknown', detail: `lookup answered 400${typeof body.detail === 'string' ? `: ${body.detail.slice(0, 100)}` : ''}`, fault: true };
  }
  switch (status) {
    case 'Completed': {
      if (integer(body.total_amount) !== expected.amount) return { kind: 'unknown', detail: `Khalti: Completed for ${String(body.total_amount)} paisa, not ${expected.amount}`, fault: true };
      const transactionId = body.transaction_id;
      if (typeof transactionId !== 'string' || transactionId === '') return { kind: 'unknown', detail: 'Khalti: Completed without a transaction_id', fault: true };
      const fee = integer(body.fee);
      return { kind: 'paid', transactionId: transactionId.slice(0, 100), fee: fee !== undefined && fee <= expected.amount ? fee : 0, detail: 'Khalti: Completed' };
    }
    case 'Initiated':
      return { kind: 'open', detail: 'Khalti: Initiated' };
    case 'Pending':
      return { kind: 'unknown', detail: 'Khalti: Pending' };
    default:
      // Refunded before Bhuktani settled it, or a status Khalti does not publish: an operator must look.
      return { kind: 'unknown', detail: `Khalti: ${typeof status === 'string' ? status.slice(0, 40) : 'no status'}` };
  }
}

export function refundAnswer(answer: HttpAnswer): RefundAnswer {
  if (answer.status === 200) return { kind: 'refunded', detail: 'Khalti: refund successful' };
  if (answer.status === 400 || answer.status === 404) {
    let detail = `refund answered ${answer.status}`;
    try {
      const body = jsonOf(answer);
      if (typeof body.detail === 'string') detail = `Khalti: ${body.detail.slice(0, 200)}`;
    } catch {
      // the status says enough
    }
    return { kind: 'refused', detail };
  }
  return { kind: 'unknown', detail: `refund answered ${answer.status}`, fault: true };
}

/**
 * What a lookup of a paid `pidx` says was refunded of it: Khalti's status (`Completed`, `Refunded`,
 * `Partially refunded`) and `refunded`; the amount only when the answer carries `refunded_amount`
 * (Khalti documents none; Bhuktani's lookup adds it).
 */
export function refundedRecord(answer: HttpAnswer, expected: { pidx: string; amount: number }): RefundedRecord {
  if (answer.status !== 200) return { kind: 'unknown', detail: `lookup answered ${answer.status}`, fault: true };
  const body = jsonOf(answer);
  if (body.pidx !== expected.pidx || integer(body.total_amount) !== expected.amount) return { kind: 'unknown', detail: 'lookup answered for another payment or amount', fault: true };
  const status = typeof body.status === 'string' ? body.status.toLowerCase() : '';
  const amount = body.refunded_amount === undefined ? undefined : integer(body.refunded_amount);
  if (typeof body.refunded !== 'boolean' || (body.refunded_amount !== undefined && amount === undefined)) return { kind: 'unknown', detail: 'lookup answered without a readable refunded', fault: true };
  const detail = `Khalti's lookup: ${String(body.status).slice(0, 40)}, refunded ${body.refunded}${amount === undefined ? '' : `, ${amount} paisa`}`;
  const fits = (any: boolean, whole: boolean) => body.refunded === any && (amount === undefined || (any ? amount > 0 && (whole ? amount === expected.amount : amount < expected.amount) : amount === 0));
  if (status === 'completed' && fits(false, false)) return { kind: 'record', any: false, whole: false, amount, detail };
  if (status === 'refunded' && fits(true, true)) return { kind: 'record', any: true, whole: true, amount: amount ?? expected.amount, detail };
  if (status === 'partially refunded' && fits(true, false)) return { kind: 'record', any: true, whole: false, amount, detail };
  return { kind: 'unknown', detail: `${detail}: not a paid payment's record`, fault: true };
}
