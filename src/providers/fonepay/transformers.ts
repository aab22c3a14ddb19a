// Fonepay's wire types (docs/fonepay.md): the web checkout's request, the signed return and the
// verification's XML; the dynamic QR's request, its answer and the status check's JSON. Each
// answer is mapped to ours only when it names the same payment: the same PRN (or trace id), the
// same merchant, the same amount.
import { jsonOf, TransportError, type HttpAnswer } from '../provider-http.js';
import { ProviderUnavailableError, type ProviderAnswer } from '../provider.js';
import { dataValidationMatches } from '../../protocols/fonepay/data-validation.js';
import { parseQrMessage } from '../../protocols/fonepay/emvco-qr.js';

/** The web checkout's request (GET or POST to /api/merchantRequest); every field is mandatory. */
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

export function readCheckoutReturn(query: Record<string, string>, expected: { secretKey: string; merchantCode: string; prn: string }): ReadReturn {
  const values = checkoutReturnSigned.map((name) => query[name] ?? '');
  if (!dataValidationMatches(expected.secretKey, values, query.DV)) return { verified: false };
  if (query.PRN !== expected.prn || query.PID !== expected.merchantCode || !/^\w{1,40}$/.test(query.UID ?? '')) return { verified: false };
  const paid = query.PS === 'true' && query.RC?.toLowerCase() === 'successful';
  return { verified: true, paid, uid: query.UID, bankCode: (query.BC ?? '').slice(0, 40), requested: paisaOf(query.R_AMT) };
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

/** verificationMerchant's answer about the payment Fonepay traced as `uid`, asked for `amount` paisa. */
export function verificationAnswer(answer: HttpAnswer, expected: { uid: string; amount: number }): ProviderAnswer {
  if (answer.status !== 200) return { kind: 'unknown', detail: `verificationMerchant answered ${answer.status}`, fault: true };
  const fields = verificationFields(answer.text);
  if (!fields) return { kind: 'unknown', detail: 'verificationMerchant answered without a <response>', fault: true };
  const message = fields.message ? ` (${fields.message.slice(0, 80)})` : '';
  const succeeded = fields.success?.toLowerCase() === 'true' && fields.response_code?.toLowerCase() === 'successful';
  if (fields.success?.toLowerCase() === 'false') return { kind: 'open', detail: `Fonepay: not verified${message}` };
  if (!succeeded) return { kind: 'unknown', detail: `Fonepay: verification ${(fields.response_code ?? 'without a response code').slice(0, 40)}${message}` };
  if (fields.uniqueId !== expected.uid) return { kind: 'unknown', detail: 'verificationMerchant answered for another payment', fault: true };
  if (paisaOf(fields.amount) !== expected.amount) return { kind: 'unknown', detail: `Fonepay: verified for ${String(fields.amount).slice(0, 20)}, not ${expected.amount} paisa`, fault: true };
  return { kind: 'paid', transactionId: expected.uid, fee: 0, detail: `Fonepay: verified${message}` };
}

/** The QR message Fonepay issued for `amount` paisa; a ProviderUnavailableError for any other answer. */
export function createdQr(answer: HttpAnswer, expected: { amount: number }): { qrMessage: string } {
  let body: Record<string, unknown>;
  try {
    body = jsonOf(answer);
  } catch (error) {
    throw new ProviderUnavailableError(`thirdPartyDynamicQrDownload: ${(error as TransportError).message}`);
  }
  if (answer.status !== 200 && answer.status !== 201) throw new ProviderUnavailableError(`thirdPartyDynamicQrDownload answered ${answer.status}${typeof body.message === 'string' ? ` (${body.message.slice(0, 80)})` : ''}`);
  const objects = body.success === true ? parseQrMessage(body.qrMessage) : undefined;
  if (!objects) throw new ProviderUnavailableError('thirdPartyDynamicQrDownload answered without a well-formed qrMessage');
  if (objects.get('53') !== '524' || paisaOf(objects.get('54')) !== expected.amount) throw new ProviderUnavailableError(`Fonepay's QR asks for ${objects.get('54') ?? 'no amount'} ${objects.get('53') ?? ''}, not ${expected.amount} paisa`);
  return { qrMessage: body.qrMessage as string };
}

/** thirdPartyDynamicQrGetStatus's answer about `prn` of `merchantCode` (the QR fixed the amount). */
export function qrStatusAnswer(answer: HttpAnswer, expected: { prn: string; merchantCode: string }): ProviderAnswer {
  if (answer.status >= 400 && answer.status < 500) return { kind: 'unknown', detail: `thirdPartyDynamicQrGetStatus answered ${answer.status}` };
  if (answer.status !== 200) return { kind: 'unknown', detail: `thirdPartyDynamicQrGetStatus answered ${answer.status}`, fault: true };
  const body = jsonOf(answer);
  if (body.prn !== expected.prn || body.merchantCode !== expected.merchantCode) return { kind: 'unknown', detail: 'thirdPartyDynamicQrGetStatus answered for another payment', fault: true };
  const status = typeof body.paymentStatus === 'string' ? body.paymentStatus.toLowerCase() : '';
  switch (status) {
    case 'success': {
      const trace = body.fonepayTraceId;
      if (!(typeof trace === 'number' && Number.isSafeInteger(trace)) && !(typeof trace === 'string' && /^\d{1,30}$/.test(trace))) return { kind: 'unknown', detail: 'Fonepay: success without a fonepayTraceId', fault: true };
      return { kind: 'paid', transactionId: String(trace), fee: 0, detail: 'Fonepay: success' };
    }
    case 'failed':
      return { kind: 'failed', detail: 'Fonepay: failed' };
    case 'pending':
    case 'timeout':
      return { kind: 'open', detail: `Fonepay: ${status}` };
    default:
      return { kind: 'unknown', detail: `Fonepay: ${status.slice(0, 40) || 'no paymentStatus'}` };
  }
}
