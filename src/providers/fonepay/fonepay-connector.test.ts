// The Fonepay connector against Fonepay's published messages (each fixture names its document) and
// against hostile answers: a bad DV, another PRN, another amount, a verification for another payment,
// an answer that never comes. None of them completes a payment.
import { describe, expect, it } from 'vitest';
import { createHmac } from 'node:crypto';
import { TransportError, type HttpAnswer, type HttpRequest, type Transport } from '../provider-http.js';
import { ProviderUnavailableError, type AttemptToStart } from '../provider.js';
import { fonepayConnector, qrApiBase } from './fonepay-connector.js';
import type { FonepayReference } from './transformers.js';

const NBQM_KEY = 'a7e3512f5032480a83137793cb2021dc';
const setupOf = (merchantCode: string, secretKey: string): Parameters<typeof fonepayConnector>[0] => ({
  name: 'fonepay',
  environment: 'test',
  enabled: true,
  sandbox: false,
  settings: { base_url: 'https://dev-clientapi.fonepay.com', merchant_code: merchantCode, username: 'admin' },
  credentials: { secret_key: secretKey, password: 'admin123456' },
});
const NBQM = setupOf('NBQM', NBQM_KEY);

/** A transport that records each request and answers with `answer`. */
function answering(answer: Partial<HttpAnswer> | Error) {
  const requests: HttpRequest[] = [];
  const transport: Transport = async (request) => {
    requests.push(request);
    if (answer instanceof Error) throw answer;
    return { status: 200, contentType: 'application/json', text: '', ...answer };
  };
  return { requests, transport };
}
const json = (body: unknown, status = 200): Partial<HttpAnswer> => ({ status, contentType: 'application/json', text: JSON.stringify(body) });
const xml = (fields: Record<string, string>): Partial<HttpAnswer> => ({ contentType: 'application/xml', text: `<response>${Object.entries(fields).map(([k, v]) => `<${k}>${v}</${k}>`).join('')}</response>` });

const toStart = (idx: string, amount: number): AttemptToStart => ({
  idx,
  amount,
  environment: 'test',
  providerReference: null,
  createdAt: new Date('2017-06-27T06:00:00Z'),
  pidx: 'p',
  orderName: 'Hello, world & co',
  merchantName: 'Shop: Kathmandu',
  websiteUrl: 'https://shop.example',
  customer: null,
  returnUrl: (outcome) => `https://bhuktani.example/pay/return/fonepay/${idx}/${outcome}`,
});
/** The attempt as the connector kept it, by the way it went. */
const attempt = (idx: string, amount: number, providerReference: FonepayReference | null = null) => ({ ...toStart(idx, amount), providerReference });
const web = (uid: string, bankCode: string): FonepayReference => ({ way: 'web', uid, bankCode });
const qr = (qrMessage: string): FonepayReference => ({ way: 'qr', qrMessage });
const hmac = (key: string, message: string) => createHmac('sha512', key).update(message).digest('hex');

describe('the web checkout', () => {
  it('sends the payer to /api/merchantRequest with every field and the DV over PID,MD,PRN,AMT,CRN,DT,R1,R2,RU (Web Integration v2.0)', async () => {
    const connector = fonepayConnector(setupOf('fonepay123', 'fonepay'), answering(new Error('no call')).transport);
    const { redirect } = await connector.start(toStart('d1580724437729', 3050));
    expect(redirect.method).toBe('GET');
    const url = new URL(redirect.url);
    expect(url.origin + url.pathname).toBe('https://dev-clientapi.fonepay.com/api/merchantRequest');
    const q = Object.fromEntries(url.searchParams);
    // DT in Nepal (UTC+05:45); R1 without the comma Fonepay's join cannot tell apart (nor `&`); R2 "N/A" as the document asks.
    expect(q).toMatchObject({ PID: 'fonepay123', MD: 'P', PRN: 'd1580724437729', AMT: '30.50', CRN: 'NPR', DT: '06/27/2017', R1: 'Hello world co', R2: 'N/A', RU: 'https://bhuktani.example/pay/return/fonepay/d1580724437729/success' });
    expect(q.DV).toBe(hmac('fonepay', [q.PID, q.MD, q.PRN, q.AMT, q.CRN, q.DT, q.R1, q.R2, q.RU].join(',')));
  });

  // The document's response example (Web Integration v2.0, "Response from Fonepay"); its printed DV holds for the NBQM merchant.
  const published = { PRN: 'd1580724437729', PID: 'NBQM', PS: 'true', RC: 'successful', UID: '36463', BC: 'NICENPKA', INI: '9841845631', P_AMT: '20.0', R_AMT: '30', DV: '667860224021DF1891F7DE873A37B1DEDA720CCDC43F63BC88F86ED20F579E0DE66526D37C71B1D14A8D466E4B740D17D4FF274CD2819FD6ED2AA3D9A89D7C52' };

  it('reads the published signed return as a claim of paid, with the trace id to verify by', () => {
    const connector = fonepayConnector(NBQM, answering(new Error('no call')).transport);
    expect(connector.readReturn(['d1580724437729', 'success'], published)).toEqual({ attemptIdx: 'd1580724437729', claim: 'paid', signed: true, providerReference: web('36463', 'NICENPKA') });
    expect(connector.readReturn(['d1580724437729', 'success'], { ...published, DV: published.DV.toLowerCase() }).claim).toBe('paid');
  });

  it.each([
    ['a bad DV', ['d1580724437729'], { ...published, DV: published.DV.replace(/^6/, '7') }],
    ['an amount changed under the DV', ['d1580724437729'], { ...published, R_AMT: '3' }],
    ['another payment’s PRN', ['d1580724437730'], published],
    ['no DV', ['d1580724437729'], { ...published, DV: '' }],
  ])('reads a return with %s as unclear, naming no reference', (_name, path, query) => {
    const connector = fonepayConnector(NBQM, answering(new Error('no call')).transport);
    const read = connector.readReturn(path, query);
    expect(read.claim).not.toBe('paid');
    expect(read.signed).toBeFalsy();
    expect(read.providerReference).toBeUndefined();
  });

  it('keeps the marks of an order’s name in R1 and the QR’s remarks, never a comma', async () => {
    const named = { ...toStart('a1b2c3', 1000), orderName: 'Order #12 (Tea-500g), Ram’s', merchantName: 'Tea_House/Ilam v1.2' };
    const { redirect } = await fonepayConnector(setupOf('fonepay123', 'fonepay'), answering(new Error('no call')).transport).start(named);
    expect(new URL(redirect.url).searchParams.get('R1')).toBe('Order #12 (Tea-500g) Rams');
    const { requests, transport } = answering(json({ success: false }, 406));
    await fonepayConnector(NBQM, transport).startQr(named).catch(() => undefined);
    expect(JSON.parse(requests[0].body!)).toMatchObject({ remarks1: 'Order #12 (Tea-500g) Rams', remarks2: 'Tea_House/Ilam v1.2' });
  });

  /** A return as Fonepay signs it (its DV over PRN,PID,PS,RC,UID,BC,INI,P_AMT,R_AMT, uppercase), our own values. */
  const signedReturn = (key: string, fields: Record<'PRN' | 'PID' | 'PS' | 'RC' | 'UID' | 'BC' | 'INI' | 'P_AMT' | 'R_AMT', string>) => ({
    ...fields,
    DV: hmac(key, [fields.PRN, fields.PID, fields.PS, fields.RC, fields.UID, fields.BC, fields.INI, fields.P_AMT, fields.R_AMT].join(',')).toUpperCase(),
  });

  it.each([
    ['failed', '1296830344'],
    ['cancel', '1296830345'],
    ['cancel', 'N/A'],
  ])('reads a signed RC=%s return (UID %s) as Fonepay’s own not paid, keeping nothing to verify by; its status then asks nothing', async (rc, uid) => {
    const none = answering(new Error('no call'));
    const connector = fonepayConnector(setupOf('fonepay123', 'fonepay'), none.transport);
    const query = signedReturn('fonepay', { PRN: 'ORD1001', PID: 'fonepay123', PS: 'false', RC: rc, UID: uid, BC: 'N/A', INI: 'N/A', P_AMT: '150.00', R_AMT: '150.00' });
    expect(connector.readReturn(['ORD1001', 'success'], query)).toEqual({ attemptIdx: 'ORD1001', claim: 'canceled', signed: true, providerReference: undefined });
    expect((await connector.status(attempt('ORD1001', 15000))).kind).toBe('open');
    expect(none.requests).toEqual([]);
  });

  it('does not take a paid return whose trace id is not one', () => {
    const connector = fonepayConnector(setupOf('fonepay123', 'fonepay'), answering(new Error('no call')).transport);
    const query = signedReturn('fonepay', { PRN: 'ORD1001', PID: 'fonepay123', PS: 'true', RC: 'successful', UID: 'N/A', BC: 'NICENPKA', INI: '9800000001', P_AMT: '150.00', R_AMT: '150.00' });
    expect(connector.readReturn(['ORD1001', 'success'], query)).toEqual({ attemptIdx: 'ORD1001', claim: 'unclear' });
  });

  it('reads a signed return of another merchant as unclear', () => {
    const connector = fonepayConnector(setupOf('fonepay123', NBQM_KEY), answering(new Error('no call')).transport);
    expect(connector.readReturn(['d1580724437729'], published).claim).toBe('unclear');
  });

  it('verifies by verificationMerchant with the DV over PID,AMT,PRN,BID,UID, and completes on its XML (Fonepay-Java’s response model)', async () => {
    const { requests, transport } = answering(xml({ amount: '30', bankCode: 'NICENPKA', initiator: '9841845631', message: 'Transaction Verified', response_code: 'successful', statusCode: '200', success: 'true', txnAmount: '20.0', uniqueId: '36463' }));
    const connector = fonepayConnector(NBQM, transport);
    expect(await connector.status(attempt('d1580724437729', 3000, web('36463', 'NICENPKA')))).toMatchObject({ kind: 'paid', transactionId: '36463' });
    const url = new URL(requests[0].url);
    expect(url.pathname).toBe('/api/merchantRequest/verificationMerchant');
    const q = Object.fromEntries(url.searchParams);
    expect(q).toMatchObject({ PRN: 'd1580724437729', PID: 'NBQM', BID: 'NICENPKA', AMT: '30', UID: '36463' });
    expect(q.DV).toBe(hmac(NBQM_KEY, 'NBQM,30,d1580724437729,NICENPKA,36463'));
  });

  it.each([
    ['a success for another payment', { uniqueId: '99999', amount: '30' }, 'unknown'],
    ['a success for another amount', { uniqueId: '36463', amount: '3' }, 'unknown'],
  ])('does not complete on %s', async (_name, fields, kind) => {
    const { transport } = answering(xml({ success: 'true', response_code: 'successful', message: 'Transaction Verified', ...fields }));
    expect((await fonepayConnector(NBQM, transport).status(attempt('d1580724437729', 3000, web('36463', 'NICENPKA')))).kind).toBe(kind);
  });

  it('takes "not verified" as not paid (yet), garbage and errors as unknown, and asks nothing without a verified return', async () => {
    const refused = answering(xml({ success: 'false', response_code: 'failed', message: 'Data Validation Failed' }));
    expect((await fonepayConnector(NBQM, refused.transport).status(attempt('a1b2c3', 3000, web('36463', 'NICENPKA')))).kind).toBe('open');
    const html = answering({ status: 200, contentType: 'text/html', text: '<html>Invalid Request</html>' });
    expect(await fonepayConnector(NBQM, html.transport).status(attempt('a1b2c3', 3000, web('36463', 'NICENPKA')))).toMatchObject({ kind: 'unknown', fault: true });
    const silent = answering(new TransportError('no answer within 5000 ms'));
    expect(await fonepayConnector(NBQM, silent.transport).status(attempt('a1b2c3', 3000, web('36463', 'NICENPKA')))).toMatchObject({ kind: 'unknown', fault: true });
    const none = answering(new Error('no call'));
    expect((await fonepayConnector(NBQM, none.transport).status(attempt('a1b2c3', 3000))).kind).toBe('open');
    expect(none.requests).toEqual([]);
  });
});

describe('the dynamic QR', () => {
  // Dynamic QR v1.1, "QR Request", success response (tag 62 as the PDF prints it; docs/fonepay.md).
  const created = { message: 'successfull', qrMessage: '000201010212153137910524005204460000000NBQM:29226400011fonepay.com0104NBQM020329206061367695204541153035245402145802NP5911Fonepaytest6008District62210703292021098418456336304d3f7', status: 'CREATED', statusCode: 201, success: true, thirdpartyQrWebSocketUrl: 'wss://dev-ws.fonepay.com/convergent-webSocket-web/merchantEndPoint/Td35588c2d9a647f28f4959f96f905bec/NBQM/Y' };

  it('asks thirdPartyDynamicQrDownload with the DV over amount,prn,merchantCode,remarks1,remarks2 and keeps the QR message', async () => {
    const { requests, transport } = answering(json(created, 201));
    const started = await fonepayConnector(NBQM, transport).startQr(toStart('5d76d323d1f6', 1400));
    expect(started).toEqual({ qrMessage: created.qrMessage, providerReference: qr(created.qrMessage) });
    expect(requests[0].url).toBe('https://uat-new-merchant-api.fonepay.com/api/merchant/merchantDetailsForThirdParty/thirdPartyDynamicQrDownload');
    const body = JSON.parse(requests[0].body!);
    expect(body).toMatchObject({ amount: '14', prn: '5d76d323d1f6', merchantCode: 'NBQM', remarks1: 'Hello world co', remarks2: 'Shop Kathmandu', username: 'admin', password: 'admin123456' });
    expect(body.dataValidation).toBe(hmac(NBQM_KEY, '14,5d76d323d1f6,NBQM,Hello world co,Shop Kathmandu'));
  });

  it.each([
    ['a QR for another amount', json(created, 201), 1500],
    ['a QR whose CRC does not hold', json({ ...created, qrMessage: created.qrMessage.replace(/d3f7$/, 'd3f8') }, 201), 1400],
    ['Fonepay’s refusal (Dynamic QR v1.1, error responses)', json({ documentation: 'Merchant request Exception', errorCode: 406, message: 'Data Validation Failed' }, 406), 1400],
    ['an HTML page', { status: 502, contentType: 'text/html', text: '<html>' }, 1400],
  ])('refuses to show %s', async (_name, answer, amount) => {
    await expect(fonepayConnector(NBQM, answering(answer).transport).startQr(toStart('5d76d323d1f6', amount))).rejects.toBeInstanceOf(ProviderUnavailableError);
  });

  it('asks thirdPartyDynamicQrGetStatus with the DV over prn,merchantCode and completes on "success" (Dynamic QR v1.1, "Check QR Request Status")', async () => {
    const { requests, transport } = answering(json({ fonepayTraceId: 17404, merchantCode: 'NBQM', paymentStatus: 'success', prn: '5d76d323-d1f6-4a38-8231-0063f9581c98' }));
    const answer = await fonepayConnector(NBQM, transport).status(attempt('5d76d323-d1f6-4a38-8231-0063f9581c98', 1400, qr(created.qrMessage)));
    expect(answer).toMatchObject({ kind: 'paid', transactionId: '17404' });
    expect(requests[0].url).toBe('https://uat-new-merchant-api.fonepay.com/api/merchant/merchantDetailsForThirdParty/thirdPartyDynamicQrGetStatus');
    // The document's own request example's dataValidation, for this PRN and NBQM.
    expect(JSON.parse(requests[0].body!).dataValidation).toBe('de5fd3bbbd7d36c766a47c0a137e41de7587028d2f6e3deacb5bebe30992326876a6fba4f9ccfd55a1d302a81aba94733d6c1db04f749483be63b619a9b032b7');
  });

  it.each([
    ['failed', { paymentStatus: 'failed' }, 'failed'],
    ['pending', { paymentStatus: 'pending' }, 'open'],
    ['PENDING', { paymentStatus: 'PENDING' }, 'open'],
    ['another PRN’s success', { paymentStatus: 'success', prn: 'other' }, 'unknown'],
    ['another merchant’s success', { paymentStatus: 'success', merchantCode: 'fonepay123' }, 'unknown'],
    ['a success without a trace id', { paymentStatus: 'success', fonepayTraceId: null }, 'unknown'],
    ['a status Fonepay does not publish', { paymentStatus: 'maybe' }, 'unknown'],
  ])('takes %s as %s', async (_name, fields, kind) => {
    const { transport } = answering(json({ fonepayTraceId: 17420, merchantCode: 'NBQM', prn: 'a1b2c3', ...fields }));
    expect((await fonepayConnector(NBQM, transport).status(attempt('a1b2c3', 1400, qr('x')))).kind).toBe(kind);
  });

  it('takes a status answer that never comes as unknown, counted against Fonepay', async () => {
    const { transport } = answering(new TransportError('no answer within 5000 ms'));
    expect(await fonepayConnector(NBQM, transport).status(attempt('a1b2c3', 1400, qr('x')))).toMatchObject({ kind: 'unknown', fault: true });
  });
});

describe('the QR API’s address', () => {
  it('is Fonepay’s merchant API beside its web checkout, or the same server for any other', () => {
    expect(qrApiBase('https://clientapi.fonepay.com')).toBe('https://merchantapi.fonepay.com/api');
    expect(qrApiBase('https://dev-clientapi.fonepay.com/')).toBe('https://uat-new-merchant-api.fonepay.com/api');
    expect(qrApiBase('http://127.0.0.1:3000/sandbox/fonepay')).toBe('http://127.0.0.1:3000/sandbox/fonepay/api');
  });
});
