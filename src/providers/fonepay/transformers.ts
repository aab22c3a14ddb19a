// Fonepay's wire types (docs/fonepay.md): the web checkout's request, the signed return and the
// verification's XML; the dynamic QR's request, its answer and the status check's JSON. Each
// answer is mapped to ours only when it names the same payment: the same PRN (or trace id), the
// same merchant, the same amount.
import { Type, type Static } from '@sinclair/typebox';
import type { HttpAnswer } from '../provider-http.js';
import { ProviderUnavailableError, type ProviderAnswer } from '../provider.js';
import { dataValidationMatches } from '../../protocols/fonepay/data-validation.js';
import { parseQrMessage } from '../../protocols/emvco/merchant-qr.js';
import { oneOf, readAs, readJson, unmapped } from '../wire.js';

/** The web checkout's request (GET or POST to /api/merchantRequest); every field is mandatory. */
/**
 * What the connector keeps of an attempt, by the way it went: the QR message Fonepay issued (shown
 * again on a reload; the QR status check asks by the PRN), or the trace id and bank code of a
 * verified web return (verificationMerchant asks by them). None while a web checkout has not come back.
 */
export const FonepayReference = Type.Union([
  Type.Object({ way: Type.Literal('qr'), qrMessage: Type.String({ minLength: 1 }) }),
  Type.Object({ way: Type.Literal('web'), uid: Type.String({ pattern: '^\\w+$' }), bankCode: Type.String() }),
]);
export type FonepayReference = Static<typeof FonepayReference>;

export interface CheckoutRequest {
  PID: string;
  MD: 'P';
  PRN: string;
  AMT: string;
  CRN: 'NPR';
  DT: string;
  R1: string;
  R2: string;
  RU: string;
  DV: string;
}
/** The order of the request's DV. */
export const checkoutRequestSigned = ['PID', 'MD', 'PRN', 'AMT', 'CRN', 'DT', 'R1', 'R2', 'RU'] as const;

/** What Fonepay adds to RU's query when it sends the payer back. */
export const checkoutReturnSigned = ['PRN', 'PID', 'PS', 'RC', 'UID', 'BC', 'INI', 'P_AMT', 'R_AMT'] as const;
export type CheckoutReturn = Record<(typeof checkoutReturnSigned)[number] | 'DV', string>;

/** verificationMerchant's query; its DV is over PID,AMT,PRN,BID,UID (another order than the others). */
export const verificationSigned = ['PID', 'AMT', 'PRN', 'BID', 'UID'] as const;

/** thirdPartyDynamicQrDownload's JSON body; dataValidation over amount,prn,merchantCode,remarks1,remarks2. */
export interface QrRequest {
  amount: string;
  remarks1: string;
  remarks2: string;
  prn: string;
  merchantCode: string;
  dataValidation: string;
  username: string;
  password: string;
}

/** thirdPartyDynamicQrGetStatus's JSON body; dataValidation over prn,merchantCode. */
export type QrStatusRequest = Pick<QrRequest, 'prn' | 'merchantCode' | 'dataValidation' | 'username' | 'password'>;

/** Paisa as Fonepay's rupees: `150`, or `150.50` when there are paisa. */
export const rupees = (paisa: number) => (paisa % 100 === 0 ? String(paisa / 100) : (paisa / 100).toFixed(2));

/** Fonepay's rupees (`30`, `20.0`, `150.00`, or a JSON number) as paisa; undefined when it is not an amount. */
export function paisaOf(value: unknown): number | undefined {
  const text = typeof value === 'number' && Number.isFinite(value) ? value.toFixed(2) : typeof value === 'string' ? value.trim() : '';
  const match = /^(\d{1,12})(?:\.(\d{1,2})0*)?$/.exec(text);
  return match ? Number(match[1]) * 100 + Number((match[2] ?? '0').padEnd(2, '0')) : undefined;
}

/** What a returning browser's query says, once its DV holds for our merchant and this attempt's PRN. */
export type ReadReturn = { verified: false } | { verified: true; paid: boolean; uid: string; bankCode: string; requested: number | undefined };

/**
 * The return's response codes (Web Integration v2.0, "Parameter Details for Payment Response"):
 * `successful` with PS `true`; `failed` (the bank refused) or `cancel` (the payer went back) with PS
 * `false`. Either of the last two is not paid; neither names a trace id worth keeping (it may be `N/A`).
 */
export function readCheckoutReturn(query: Record<string, string>, expected: { secretKey: string; merchantCode: string; prn: string }): ReadReturn {
  const values = checkoutReturnSigned.map((name) => query[name] ?? '');
  if (!dataValidationMatches(expected.secretKey, values, query.DV)) return { verified: false };
  if (query.PRN !== expected.prn || query.PID !== expected.merchantCode) return { verified: false };
  const paid = query.PS === 'true' && query.RC?.toLowerCase() === 'successful';
  // A paid return's trace id is what verificationMerchant asks by: one of another form names nothing.
  if (paid && !/^\w{1,40}$/.test(query.UID ?? '')) return { verified: false };
  return { verified: true, paid, uid: query.UID ?? '', bankCode: (query.BC ?? '').slice(0, 40), requested: paisaOf(query.R_AMT) };
}

const entities: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

/** The child elements of verificationMerchant's `<response>`, as text; undefined for anything else. */
export function verificationFields(text: string): Record<string, string> | undefined {
  const body = /<response>([\s\S]*)<\/response>/.exec(text)?.[1];
  if (body === undefined) return undefined;
  const fields: Record<string, string> = {};
  for (const [, name, value] of body.matchAll(/<(\w+)>([^<]*)<\/\1>/g)) fields[name] = value.replace(/&(amp|lt|gt|quot|apos);/g, (_, e: string) => entities[e]);
  return fields;
}

/** verificationMerchant's `<response>`, its children as text (Fonepay's web document, 1.5). */
const Verification = Type.Object({
  success: Type.Optional(Type.String()),
  response_code: Type.Optional(Type.String()),
  message: Type.Optional(Type.String()),
  uniqueId: Type.Optional(Type.String()),
  amount: Type.Optional(Type.String()),
});

/** verificationMerchant's answer about the payment Fonepay traced as `uid`, asked for `amount` paisa. */
export function verificationAnswer(answer: HttpAnswer, expected: { uid: string; amount: number }): ProviderAnswer {
  if (answer.status !== 200) return { kind: 'unknown', detail: `verificationMerchant answered ${answer.status}`, fault: true };
  const xml = verificationFields(answer.text);
  if (!xml) return { kind: 'unknown', detail: 'verificationMerchant answered without a <response>', fault: true };
  const read = readAs(Verification, xml, 'verificationMerchant');
  if (!read.ok) return { kind: 'unknown', detail: read.reason, fault: true };
  const fields = read.body;
  const message = fields.message ? ` (${fields.message.slice(0, 80)})` : '';
  const succeeded = fields.success?.toLowerCase() === 'true' && fields.response_code?.toLowerCase() === 'successful';
  if (fields.success?.toLowerCase() === 'false') return { kind: 'open', detail: `Fonepay: not verified${message}` };
  if (!succeeded) return { kind: 'unknown', detail: `Fonepay: verification ${(fields.response_code ?? 'without a response code').slice(0, 40)}${message}` };
  if (fields.uniqueId !== expected.uid) return { kind: 'unknown', detail: 'verificationMerchant answered for another payment', fault: true };
  if (paisaOf(fields.amount) !== expected.amount) return { kind: 'unknown', detail: `Fonepay: verified for ${String(fields.amount).slice(0, 20)}, not ${expected.amount} paisa`, fault: true };
  return { kind: 'paid', transactionId: expected.uid, fee: 0, detail: `Fonepay: verified${message}` };
}

/** thirdPartyDynamicQrDownload's answer (its Dynamic QR document, 3.3). */
const QrCreated = Type.Object({ success: Type.Boolean(), qrMessage: Type.Optional(Type.String()), message: Type.Optional(Type.String()) });

/** The QR message Fonepay issued for `amount` paisa; a ProviderUnavailableError for any other answer. */
export function createdQr(answer: HttpAnswer, expected: { amount: number }): { qrMessage: string } {
  if (answer.status !== 200 && answer.status !== 201) {
    // Its refusal ("Merchant request Exception"), with its message when it has one.
    const refusal = readJson(answer, Type.Object({ message: Type.String() }), 'a refusal');
    throw new ProviderUnavailableError(`thirdPartyDynamicQrDownload answered ${answer.status}${refusal.ok ? ` (${refusal.body.message.slice(0, 80)})` : ''}`);
  }
  const read = readJson(answer, QrCreated, 'thirdPartyDynamicQrDownload');
  if (!read.ok) throw new ProviderUnavailableError(read.reason);
  const objects = read.body.success ? parseQrMessage(read.body.qrMessage) : undefined;
  if (!objects || !read.body.qrMessage) throw new ProviderUnavailableError('thirdPartyDynamicQrDownload answered without a well-formed qrMessage');
  if (objects.get('53') !== '524' || paisaOf(objects.get('54')) !== expected.amount) throw new ProviderUnavailableError(`Fonepay's QR asks for ${objects.get('54') ?? 'no amount'} ${objects.get('53') ?? ''}, not ${expected.amount} paisa`);
  return { qrMessage: read.body.qrMessage };
}

/** thirdPartyDynamicQrGetStatus's answer (its Dynamic QR document, 3.5). */
const QrStatus = Type.Object({
  prn: Type.String(),
  merchantCode: Type.String(),
  paymentStatus: Type.Optional(Type.String()),
  fonepayTraceId: Type.Optional(Type.Union([Type.Integer({ minimum: 0 }), Type.String({ pattern: '^\\d{1,30}$' }), Type.Null()])),
});

/** The payment statuses the QR status check publishes (in any case). */
export const qrStatuses = ['success', 'failed', 'pending', 'timeout'] as const;

/** thirdPartyDynamicQrGetStatus's answer about `prn` of `merchantCode` (the QR fixed the amount). */
export function qrStatusAnswer(answer: HttpAnswer, expected: { prn: string; merchantCode: string }): ProviderAnswer {
  if (answer.status >= 400 && answer.status < 500) return { kind: 'unknown', detail: `thirdPartyDynamicQrGetStatus answered ${answer.status}` };
  if (answer.status !== 200) return { kind: 'unknown', detail: `thirdPartyDynamicQrGetStatus answered ${answer.status}`, fault: true };
  const read = readJson(answer, QrStatus, 'thirdPartyDynamicQrGetStatus');
  if (!read.ok) return { kind: 'unknown', detail: read.reason, fault: true };
  const body = read.body;
  if (body.prn !== expected.prn || body.merchantCode !== expected.merchantCode) return { kind: 'unknown', detail: 'thirdPartyDynamicQrGetStatus answered for another payment', fault: true };
  const written = (body.paymentStatus ?? '').toLowerCase();
  const status = oneOf(qrStatuses, written);
  if (!status) return { kind: 'unknown', detail: `Fonepay: ${written.slice(0, 40) || 'no paymentStatus'}` };
  switch (status) {
    case 'success':
      if (body.fonepayTraceId === undefined || body.fonepayTraceId === null) return { kind: 'unknown', detail: 'Fonepay: success without a fonepayTraceId', fault: true };
      return { kind: 'paid', transactionId: String(body.fonepayTraceId), fee: 0, detail: 'Fonepay: success' };
    case 'failed':
      return { kind: 'failed', detail: 'Fonepay: failed' };
    case 'pending':
    case 'timeout':
      return { kind: 'open', detail: `Fonepay: ${status}` };
    default:
      return unmapped(status);
  }
}
