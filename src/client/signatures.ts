// The signatures Bhuktani adds for integrators, in one place so the server that signs and the
// client that verifies can never disagree. Only node:crypto: the client stays usable on its own.
import { createHmac, timingSafeEqual } from 'node:crypto';

/** The callback parameters in signing order; `signature` covers exactly these (`txnId`: see verifyCallback). */
export const CALLBACK_SIGNED_PARAMETERS = [
  'pidx',
  'transaction_id',
  'tidx',
  'amount',
  'total_amount',
  'mobile',
  'status',
  'purchase_order_id',
  'purchase_order_name',
] as const;

/**
 * The message signed for a callback: each parameter as `name=value` with the value
 * percent-encoded (encodeURIComponent), in CALLBACK_SIGNED_PARAMETERS order, joined with `&`.
 */
export function callbackMessage(params: Record<string, string | undefined>): string {
  return CALLBACK_SIGNED_PARAMETERS.map((name) => `${name}=${encodeURIComponent(params[name] ?? '')}`).join('&');
}

export function signCallback(params: Record<string, string | undefined>, signingSecret: string): string {
  return createHmac('sha256', signingSecret).update(callbackMessage(params)).digest('hex');
}

function equalHex(a: string, b: string): boolean {
  const left = Buffer.from(a, 'hex');
  const right = Buffer.from(b, 'hex');
  return left.length === right.length && left.length > 0 && timingSafeEqual(left, right);
}

/**
 * True when `params.signature` was made by Bhuktani for these parameters. `txnId` is outside the
 * signed message (signatures are what they were before it was added, so older clients still verify
 * them) but is always `transaction_id`'s value: a callback whose `txnId` differs is refused, so
 * `txnId` is as trustworthy as the signed `transaction_id` once this returns true.
 */
export function verifyCallback(params: Record<string, string | undefined> | URLSearchParams, signingSecret: string): boolean {
  const values = params instanceof URLSearchParams ? Object.fromEntries(params) : params;
  const signature = values.signature;
  if (values.txnId !== undefined && values.txnId !== (values.transaction_id ?? '')) return false;
  return typeof signature === 'string' && /^[0-9a-f]{64}$/.test(signature) && equalHex(signature, signCallback(values, signingSecret));
}

/** `Bhuktani-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256 of "t.body">`. */
export function signWebhook(body: string, signingSecret: string, unixSeconds: number): string {
  const v1 = createHmac('sha256', signingSecret).update(`${unixSeconds}.${body}`).digest('hex');
  return `t=${unixSeconds},v1=${v1}`;
}

/**
 * True when the header signs this exact body with the secret and its timestamp is within
 * `toleranceSeconds` of now (a replayed old delivery is refused).
 */
export function verifyWebhook(body: string, header: string | undefined | null, signingSecret: string, options: { toleranceSeconds?: number; now?: Date } = {}): boolean {
  if (!header) return false;
  const parts = Object.fromEntries(header.split(',').map((part) => part.trim().split('=', 2) as [string, string]));
  const t = Number(parts.t);
  if (!Number.isSafeInteger(t) || typeof parts.v1 !== 'string') return false;
  const now = Math.floor((options.now ?? new Date()).getTime() / 1000);
  if (Math.abs(now - t) > (options.toleranceSeconds ?? 300)) return false;
  const expected = signWebhook(body, signingSecret, t).split('v1=')[1];
  return equalHex(parts.v1, expected);
}
