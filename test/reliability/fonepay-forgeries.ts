// What the fault proxy forges of Fonepay's server-to-server answers: each a success that is not this
// payment's, in Fonepay's own shape, which Bhuktani must not take. The QR API issues a well-formed
// QR (its CRC made right) for another amount; the status check says `success` for another PRN or
// another merchant; verificationMerchant verifies another trace id or another amount. (Fonepay's
// answers carry no signature: a `success` for this very PRN from someone on the path cannot be told
// from Fonepay's; TLS is what keeps that one out, and the proxy does not forge it.)
import { buildQrMessage, parseQrMessage, type DataObjects } from '../../src/protocols/emvco/merchant-qr.js';
import type { Forgery } from './fault-proxy.js';

function forgedQr(json: Record<string, unknown>): string | undefined {
  const objects = parseQrMessage(json.qrMessage);
  if (!objects) return undefined;
  const amount = (Number(objects.get('54') ?? 0) + 1).toFixed(2);
  const others: DataObjects = [...objects].filter(([id]) => id !== '00' && id !== '63').map(([id, value]) => [id, id === '54' ? amount : value]);
  return JSON.stringify({ ...json, qrMessage: buildQrMessage(others, { lowercaseCrc: true }) });
}

function forgedVerification(xml: string, random: () => number): string | undefined {
  if (!xml.includes('<response>')) return undefined;
  const field = (name: string) => new RegExp(`<${name}>([^<]*)</${name}>`).exec(xml)?.[1] ?? '';
  const uniqueId = random() < 0.5 ? '999999999' : field('uniqueId');
  const amount = uniqueId === field('uniqueId') ? (Number(field('amount') || 0) + 1).toFixed(2) : field('amount') || '100';
  return `<response><amount>${amount}</amount><bankCode>NICENPKA</bankCode><initiator>9800000001</initiator><message>Transaction Verified</message><response_code>successful</response_code><statusCode>200</statusCode><success>true</success><txnAmount>${amount}</txnAmount><uniqueId>${uniqueId}</uniqueId></response>`;
}

export const fonepayForgery: Forgery = ({ path, body }, random) => {
  if (path.includes('/verificationMerchant')) return forgedVerification(body, random);
  let json: Record<string, unknown>;
  try {
    json = JSON.parse(body);
  } catch {
    return undefined;
  }
  if (path.endsWith('/thirdPartyDynamicQrDownload')) return forgedQr(json);
  const another = random() < 0.5 ? { prn: 'SomeoneElsesPrn1' } : { merchantCode: 'NBQM' };
  return JSON.stringify({ fonepayTraceId: 999999999, merchantCode: json.merchantCode, prn: json.prn, ...another, paymentStatus: 'success' });
};
