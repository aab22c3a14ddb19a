// The Fonepay connector against the Fonepay simulator, both ways: what the payer's browser does
// (Fonepay's page, the bank app's) is done here as requests, the rest is the connector's own calls.
// The simulator is written from Fonepay's documents, not from the connector.
import Fastify, { type FastifyInstance } from 'fastify';
import cookie from '@fastify/cookie';
import formbody from '@fastify/formbody';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomBytes } from 'node:crypto';
import { TransportError, type Transport } from '../../providers/provider-http.js';
import type { AttemptToStart } from '../../providers/provider.js';
import type { ProviderSetup } from '../../providers/provider.js';
import { startTestApp, type TestApp } from '../../../test/test-app.js';
import { fonepayConnector, qrMessageOf } from '../../providers/fonepay/fonepay-connector.js';
import { parseQrMessage } from '../../protocols/fonepay/emvco-qr.js';
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
async function press(page: string, button: string) {
  const shown = await sandbox.inject({ method: 'GET', url: page });
  expect(shown.statusCode, shown.body).toBe(200);
  const cookieHeader = shown.cookies.map((c) => `${c.name}=${c.value}`).join('; ');
  const form = [...shown.body.matchAll(/<form method="post" action="([^"]+)"[\s\S]*?<\/form>/g)].find((f) => f[0].includes(`>${button}</button>`));
  expect(form, `no ${button} on ${page}`).toBeDefined();
  const fields = Object.fromEntries([...form![0].matchAll(/name="([^"]+)" value="([^"]*)"/g)].map(([, n, v]) => [n, v.replace(/&amp;/g, '&').replace(/&quot;/g, '"').replace(/&#39;/g, "'")]));
  return sandbox.inject({ method: 'POST', url: form![1], headers: { cookie: cookieHeader, 'content-type': 'application/x-www-form-urlencoded' }, payload: new URLSearchParams(fields).toString() });
}

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

  it('declines: the return says so, and nothing is verified', async () => {
    const a = attempt(1000);
    const { connector, path, query } = await checkout(a, 'Decline');
    expect(query).toMatchObject({ PS: 'false', RC: 'cancel' });
    expect(connector.readReturn(path, query)).toMatchObject({ claim: 'canceled', providerReference: undefined });
    expect((await connector.status(a)).kind).toBe('open');
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

  it('declined in the bank app: failed', async () => {
    const a = attempt(1000);
    const connector = fonepayConnector(setup, transport);
    const { qrMessage, providerReference } = await connector.startQr(a);
    await press(`/sandbox/fonepay/bank-app?qr=${encodeURIComponent(qrMessage)}`, 'Decline');
    expect((await connector.status({ ...a, providerReference })).kind).toBe('failed');
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
