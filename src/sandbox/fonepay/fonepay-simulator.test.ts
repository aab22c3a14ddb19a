// The Fonepay connector against the Fonepay simulator, both ways: what the payer's browser does
// (Fonepay's page, the bank app's) is done here as requests, the rest is the connector's own calls.
// The simulator is written from Fonepay's documents, not from the connector; where a client other
// than Bhuktani's connector would speak otherwise (a UUID for a PRN, marks in remarks, a return URL
// with a query, the QR's WebSocket), the requests are a client's own, signed by the published rule.
import Fastify, { type FastifyInstance } from 'fastify';
import cookie from '@fastify/cookie';
import formbody from '@fastify/formbody';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomBytes, randomUUID } from 'node:crypto';
import { connect } from 'node:net';
import WebSocket from 'ws';
import { TransportError, type Transport } from '../../providers/provider-http.js';
import type { AttemptToStart } from '../../providers/provider.js';
import type { ProviderSetup } from '../../providers/provider.js';
import { startTestApp, type TestApp } from '../../../test/test-app.js';
import { fonepayConnector, qrMessageOf } from '../../providers/fonepay/fonepay-connector.js';
import { parseQrMessage } from '../../protocols/emvco/merchant-qr.js';
import { dataValidation } from '../../protocols/fonepay/data-validation.js';
import { FONEPAY_TEST_MERCHANT } from '../../providers/fonepay/test-merchant.js';
import { registerFonepaySimulator } from './fonepay-simulator.js';

let t: TestApp;
let sandbox: FastifyInstance;
let setup: ProviderSetup & Parameters<typeof fonepayConnector>[0];
const TIMEOUT_MS = 300;

/** The connector's transport: into the simulator, given up after TIMEOUT_MS as the real one is. */
const transport: Transport = async (request) => {
  const url = new URL(request.url);
  const answer = sandbox.inject({ method: request.method, url: url.pathname + url.search, headers: request.headers, payload: request.body });
  const late = new Promise<never>((_, reject) => setTimeout(() => reject(new TransportError(`no answer within ${TIMEOUT_MS} ms`)), TIMEOUT_MS));
  const done = await Promise.race([answer, late]);
  return { status: done.statusCode, contentType: String(done.headers['content-type'] ?? ''), text: done.body };
};

beforeAll(async () => {
  t = await startTestApp();
  sandbox = Fastify();
  await sandbox.register(formbody);
  await sandbox.register(cookie);
  registerFonepaySimulator(sandbox, { ctx: t.ctx, csrfSecret: randomBytes(32), silence: () => new Promise((resolve) => setTimeout(resolve, TIMEOUT_MS * 3)), sandboxSetup: async () => setup });
  await sandbox.ready();
  const { merchant_code, username, secret_key, password } = FONEPAY_TEST_MERCHANT;
  setup = { name: 'fonepay', environment: 'test', enabled: true, sandbox: true, settings: { base_url: `${t.ctx.config.publicUrl}/sandbox/fonepay`, merchant_code, username }, credentials: { secret_key, password } };
});
afterAll(async () => {
  await sandbox?.close();
  await t?.close();
});

const attempt = (amount: number): AttemptToStart => {
  const idx = t.ctx.ids.random(12);
  return { idx, amount, environment: 'test', providerReference: null, createdAt: new Date(), pidx: 'p', orderName: 'Order 7', merchantName: 'Tea Shop', websiteUrl: 'https://shop.example', customer: null, returnUrl: (o) => `${t.ctx.config.publicUrl}/pay/return/fonepay/${idx}/${o}` };
};

/** A browser on the simulator's pages: its cookie, and the form of the button it presses. */
async function press(page: string, button: string, on: FastifyInstance = sandbox) {
  const shown = await on.inject({ method: 'GET', url: page });
  expect(shown.statusCode, shown.body).toBe(200);
  const cookieHeader = shown.cookies.map((c) => `${c.name}=${c.value}`).join('; ');
  const form = [...shown.body.matchAll(/<form method="post" action="([^"]+)"[\s\S]*?<\/form>/g)].find((f) => f[0].includes(`>${button}</button>`));
  expect(form, `no ${button} on ${page}`).toBeDefined();
  const fields = Object.fromEntries([...form![0].matchAll(/name="([^"]+)" value="([^"]*)"/g)].map(([, n, v]) => [n, v.replace(/&amp;/g, '&').replace(/&quot;/g, '"').replace(/&#39;/g, "'")]));
  return on.inject({ method: 'POST', url: form![1], headers: { cookie: cookieHeader, 'content-type': 'application/x-www-form-urlencoded' }, payload: new URLSearchParams(fields).toString() });
}

const { merchant_code: merchantCode, secret_key: secretKey, username, password } = FONEPAY_TEST_MERCHANT;
const QR_API = '/sandbox/fonepay/api/merchant/merchantDetailsForThirdParty';

/** A web checkout request as any client sends it (Web Integration v2.0): every field, and the DV over PID,MD,PRN,AMT,CRN,DT,R1,R2,RU. */
function checkoutRequest(fields: { PRN: string; AMT: string; R1: string; RU: string }): string {
  const request = { PID: merchantCode, MD: 'P', PRN: fields.PRN, AMT: fields.AMT, CRN: 'NPR', DT: '11/28/2026', R1: fields.R1, R2: 'N/A', RU: fields.RU };
  const DV = dataValidation(secretKey, [request.PID, request.MD, request.PRN, request.AMT, request.CRN, request.DT, request.R1, request.R2, request.RU]);
  return `/sandbox/fonepay/api/merchantRequest?${new URLSearchParams({ ...request, DV })}`;
}

/** A QR request as any client sends it (Dynamic QR v1.1): JSON, the DV over amount,prn,merchantCode,remarks1,remarks2. */
function askQr(fields: { amount: string; prn: string; remarks1: string; remarks2: string }, on: FastifyInstance = sandbox) {
  const signed = dataValidation(secretKey, [fields.amount, fields.prn, merchantCode, fields.remarks1, fields.remarks2]);
  return on.inject({ method: 'POST', url: `${QR_API}/thirdPartyDynamicQrDownload`, payload: { ...fields, merchantCode, dataValidation: signed, username, password } });
}

/** The QR status check as any client asks it (Dynamic QR v1.1): the DV over prn,merchantCode. */
async function askStatus(prn: string): Promise<{ fonepayTraceId: number; paymentStatus: string; prn: string }> {
  const answer = await sandbox.inject({ method: 'POST', url: `${QR_API}/thirdPartyDynamicQrGetStatus`, payload: { prn, merchantCode, dataValidation: dataValidation(secretKey, [prn, merchantCode]), username, password } });
  expect(answer.statusCode, answer.body).toBe(200);
  return answer.json();
}

const bankAppOf = (qrMessage: string) => `/sandbox/fonepay/bank-app?qr=${encodeURIComponent(qrMessage)}`;

/** The web checkout up to the return: the redirect followed, a button pressed; the return's path and query. */
async function checkout(a: AttemptToStart, button: string) {
  const connector = fonepayConnector(setup, transport);
  const { redirect } = await connector.start(a);
  const back = await press(redirect.url.replace(t.ctx.config.publicUrl, ''), button);
  expect(back.statusCode).toBe(303);
  const ru = new URL(back.headers.location as string);
  expect(ru.pathname).toBe(`/pay/return/fonepay/${a.idx}/success`);
  return { connector, path: ru.pathname.split('/').slice(4), query: Object.fromEntries(ru.searchParams) };
}

describe('the web checkout against the simulator', () => {
  it('pays: the signed return names the trace id, and verificationMerchant says paid', async () => {
    const a = attempt(15050);
    const { connector, path, query } = await checkout(a, 'Pay');
    expect(query).toMatchObject({ PRN: a.idx, PID: 'fonepay123', PS: 'true', RC: 'successful', R_AMT: '150.50' });
    const read = connector.readReturn(path, query);
    expect(read).toMatchObject({ attemptIdx: a.idx, claim: 'paid' });
    expect(await connector.status({ ...a, providerReference: read.providerReference! })).toMatchObject({ kind: 'paid', transactionId: query.UID });
  });

  it.each([
    ['Decline', 'failed'],
    ['Cancel', 'cancel'],
  ])('%s: the return says RC=%s, signed; the connector reads Fonepay’s not paid, and nothing is verified', async (button, rc) => {
    const a = attempt(1000);
    const { connector, path, query } = await checkout(a, button);
    expect(query).toMatchObject({ PS: 'false', RC: rc, BC: 'N/A', UID: expect.stringMatching(/^\d+$/) });
    expect(connector.readReturn(path, query)).toEqual({ attemptIdx: a.idx, claim: 'canceled', signed: true, providerReference: undefined });
    expect((await connector.status(a)).kind).toBe('open');
  });

  it('shows the order’s name with the marks Fonepay’s remarks allow (parentheses, #, -), never a comma', async () => {
    const a = { ...attempt(1000), orderName: 'Tea (500 g), Order #12-B' };
    const { redirect } = await fonepayConnector(setup, transport).start(a);
    const page = await sandbox.inject({ method: 'GET', url: redirect.url.replace(t.ctx.config.publicUrl, '') });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('<h1 class="order">Tea (500 g) Order #12-B</h1>');
  });

  it('takes a 36-character PRN (a UUID, as Fonepay’s own QR example signs), not a longer one', async () => {
    const ru = 'https://shop.example/fonepay/return';
    const uuid = randomUUID();
    expect((await sandbox.inject({ method: 'GET', url: checkoutRequest({ PRN: uuid, AMT: '10', R1: 'Order 1', RU: ru }) })).statusCode).toBe(200);
    const tooLong = await sandbox.inject({ method: 'GET', url: checkoutRequest({ PRN: `${randomUUID()}x`, AMT: '10', R1: 'Order 1', RU: ru }) });
    expect(tooLong.statusCode).toBe(400);
    expect(tooLong.body).toContain('Invalid parameters');
  });

  it('adds its result after a return URL’s own query, keeping it as the merchant wrote it, a PRN of its own included', async () => {
    const prn = t.ctx.ids.random(12);
    const ru = 'https://shop.example/?wc-api=WC_Gateway_Fonepay&note=a%20b+c&flag&PRN=mine#top';
    const back = await press(checkoutRequest({ PRN: prn, AMT: '150.00', R1: 'Order 1', RU: ru }), 'Pay');
    expect(back.statusCode).toBe(303);
    const location = back.headers.location as string;
    expect(location.startsWith(`https://shop.example/?wc-api=WC_Gateway_Fonepay&note=a%20b+c&flag&PRN=mine&PRN=${prn}&PID=fonepay123&PS=true&RC=successful&`)).toBe(true);
    expect(location.endsWith('#top')).toBe(true);
    // Fonepay's own fields are the last of their names, and its DV holds over them.
    const fields = Object.fromEntries(new URL(location).searchParams);
    expect(fields).toMatchObject({ 'wc-api': 'WC_Gateway_Fonepay', note: 'a b c', flag: '', PRN: prn, R_AMT: '150.00' });
    const values = [fields.PRN, fields.PID, fields.PS, fields.RC, fields.UID, fields.BC, fields.INI, fields.P_AMT, fields.R_AMT];
    expect(fields.DV).toBe(dataValidation(secretKey, values).toUpperCase());
  });

  it('does not verify a paid return replayed for another amount or trace id', async () => {
    const a = attempt(2000);
    const { connector, path, query } = await checkout(a, 'Pay');
    const reference = connector.readReturn(path, query).providerReference;
    if (reference?.way !== 'web') throw new Error('a paid return names its trace id');
    expect((await connector.status({ ...a, amount: 2100, providerReference: reference })).kind).toBe('open');
    expect((await connector.status({ ...a, providerReference: { ...reference, uid: '12345' } })).kind).toBe('open');
  });

  it('refuses a request whose DV does not hold: Fonepay’s "Invalid Request" page', async () => {
    const { redirect } = await fonepayConnector({ ...setup, credentials: { ...setup.credentials, secret_key: 'other' } }, transport).start(attempt(1000));
    const refused = await sandbox.inject({ method: 'GET', url: redirect.url.replace(t.ctx.config.publicUrl, '') });
    expect(refused.statusCode).toBe(400);
    expect(refused.body).toContain('Data Validation Failed');
  });

  it('shows the same page for the same request again, and refuses a PRN used for another amount', async () => {
    const a = attempt(1000);
    const { redirect } = await fonepayConnector(setup, transport).start(a);
    const url = redirect.url.replace(t.ctx.config.publicUrl, '');
    expect((await sandbox.inject({ method: 'GET', url })).statusCode).toBe(200);
    expect((await sandbox.inject({ method: 'GET', url })).statusCode).toBe(200);
    const { redirect: other } = await fonepayConnector(setup, transport).start({ ...a, amount: 2000 });
    const refused = await sandbox.inject({ method: 'GET', url: other.url.replace(t.ctx.config.publicUrl, '') });
    expect(refused.statusCode).toBe(400);
    expect(refused.body).toContain('Duplicate PRN');
  });

  it('takes a verification that never answers as unknown', async () => {
    const a = attempt(1000);
    const { connector, path, query } = await checkout(a, 'Pay: Fonepay never answers');
    expect(await connector.status({ ...a, providerReference: connector.readReturn(path, query).providerReference! })).toMatchObject({ kind: 'unknown', fault: true });
  });
});

describe('the dynamic QR against the simulator', () => {
  it('issues a well-formed EMVCo QR for the amount; pending until the bank app pays, then success', async () => {
    const a = attempt(15050);
    const connector = fonepayConnector(setup, transport);
    const { qrMessage, providerReference } = await connector.startQr(a);
    expect(qrMessageOf(providerReference)).toBe(qrMessage);
    expect(Object.fromEntries(parseQrMessage(qrMessage)!)).toMatchObject({ '00': '01', '01': '12', '53': '524', '54': '150.50', '58': 'NP' });
    const started = { ...a, providerReference };
    expect((await connector.status(started)).kind).toBe('open');
    const paid = await press(`/sandbox/fonepay/bank-app?qr=${encodeURIComponent(qrMessage)}`, 'Pay');
    expect(paid.body).toContain('You paid Rs. 150.50');
    expect(await connector.status(started)).toMatchObject({ kind: 'paid', transactionId: expect.stringMatching(/^\d+$/) });
  });

  it.each(['Decline', 'Cancel'])('%s in the bank app: failed', async (button) => {
    const a = attempt(1000);
    const connector = fonepayConnector(setup, transport);
    const { qrMessage, providerReference } = await connector.startQr(a);
    await press(bankAppOf(qrMessage), button);
    expect((await connector.status({ ...a, providerReference })).kind).toBe('failed');
  });

  it('keeps one fonepayTraceId for a PRN: the same at every pending check, and once paid', async () => {
    const prn = t.ctx.ids.random(12);
    const created = await askQr({ amount: '10', prn, remarks1: 'Order 1', remarks2: 'Tea Shop' });
    expect(created.statusCode).toBe(201);
    const first = await askStatus(prn);
    expect(first).toMatchObject({ paymentStatus: 'pending', prn, fonepayTraceId: expect.any(Number) });
    expect(await askStatus(prn)).toEqual(first);
    await press(bankAppOf(created.json().qrMessage), 'Pay');
    expect(await askStatus(prn)).toEqual({ ...first, paymentStatus: 'success' });
  });

  it('takes a 36-character PRN (the UUID of Fonepay’s own example), paid in the bank app; not a longer one', async () => {
    const prn = randomUUID();
    const created = await askQr({ amount: '14', prn, remarks1: 'test1', remarks2: 'test2' });
    expect(created.statusCode, created.body).toBe(201);
    await press(bankAppOf(created.json().qrMessage), 'Pay');
    expect(await askStatus(prn)).toMatchObject({ prn, paymentStatus: 'success' });
    const tooLong = await askQr({ amount: '14', prn: `${randomUUID()}x`, remarks1: 'test1', remarks2: 'test2' });
    expect(tooLong.statusCode).toBe(406);
  });

  it.each(['Order-12', 'Order #12', 'Tea (500 g)', "Ram's Tea & Momo"])('takes the remark %j (the document’s AN, as integrations write it)', async (remark) => {
    const created = await askQr({ amount: '10', prn: t.ctx.ids.random(12), remarks1: remark, remarks2: 'Shop: Kathmandu' });
    expect(created.statusCode, created.body).toBe(201);
  });

  it('refuses a remark with a comma, which the DV’s comma-joined message could not tell apart', async () => {
    const refused = await askQr({ amount: '10', prn: t.ctx.ids.random(12), remarks1: 'Order, 12', remarks2: 'Tea Shop' });
    expect(refused.statusCode).toBe(406);
    expect(refused.json()).toMatchObject({ documentation: 'Merchant request Exception', message: 'Invalid Request' });
  });

  it('refuses a second QR for one PRN, and a QR request with the wrong password', async () => {
    const a = attempt(1000);
    await fonepayConnector(setup, transport).startQr(a);
    await expect(fonepayConnector(setup, transport).startQr(a)).rejects.toThrow(/409/);
    await expect(fonepayConnector({ ...setup, credentials: { ...setup.credentials, password: 'x' } }, transport).startQr(attempt(1000))).rejects.toThrow(/Invalid username/);
  });

  it('a bank app shown another message than the one issued finds no payment', async () => {
    const { qrMessage } = await fonepayConnector(setup, transport).startQr(attempt(1000));
    const forged = await sandbox.inject({ method: 'GET', url: `/sandbox/fonepay/bank-app?qr=${encodeURIComponent(qrMessage.replace('5802NP', '5802IN').slice(0, -4))}0000` });
    expect(forged.statusCode).toBe(404);
  });

  it('takes a status check that never answers as unknown', async () => {
    const a = attempt(1000);
    const connector = fonepayConnector(setup, transport);
    const { qrMessage, providerReference } = await connector.startQr(a);
    await press(`/sandbox/fonepay/bank-app?qr=${encodeURIComponent(qrMessage)}`, 'Pay: Fonepay never answers');
    expect(await connector.status({ ...a, providerReference })).toMatchObject({ kind: 'unknown', fault: true });
  });
});

describe('the sandbox bank app', () => {
  it('reads the QR: whom once, how much, its remarks as a receipt; its own frame, not a checkout’s', async () => {
    const { qrMessage } = await fonepayConnector(setup, transport).startQr(attempt(15050));
    const page = await sandbox.inject({ method: 'GET', url: bankAppOf(qrMessage) });
    expect(page.statusCode).toBe(200);
    // Said once on the page (each form carries the QR message itself, which names it too).
    expect(page.body.replace(/ value="[^"]*"/g, '').match(/Bhuktani sandbox/g)).toHaveLength(1);
    expect(page.body.match(/<h1[ >]/g)).toHaveLength(1);
    expect(page.body).toContain('<h1 class="order">Bhuktani sandbox</h1>');
    expect(page.body).toContain('<dl class="receipt"><div><dt>City</dt><dd>Kathmandu</dd></div><div><dt>Remarks</dt><dd>Order 7</dd></div><div><dt>Remarks 2</dt><dd>Tea Shop</dd></div></dl>');
    expect(page.body).not.toContain('Secure checkout');
  });

  it.each([
    ['Pay', 'Payment sent', 'You paid Rs. 150.50.'],
    ['Decline', 'Payment declined', 'Your bank declined this payment: nothing was paid.'],
    ['Cancel', 'Payment canceled', 'You canceled this payment: nothing was paid.'],
  ])('%s: one heading, what happened in a status of its own, the facts as a receipt', async (button, heading, said) => {
    const { qrMessage } = await fonepayConnector(setup, transport).startQr(attempt(15050));
    const done = await press(bankAppOf(qrMessage), button);
    expect(done.statusCode).toBe(200);
    expect(done.body.match(/<h1[ >]/g)).toEqual(['<h1>']);
    expect(done.body).toContain(`<h1>${heading}</h1>\n  <p role="status">${said}</p>\n  <dl class="receipt"><div><dt>To</dt><dd>Bhuktani sandbox</dd></div>`);
    expect(done.body.match(/Bhuktani sandbox/g)).toHaveLength(1);
    expect(done.body).not.toContain('Secure checkout');
    // The same QR again: answered already, nothing more paid.
    const again = await press(bankAppOf(qrMessage), 'Pay');
    expect(again.body).toContain('<h1>Already answered</h1>');
  });
});

describe('the QR’s WebSocket, as Fonepay’s QR document defines it', () => {
  let port: number;
  beforeAll(async () => {
    // The whole app, listening: the advertised address's host (PUBLIC_URL's) resolves to it.
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    port = (t.app.server.address() as { port: number }).port;
  });

  /** A client of the address the QR answer names, as an integration opens it: it sends nothing, it reads. */
  function listenOn(address: string) {
    const socket = new WebSocket(address, { createConnection: () => connect({ port, host: '127.0.0.1' }) });
    const received: unknown[] = [];
    const waiting: ((message: unknown) => void)[] = [];
    socket.on('message', (data) => {
      const message = JSON.parse(String(data));
      const waiter = waiting.shift();
      if (waiter) waiter(message);
      else received.push(message);
    });
    return {
      opened: new Promise<void>((resolve, reject) => {
        socket.once('open', () => resolve());
        socket.once('error', reject);
      }),
      next: () => (received.length ? Promise.resolve(received.shift()) : new Promise<unknown>((resolve) => waiting.push(resolve))) as Promise<{ merchantId: number; deviceId: string; transactionStatus: string }>,
      closed: new Promise<number>((resolve) => socket.once('close', (code) => resolve(code))),
    };
  }

  it('tells a client on the advertised address of the scan, then of the payment (transactionStatus a JSON string), then closes', async () => {
    const prn = t.ctx.ids.random(12);
    const created = await askQr({ amount: '150.50', prn, remarks1: 'Order 7', remarks2: 'Tea Shop' });
    const { thirdpartyQrWebSocketUrl: address, qrMessage } = created.json();
    const deviceId = /\/merchantEndPoint\/(T\w+)\/fonepay123\/Y$/.exec(address)![1];
    expect(address).toBe(`ws://bhuktani.test/sandbox/fonepay/convergent-webSocket-web/merchantEndPoint/${deviceId}/fonepay123/Y`);
    const client = listenOn(address);
    await client.opened;

    // The bank app reads the QR (here on the bare simulator: another instance than the socket's).
    expect((await sandbox.inject({ method: 'GET', url: bankAppOf(qrMessage) })).statusCode).toBe(200);
    const scan = await client.next();
    expect(scan).toEqual({ merchantId: expect.any(Number), deviceId, transactionStatus: expect.any(String) });
    expect(JSON.parse(scan.transactionStatus)).toEqual({ success: true, message: 'VERIFIED', QRVerified: true });

    await press(bankAppOf(qrMessage), 'Pay');
    const payment = await client.next();
    expect(payment).toMatchObject({ deviceId, transactionStatus: expect.any(String) });
    const status = JSON.parse(payment.transactionStatus);
    expect(status).toMatchObject({ productNumber: prn, amount: '150.50', remarks1: 'Order 7', remarks2: 'Tea Shop', message: 'Request Complete', success: true, paymentSuccess: true, totalCalculatedAmount: 150.5 });
    expect(status.transactionDate).toMatch(/^[A-Z][a-z]{2} \d{1,2}, \d{4} \d{1,2}:\d{2}:\d{2} [AP]M$/);
    // What the document asks a client to do next: the status check, which agrees.
    expect(await askStatus(prn)).toMatchObject({ paymentStatus: 'success', fonepayTraceId: status.traceId });
    expect(await client.closed).toBe(1000);
  });

  it('tells of a declined payment with paymentSuccess false', async () => {
    const created = await askQr({ amount: '10', prn: t.ctx.ids.random(12), remarks1: 'Order 8', remarks2: 'Tea Shop' });
    const client = listenOn(created.json().thirdpartyQrWebSocketUrl);
    await client.opened;
    await press(bankAppOf(created.json().qrMessage), 'Decline');
    expect(JSON.parse((await client.next()).transactionStatus)).toMatchObject({ QRVerified: true });
    expect(JSON.parse((await client.next()).transactionStatus)).toMatchObject({ message: 'Request Failed', success: false, paymentSuccess: false });
    expect(await client.closed).toBe(1000);
  });

  it('refuses an address it never named, before the upgrade', async () => {
    const client = listenOn('ws://bhuktani.test/sandbox/fonepay/convergent-webSocket-web/merchantEndPoint/Tnosuchdevice/fonepay123/Y');
    await expect(client.opened).rejects.toThrow(/404/);
  });
});
