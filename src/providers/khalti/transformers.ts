// Khalti's wire types (the v2 web checkout: initiate, lookup, refund; docs/providers.md), each a
// schema of what Khalti publishes (fixtures/kpg-2.ts), mapped to ours. Every field is checked: an
// answer for another pidx or amount is not a payment, and one of another shape is unknown.
import { Type, type Static } from '@sinclair/typebox';
import type { HttpAnswer } from '../provider-http.js';
import type { ProviderAnswer, RefundAnswer, RefundedRecord } from '../provider.js';
import { oneOf, readJson, unmapped } from '../wire.js';

/** Paisa as Khalti writes them: a JSON integer, or its digits in a string. */
const Paisa = Type.Union([Type.Integer({ minimum: 0 }), Type.String({ pattern: '^\\d{1,15}$' })]);

/** What the connector keeps of an attempt: the pidx Khalti's initiate gave, which lookup asks by. */
export const KhaltiReference = Type.Object({ pidx: Type.String({ minLength: 1 }) });
export type KhaltiReference = Static<typeof KhaltiReference>;

/** initiate's answer (200). */
const Initiated = Type.Object({ pidx: Type.String({ pattern: '^[\\w-]{1,64}$' }), payment_url: Type.String({ pattern: '^https?://' }) });

/** lookup's answer, 200 or (Expired, User canceled) 400: the same shape either way. */
const Lookup = Type.Object({
  pidx: Type.String(),
  total_amount: Paisa,
  status: Type.String(),
  transaction_id: Type.Union([Type.String(), Type.Null()]),
  fee: Type.Optional(Paisa),
  refunded: Type.Optional(Type.Boolean()),
  /** Not Khalti's: Bhuktani's lookup adds it, and a record with it says how much was refunded. */
  refunded_amount: Type.Optional(Paisa),
});

/** lookup's answer read as a record of refunds: `refunded` is then required. */
const RefundedLookup = Type.Object({ ...Lookup.properties, refunded: Type.Boolean() });

/** A refusal as invalid (400): each field's messages, and `error_key: validation_error`. */
const ValidationError = Type.Object({ error_key: Type.Literal('validation_error') }, { additionalProperties: Type.Unknown() });

/** The statuses Khalti's lookup publishes (KPG-2, "Payment Status Code"). */
export const khaltiStatuses = ['Completed', 'Pending', 'Initiated', 'Refunded', 'Partially refunded', 'Expired', 'User canceled'] as const;
export type KhaltiStatus = (typeof khaltiStatuses)[number];

const integer = (value: string | number | undefined) => (value === undefined ? undefined : Number(value));

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
  const read = readJson(answer, ValidationError, 'a refusal');
  if (!read.ok) return undefined;
  const fields = Object.entries(read.body).filter(([name]) => name !== 'error_key' && name !== 'status_code');
  return `Khalti refused it: ${fields.map(([name, messages]) => `${name}: ${Array.isArray(messages) ? messages.join(' ') : JSON.stringify(messages)}`).join('; ')}`.slice(0, 300);
}

/** The initiate answer, or the reason it is not one. */
export function initiated(answer: HttpAnswer): KhaltiInitiated | string {
  if (answer.status !== 200) return `initiate answered ${answer.status}`;
  const read = readJson(answer, Initiated, 'initiate');
  if (!read.ok) return read.reason;
  const { pidx, payment_url } = read.body;
  // Khalti's payment_url names its payment (…/?pidx=<pidx>): one naming another is not this answer.
  if (new URL(payment_url).searchParams.get('pidx') !== pidx) return 'initiate answered a payment_url of another pidx';
  return { pidx, payment_url };
}

/** What a lookup of `pidx`, initiated for `amount`, says. */
export function lookupAnswer(answer: HttpAnswer, expected: { pidx: string; amount: number }): ProviderAnswer {
  if (answer.status === 404) return { kind: 'unknown', detail: 'lookup: Khalti does not know the pidx' };
  if (answer.status !== 200 && answer.status !== 400) return { kind: 'unknown', detail: `lookup answered ${answer.status}`, fault: true };
  const read = readJson(answer, Lookup, 'lookup');
  if (!read.ok) {
    // A 400 in another shape: its detail, when it has one.
    const refusal = answer.status === 400 ? readJson(answer, Type.Object({ detail: Type.String() }), 'a refusal') : undefined;
    return { kind: 'unknown', detail: refusal ? `lookup answered 400${refusal.ok ? `: ${refusal.body.detail.slice(0, 100)}` : ''}` : read.reason, fault: true };
  }
  const body = read.body;
  if (body.pidx !== expected.pidx) return { kind: 'unknown', detail: 'lookup answered for another pidx', fault: true };
  const status = oneOf(khaltiStatuses, body.status);
  // Refunded before Bhuktani settled it, or a status Khalti does not publish: an operator must look.
  if (!status) return { kind: 'unknown', detail: `Khalti: ${body.status.slice(0, 40) || 'no status'}` };
  // Expired and User canceled come with 400; any other status with 400 is no answer of Khalti's.
  if (answer.status === 400 && status !== 'Expired' && status !== 'User canceled') return { kind: 'unknown', detail: 'lookup answered 400', fault: true };
  switch (status) {
    case 'Completed': {
      if (integer(body.total_amount) !== expected.amount) return { kind: 'unknown', detail: `Khalti: Completed for ${String(body.total_amount)} paisa, not ${expected.amount}`, fault: true };
      if (!body.transaction_id) return { kind: 'unknown', detail: 'Khalti: Completed without a transaction_id', fault: true };
      const fee = integer(body.fee);
      return { kind: 'paid', transactionId: body.transaction_id.slice(0, 100), fee: fee !== undefined && fee <= expected.amount ? fee : 0, detail: 'Khalti: Completed' };
    }
    case 'Initiated':
      return { kind: 'open', detail: 'Khalti: Initiated' };
    case 'Expired':
    case 'User canceled':
      return { kind: 'failed', detail: `Khalti: ${status}` };
    case 'Pending':
    case 'Refunded':
    case 'Partially refunded':
      return { kind: 'unknown', detail: `Khalti: ${status}` };
    default:
      return unmapped(status);
  }
}

export function refundAnswer(answer: HttpAnswer): RefundAnswer {
  if (answer.status === 200) return { kind: 'refunded', detail: 'Khalti: refund successful' };
  if (answer.status === 400 || answer.status === 404) {
    const read = readJson(answer, Type.Object({ detail: Type.String() }), 'a refusal');
    return { kind: 'refused', detail: read.ok ? `Khalti: ${read.body.detail.slice(0, 200)}` : `refund answered ${answer.status}` };
  }
  return { kind: 'unknown', detail: `refund answered ${answer.status}`, fault: true };
}

/**
 * What a lookup of a paid `pidx` says was refunded of it: Khalti's status (`Completed`, `Refunded`,
 * `Partially refunded`, in any case) and `refunded`; the amount only when the answer carries
 * `refunded_amount` (Khalti documents none; Bhuktani's lookup adds it).
 */
export function refundedRecord(answer: HttpAnswer, expected: { pidx: string; amount: number }): RefundedRecord {
  if (answer.status !== 200) return { kind: 'unknown', detail: `lookup answered ${answer.status}`, fault: true };
  const read = readJson(answer, RefundedLookup, 'lookup');
  if (!read.ok) return { kind: 'unknown', detail: `${read.reason}: no readable refunded`, fault: true };
  const body = read.body;
  if (body.pidx !== expected.pidx || integer(body.total_amount) !== expected.amount) return { kind: 'unknown', detail: 'lookup answered for another payment or amount', fault: true };
  const amount = integer(body.refunded_amount);
  const detail = `Khalti's lookup: ${body.status.slice(0, 40)}, refunded ${body.refunded}${amount === undefined ? '' : `, ${amount} paisa`}`;
  const fits = (any: boolean, whole: boolean) => body.refunded === any && (amount === undefined || (any ? amount > 0 && (whole ? amount === expected.amount : amount < expected.amount) : amount === 0));
  const status = khaltiStatuses.find((name) => name.toLowerCase() === body.status.toLowerCase());
  if (status === 'Completed' && fits(false, false)) return { kind: 'record', any: false, whole: false, amount, detail };
  if (status === 'Refunded' && fits(true, true)) return { kind: 'record', any: true, whole: true, amount: amount ?? expected.amount, detail };
  if (status === 'Partially refunded' && fits(true, false)) return { kind: 'record', any: true, whole: false, amount, detail };
  return { kind: 'unknown', detail: `${detail}: not a paid payment's record`, fault: true };
}
