// Fonepay, spoken as a client (docs/fonepay.md), in its two ways. The web checkout: the payer's
// browser goes to /api/merchantRequest with the signed request and comes back to RU with the signed
// result; its trace id (UID) then lets verificationMerchant decide. The dynamic QR: Fonepay issues
// a QR message for the PRN (thirdPartyDynamicQrDownload), any bank app pays it, and the status check
// (thirdPartyDynamicQrGetStatus) decides. Fonepay has no refund API.
import { TransportError, type HttpRequest, type Transport } from '../provider-http.js';
import { ProviderUnavailableError, type AttemptRef, type AttemptToStart, type PageProvider, type ProviderAnswer, type ProviderReturn, type SetupWith } from '../provider.js';
import { dataValidation } from '../../protocols/fonepay/data-validation.js';
import {
  checkoutRequestSigned,
  createdQr,
  qrStatusAnswer,
  readCheckoutReturn,
  rupees,
  verificationAnswer,
  verificationSigned,
  type CheckoutRequest,
  type FonepayReference,
  type QrRequest,
  type QrStatusRequest,
} from './transformers.js';

/** The QR message an attempt's reference holds, when it went by QR. */
export const qrMessageOf = (reference: FonepayReference | null) => (reference?.way === 'qr' ? reference.qrMessage : undefined);

/**
 * The QR API's root for a set-up's base URL: Fonepay serves the web checkout and the QR API from
 * different hosts (clientapi and merchantapi); any other address (a simulator) serves both.
 */
export function qrApiBase(baseUrl: string): string {
  const known: Record<string, string> = {
    'https://clientapi.fonepay.com': 'https://merchantapi.fonepay.com/api',
    'https://dev-clientapi.fonepay.com': 'https://uat-new-merchant-api.fonepay.com/api',
  };
  return known[baseUrl.replace(/\/+$/, '')] ?? `${baseUrl.replace(/\/+$/, '')}/api`;
}

/** MM/DD/YYYY in Nepal, the request's DT. */
function nepalDate(at: Date): string {
  const parts = Object.fromEntries(new Intl.DateTimeFormat('en-US', { timeZone: 'Asia/Kathmandu', day: '2-digit', month: '2-digit', year: 'numeric' }).formatToParts(at).map((p) => [p.type, p.value]));
  return `${parts.month}/${parts.day}/${parts.year}`;
}

/**
 * An order's or a business's name as Fonepay's remarks carry it (R1; the QR's remarks1 and remarks2,
 * "AN" in its QR document): letters, digits, spaces and the marks of an order's number or name
 * (`Order #12`, `Order-12`, `Tea (500 g)`, `A/B`, `v1.2`, `snake_case`). Never a comma: Fonepay joins
 * the signed values by `,` without escaping, so a comma would move text from one field to the next.
 * Other marks, and letters outside ASCII, are dropped (Fonepay publishes no wider set).
 */
const plain = (text: string, length: number) =>
  text
    .replace(/[^A-Za-z0-9 .\-_#/()]/g, '')
    .replace(/\s+/g, ' ')
    .trim()
    .slice(0, length)
    .trim();

/** The attempt a payer's return names (…/pay/return/fonepay/<attempt>/success?PRN=…), read before the attempt's set-up is known. */
export const fonepayReturnedAttempt = (path: string[], query: Record<string, string>): string | undefined => (path[0] && (query.PRN === undefined || query.PRN === path[0]) ? path[0] : undefined);

type FonepaySetup = SetupWith<{ base_url: string; merchant_code: string; username: string }, { secret_key: string; password: string }>;

export function fonepayConnector(setup: FonepaySetup, transport: Transport): PageProvider<FonepayReference> & Required<Pick<PageProvider<FonepayReference>, 'startQr'>> {
  const { base_url: base, merchant_code: merchantCode, username } = setup.settings;
  const { secret_key: secretKey, password } = setup.credentials;
  const qrApi = `${qrApiBase(base)}/merchant/merchantDetailsForThirdParty`;

  const ask = async (request: HttpRequest, read: (answer: Awaited<ReturnType<Transport>>) => ProviderAnswer): Promise<ProviderAnswer> => {
    try {
      return read(await transport(request));
    } catch (error) {
      if (error instanceof TransportError) return { kind: 'unknown', detail: error.message, fault: true };
      throw error;
    }
  };
  const postJson = (path: string, body: object): HttpRequest => ({ url: `${qrApi}/${path}`, method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json' }, body: JSON.stringify(body) });

  return {
    /** The web checkout: the payer's browser goes to Fonepay's page with the signed request. */
    async start(attempt: AttemptToStart) {
      const request: Omit<CheckoutRequest, 'DV'> = {
        PID: merchantCode,
        MD: 'P',
        PRN: attempt.idx,
        AMT: rupees(attempt.amount),
        CRN: 'NPR',
        DT: nepalDate(attempt.createdAt),
        R1: plain(attempt.orderName, 160) || 'Payment',
        R2: 'N/A',
        RU: attempt.returnUrl('success'),
      };
      const DV = dataValidation(secretKey, checkoutRequestSigned.map((name) => request[name]));
      return { redirect: { method: 'GET' as const, url: `${base.replace(/\/+$/, '')}/api/merchantRequest?${new URLSearchParams({ ...request, DV })}` } };
    },

    /** The dynamic QR: Fonepay's QR message for this attempt's PRN and amount, kept as its reference. */
    async startQr(attempt: AttemptToStart): Promise<{ qrMessage: string; providerReference: FonepayReference }> {
      const fields = { amount: rupees(attempt.amount), prn: attempt.idx, merchantCode, remarks1: plain(attempt.orderName, 25) || 'Payment', remarks2: plain(attempt.merchantName, 25) || 'Bhuktani' };
      const body: QrRequest = { ...fields, dataValidation: dataValidation(secretKey, [fields.amount, fields.prn, fields.merchantCode, fields.remarks1, fields.remarks2]), username, password };
      let answer;
      try {
        answer = await transport(postJson('thirdPartyDynamicQrDownload', body));
      } catch (error) {
        if (error instanceof TransportError) throw new ProviderUnavailableError(error.message);
        throw error;
      }
      const { qrMessage } = createdQr(answer, { amount: attempt.amount });
      return { qrMessage, providerReference: { way: 'qr', qrMessage } };
    },

    readReturn(path: string[], query: Record<string, string>): ProviderReturn<FonepayReference> {
      const attemptIdx = fonepayReturnedAttempt(path, query);
      if (!attemptIdx) return { claim: 'unclear' };
      const read = readCheckoutReturn(query, { secretKey, merchantCode, prn: attemptIdx });
      if (!read.verified) return { attemptIdx, claim: 'unclear' };
      return { attemptIdx, claim: read.paid ? 'paid' : 'canceled', signed: true, providerReference: read.paid ? { way: 'web', uid: read.uid, bankCode: read.bankCode } : undefined };
    },

    async status(attempt: AttemptRef<FonepayReference>): Promise<ProviderAnswer> {
      const reference = attempt.providerReference;
      if (reference?.way === 'qr') {
        const body: QrStatusRequest = { prn: attempt.idx, merchantCode, dataValidation: dataValidation(secretKey, [attempt.idx, merchantCode]), username, password };
        return ask(postJson('thirdPartyDynamicQrGetStatus', body), (answer) => qrStatusAnswer(answer, { prn: attempt.idx, merchantCode }));
      }
      // Only the return carries the trace id verificationMerchant asks by: none came back (yet).
      if (!reference) return { kind: 'open', detail: 'Fonepay: no verified return yet' };
      const { uid, bankCode } = reference;
      const query = { PID: merchantCode, AMT: rupees(attempt.amount), PRN: attempt.idx, BID: bankCode, UID: uid };
      const DV = dataValidation(secretKey, verificationSigned.map((name) => query[name]));
      return ask({ url: `${base.replace(/\/+$/, '')}/api/merchantRequest/verificationMerchant?${new URLSearchParams({ ...query, DV })}`, method: 'GET', headers: { accept: 'application/xml' } }, (answer) =>
        verificationAnswer(answer, { uid, amount: attempt.amount }),
      );
    },
  };
}
