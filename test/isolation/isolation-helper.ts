// The isolation helper (issue 6): records every route the app registers (through Fastify's
// initialization channel, as test/api-security.test.ts does for /api), builds a world of two
// merchants — A with data in both environments, B the intruder — and runs, for each route, the
// attempts its classification lists to reach A's data as B or as A in the other environment.
// A route nobody classified fails the suite, so a new route cannot skip the attempts; a HEAD route
// repeats its GET route's attempts.
import { randomBytes, randomInt } from 'node:crypto';
import diagnostics from 'node:diagnostics_channel';
import type { FastifyInstance, FastifyReply, FastifyRequest, LightMyRequestResponse } from 'fastify';
import { expect } from 'vitest';
import { CSRF_COOKIE, csrfToken } from '../../src/http/csrf.js';
import { serverSecret } from '../../src/http/server-secret.js';
import { maskedAccountNumber } from '../../src/merchants/bank-account.js';
import { signingSecret } from '../../src/merchants/signing-secret.js';
import { merchantApi, validInitiate } from '../api-client.js';
import { esewaForm, ESEWA_FORM, pidxOf, postForm, readData, v1Form, type EsewaPair } from '../esewa-client.js';
import { merchantBrowser, type MerchantBrowser, uniqueSignUp } from '../dashboard-client.js';
import { callbackParams, operatorWallet, payerBrowser, payWithLiveWallet } from '../portal-client.js';
import { approveSignedUp } from '../merchant-approval.js';
import { teamMember } from '../team-client.js';
import { startTestApp, type TestApp } from '../test-app.js';

export interface AppRoute {
  method: string;
  /** As registered, e.g. `/dashboard/payments/:pidx`. */
  url: string;
  /** Its route config (the dashboard's `action` or `public`, the console's `permission`). */
  config: Record<string, unknown>;
}

export const routeKey = (route: AppRoute) => `${route.method} ${route.url}`;

/** Starts a test app and records every route it registers, one entry per method. */
export async function startRecordingRoutes(): Promise<{ t: TestApp; routes: AppRoute[] }> {
  const routes = new Map<string, AppRoute>();
  const record = (message: unknown) => {
    (message as { fastify: FastifyInstance }).fastify.addHook('onRoute', (route) => {
      for (const method of [route.method].flat()) routes.set(`${method} ${route.url}`, { method, url: route.url, config: { ...route.config } });
    });
  };
  diagnostics.subscribe('fastify.initialization', record);
  try {
    const t = await startTestApp();
    return { t, routes: [...routes.values()] };
  } finally {
    diagnostics.unsubscribe('fastify.initialization', record);
  }
}

// ---- the world --------------------------------------------------------------------------------

type Environment = 'test' | 'live';

interface PaymentRef {
  pidx: string;
  transactionId?: string;
  orderId: string;
}

/** A paid payment of eSewa's doors: its order id is the transaction_uuid (v2) or pid (v1). */
interface EsewaRef extends PaymentRef {
  transactionId: string;
  /** The total as the form wrote it. */
  total: string;
}

export interface World {
  t: TestApp;
  a: {
    id: number;
    email: string;
    password: string;
    keys: Record<Environment, string>;
    test: { completed: PaymentRef; partial: PaymentRef; pending: PaymentRef; initiated: PaymentRef; canceled: PaymentRef };
    live: { completed: PaymentRef; initiated: PaymentRef };
    /** The body and Idempotency-Key of an initiate A sent, and its pidx. */
    idempotentInitiate: { body: Record<string, unknown>; key: string; pidx: string };
    /** The Idempotency-Key and body of a refund A made. */
    idempotentRefund: { key: string; body: { amount: number } };
    webhookUrl: Record<Environment, string>;
    deliveryId: Record<Environment, number>;
    /** A's own PAN, shown only on A's business page. */
    panNumber: string;
    /** A payout of A's in each environment (the test one requested with an Idempotency-Key). */
    payouts: Record<Environment, string>;
    idempotentPayout: { key: string; body: { amount: number } };
    /** A viewer of A's team, and an open invitation of A's. */
    viewer: { id: number; email: string };
    invitationId: number;
    /** A payment link of A's in each environment (the test one paid through once): its idx and code. */
    links: Record<Environment, { idx: string; code: string }>;
    /** The payment made through A's test link. */
    linkPayment: PaymentRef;
    /** A's eSewa credentials, and a test payment paid through each of eSewa's doors. */
    esewa: Record<Environment, EsewaPair> & { v2: EsewaRef; v1: EsewaRef };
  };
  b: { keys: Record<Environment, string>; esewa: Record<Environment, EsewaPair>; email: string; password: string; test: { initiated: PaymentRef; attempt: { token: string; otp: string } } };
  /** Logged-in dashboard browsers: A on test, A switched to live, B on test, B on live. */
  browsers: Record<'aTest' | 'aLive' | 'bTest' | 'bLive', MerchantBrowser>;
  /** What of A's must never show to an intruder: merchant-wide, and per environment. */
  secrets: { merchant: string[]; test: string[]; live: string[] };
  /** A payer's browser on the hosted page: its CSRF cookie and its token for a payment's forms. */
  payer: { nonce: string; tokenFor(pidx: string): string };
  /** Payments A's own attempts made (in its other environment): not a change an intruder made. */
  ownNew: Set<string>;
}

/** The eSewa pairs a welcome page shows, test first. */
function esewaPairsOf(page: string): Record<Environment, EsewaPair> {
  const [test, live] = [...page.matchAll(/product code: <code class="product-code">([^<]+)<\/code><\/p>\s*<div class="secret-key">[\s\S]*?<code class="secret"[^>]*>([^<]+)<\/code>/g)].map((m) => ({ product_code: m[1], secret_key: m[2] }));
  return { test, live };
}

async function signedUp(t: TestApp) {
  const browser = merchantBrowser(t.app);
  const { fields, keys, page } = await browser.signUp(uniqueSignUp());
  const esewa = esewaPairsOf(page.body);
  // Approved, so that both keys work and the attempts are about isolation, not approval. Its
  // business details are its own, so that a page showing them to another merchant is caught.
  const business = { legal_name: `${fields.name} Pvt. Ltd.`, pan_number: String(randomInt(100_000_000, 1_000_000_000)), account_number: String(randomInt(100_000_000, 1_000_000_000)) };
  await approveSignedUp(t.ctx, fields.email, business);
  return { browser, fields, keys, business, esewa };
}

async function loggedIn(t: TestApp, email: string, password: string, environment: Environment): Promise<MerchantBrowser> {
  const browser = merchantBrowser(t.app);
  const done = await browser.logIn(email, password);
  expect(done.status, done.body.slice(0, 200)).toBe(303);
  if (environment === 'live') expect((await browser.useEnvironment('live')).status).toBe(303);
  return browser;
}

/** A: payments in every status in test, paid ones in live, webhook endpoints and deliveries; B: an open payment with an attempt. */
export async function buildWorld(t: TestApp): Promise<World> {
  const tag = randomBytes(4).toString('hex');
  const a = await signedUp(t);
  const b = await signedUp(t);
  const [{ id: aId }] = await t.db.query<{ id: number }>('SELECT id FROM merchants WHERE email = $1', [a.fields.email]);

  // Webhook endpoints first, so A's payments leave deliveries in the outbox.
  const webhookUrl = { test: `https://hooks-${tag}.example.com/a-test`, live: `https://hooks-${tag}.example.com/a-live` };
  await a.browser.get('/dashboard/webhooks');
  expect((await a.browser.post('/dashboard/webhooks/endpoint', { url: webhookUrl.test })).status).toBe(200);

  const testApi = merchantApi(t.app, a.keys.test);
  const liveApi = merchantApi(t.app, a.keys.live);
  const order = (name: string) => `iso-${tag}-${name}`;
  const initiate = async (api: typeof testApi, name: string, amount = 5000) => {
    const orderId = order(name);
    const { status, body } = await api.initiate(validInitiate({ purchase_order_id: orderId, amount }));
    expect(status).toBe(200);
    return { pidx: body.pidx as string, orderId };
  };
  const paid = async (api: typeof testApi, name: string, mobile = '9800000001'): Promise<PaymentRef> => {
    const ref = await initiate(api, name);
    const done = await payerBrowser(t.app).pay(ref.pidx, mobile);
    expect(done.status).toBe(303);
    return { ...ref, transactionId: callbackParams(done.location!).transaction_id };
  };

  const completed = await paid(testApi, 'test-completed');
  const partial = await paid(testApi, 'test-partial');
  const idempotentRefund = { key: `iso-refund-${tag}`, body: { amount: 1000 } };
  const refunded = await t.app.inject({
    method: 'POST',
    url: `/api/merchant-transaction/${partial.transactionId}/refund/`,
    headers: { authorization: `Key ${a.keys.test}`, 'idempotency-key': idempotentRefund.key },
    payload: idempotentRefund.body,
  });
  expect(refunded.statusCode).toBe(200);
  const pending = await paid(testApi, 'test-pending', '9800000007');
  const initiated = await initiate(testApi, 'test-initiated');
  const canceled = await initiate(testApi, 'test-canceled');
  const canceling = payerBrowser(t.app);
  await canceling.open(canceled.pidx);
  expect((await canceling.cancel(canceled.pidx)).status).toBe(303);

  // eSewa's doors: a test payment paid through each.
  const esewaPaid = async (path: string, form: Record<string, string>, orderId: string, total: string): Promise<EsewaRef> => {
    const started = await postForm(t.app, path, form);
    expect(started.status, started.body).toBe(302);
    const pidx = pidxOf(started.location!);
    const done = await payerBrowser(t.app).pay(pidx, '9806800001', '1122', '123456');
    const transactionId = path === ESEWA_FORM ? readData(done.location!, a.esewa.test.secret_key).fields.transaction_code : new URL(done.location!).searchParams.get('refId')!;
    return { pidx, orderId, transactionId, total };
  };
  const v2Form = esewaForm(a.esewa.test, { transaction_uuid: order('esewa') });
  const esewaV2 = await esewaPaid(ESEWA_FORM, v2Form, v2Form.transaction_uuid, v2Form.total_amount);
  const v1 = v1Form(a.esewa.test.product_code, { pid: order('esewa-v1') });
  const esewaV1 = await esewaPaid('/epay/main', v1, v1.pid, v1.tAmt);

  const idempotentBody = validInitiate({ purchase_order_id: order('idempotent') });
  const idempotentKey = `iso-initiate-${tag}`;
  const first = await t.app.inject({ method: 'POST', url: '/api/v2/epayment/initiate/', headers: { authorization: `Key ${a.keys.test}`, 'idempotency-key': idempotentKey }, payload: idempotentBody });
  expect(first.statusCode).toBe(200);

  // Live: an endpoint, and a payment with an operator's wallet.
  await a.browser.useEnvironment('live');
  await a.browser.get('/dashboard/webhooks');
  expect((await a.browser.post('/dashboard/webhooks/endpoint', { url: webhookUrl.live })).status).toBe(200);
  await a.browser.useEnvironment('test');
  const wallet = await operatorWallet(t.ctx, { balance: 1_000_000 });
  const liveRef = await initiate(liveApi, 'live-completed');
  const liveDone = await payWithLiveWallet(payerBrowser(t.app), t.sentOtps, liveRef.pidx, wallet);
  expect(liveDone.status).toBe(303);
  const liveCompleted = { ...liveRef, transactionId: callbackParams(liveDone.location!).transaction_id };
  const liveInitiated = await initiate(liveApi, 'live-initiated');

  // Payouts: a test one (with an Idempotency-Key) and a live one to A's bank account.
  const idempotentPayout = { key: `iso-payout-${tag}`, body: { amount: 1000 } };
  const payout = async (key: string, headers: Record<string, string>, payload: object) => {
    const answer = await t.app.inject({ method: 'POST', url: '/api/v2/settlements/', headers: { authorization: `Key ${key}`, ...headers }, payload });
    expect(answer.statusCode, answer.body).toBe(201);
    return JSON.parse(answer.body).idx as string;
  };
  const payouts = {
    test: await payout(a.keys.test, { 'idempotency-key': idempotentPayout.key }, idempotentPayout.body),
    live: await payout(a.keys.live, {}, { amount: 1000 }),
  };
  // A's team: a viewer, and an invitation still open.
  const viewer = await teamMember(t.ctx, aId, 'viewer');
  const invitedEmail = `iso-invited-${tag}@example.com`;
  await a.browser.get('/dashboard/team');
  expect((await a.browser.post('/dashboard/team/invite', { email: invitedEmail, role: 'developer' })).status).toBe(303);
  const [{ id: invitationId }] = await t.db.query<{ id: number }>('SELECT id FROM merchant_invitations WHERE email = $1', [invitedEmail]);

  // Payment links: one in each environment, the test one paid through once (its receipt, its record).
  const link = async (key: string, environment: Environment) => {
    const made = await t.app.inject({ method: 'POST', url: '/api/v2/payment-links/', headers: { authorization: `Key ${key}` }, payload: { name: `iso-${tag}-link-${environment}`, amount: 2500 } });
    expect(made.statusCode, made.body).toBe(201);
    const body = JSON.parse(made.body) as { idx: string; url: string };
    return { idx: body.idx, code: body.url.slice(body.url.lastIndexOf('/') + 1) };
  };
  const links = { test: await link(a.keys.test, 'test'), live: await link(a.keys.live, 'live') };
  const linkPayer = payerBrowser(t.app);
  await linkPayer.get(`/l/${links.test.code}`);
  const linkStart = await linkPayer.post(`/l/${links.test.code}`, {});
  expect(linkStart.status).toBe(303);
  const linkPidx = new URL(linkStart.location!).searchParams.get('pidx')!;
  const linkPaid = await linkPayer.pay(linkPidx);
  expect(linkPaid.status).toBe(303);
  const [{ purchase_order_id: linkOrder }] = await t.db.query<{ purchase_order_id: string }>('SELECT purchase_order_id FROM payments WHERE pidx = $1', [linkPidx]);
  const linkPayment = { pidx: linkPidx, orderId: linkOrder, transactionId: callbackParams(linkPaid.location!).transaction_id };

  const deliveries = await t.db.query<{ environment: Environment; id: number }>('SELECT environment, max(id) AS id FROM webhook_deliveries WHERE merchant_id = $1 GROUP BY environment', [aId]);
  const deliveryId = Object.fromEntries(deliveries.map((d) => [d.environment, Number(d.id)])) as Record<Environment, number>;
  expect(deliveryId.test && deliveryId.live, 'A has webhook deliveries in both environments').toBeTruthy();

  // B: an open payment, with an attempt started by the payer.
  const bOrder = `iso-${tag}-b`;
  const bInitiated = (await merchantApi(t.app, b.keys.test).initiate(validInitiate({ purchase_order_id: bOrder }))).body.pidx as string;
  const bPayer = payerBrowser(t.app);
  await bPayer.open(bInitiated);
  const step = await bPayer.wallet(bInitiated, '9800000001', '1111');
  const token = /name="attempt" value="([^"]+)"/.exec(step.body)![1];

  const csrfSecret = await serverSecret(t.db, 'csrf');
  const nonce = randomBytes(16).toString('base64url');
  const tokenFor = (pidx: string) =>
    csrfToken({ cookies: { [CSRF_COOKIE]: nonce } } as unknown as FastifyRequest, { setCookie: () => undefined } as unknown as FastifyReply, csrfSecret, { binding: pidx, secure: false });

  const test = { completed, partial, pending, initiated, canceled };
  const envSecrets = (refs: PaymentRef[], environment: Environment) => [
    ...refs.flatMap((r) => [r.pidx, r.orderId, ...(r.transactionId ? [r.transactionId] : [])]),
    webhookUrl[environment],
  ];
  const world: World = {
    t,
    a: {
      id: aId,
      email: a.fields.email,
      password: a.fields.password,
      keys: a.keys,
      test,
      live: { completed: liveCompleted, initiated: liveInitiated },
      idempotentInitiate: { body: idempotentBody, key: idempotentKey, pidx: JSON.parse(first.body).pidx },
      idempotentRefund,
      webhookUrl,
      deliveryId,
      panNumber: a.business.pan_number,
      payouts,
      idempotentPayout,
      viewer: { id: viewer.id, email: viewer.email },
      invitationId: Number(invitationId),
      links,
      linkPayment,
      esewa: { ...a.esewa, v2: esewaV2, v1: esewaV1 },
    },
    b: { keys: b.keys, esewa: b.esewa, email: b.fields.email, password: b.fields.password, test: { initiated: { pidx: bInitiated, orderId: bOrder }, attempt: { token, otp: '987654' } } },
    browsers: {
      aTest: await loggedIn(t, a.fields.email, a.fields.password, 'test'),
      aLive: await loggedIn(t, a.fields.email, a.fields.password, 'live'),
      bTest: await loggedIn(t, b.fields.email, b.fields.password, 'test'),
      bLive: await loggedIn(t, b.fields.email, b.fields.password, 'live'),
    },
    secrets: {
      merchant: [a.fields.name, a.fields.email, a.keys.test.slice(0, 22), a.keys.live.slice(0, 22), a.business.pan_number, maskedAccountNumber(a.business.account_number), viewer.email, invitedEmail],
      test: [
        ...envSecrets([...Object.values(test), { pidx: JSON.parse(first.body).pidx, orderId: order('idempotent') }, linkPayment, esewaV2, esewaV1], 'test'),
        await signingSecret(t.db, aId, 'test'),
        payouts.test,
        links.test.idx,
        links.test.code,
        `iso-${tag}-link-test`,
        a.esewa.test.product_code,
        `${a.esewa.test.secret_key.slice(0, 4)}…`,
      ],
      live: [
        ...envSecrets([liveCompleted, liveInitiated], 'live'),
        await signingSecret(t.db, aId, 'live'),
        payouts.live,
        links.live.idx,
        links.live.code,
        `iso-${tag}-link-live`,
        a.esewa.live.product_code,
      ],
    },
    payer: { nonce, tokenFor },
    ownNew: new Set(),
  };
  return world;
}

/** Everything of A's an intruder could change: payments, keys, sessions, webhook endpoints and deliveries, approval and business details, the team. */
export function snapshotOfA(w: World): Promise<unknown> {
  return snapshotOfMerchant(w.t.db, w.a.id, w.ownNew);
}

/** Everything of one merchant's that a request could change (payments in `ownNew` left out). */
export async function snapshotOfMerchant(db: TestApp['db'], id: number, ownNew: Set<string> = new Set()): Promise<unknown> {
  const payments = await db.query<{ pidx: string }>('SELECT pidx, environment, status, refunded_amount, transaction_id, payer_mobile FROM payments WHERE merchant_id = $1 ORDER BY pidx', [id]);
  return {
    payments: payments.filter((p) => !ownNew.has(p.pidx)),
    attempts: await db.query('SELECT a.token, a.ended, a.otp_failures FROM payment_attempts a JOIN payments p ON p.pidx = a.pidx WHERE p.merchant_id = $1 ORDER BY a.token', [id]),
    records: await db.query('SELECT idx, state, refunded, amount FROM transactions WHERE merchant_id = $1 ORDER BY idx', [id]),
    keys: await db.query('SELECT id, environment, revoked_at FROM secret_keys WHERE merchant_id = $1 ORDER BY id', [id]),
    esewa: await db.query('SELECT product_code, environment, secret_key_sealed, previous_secret_key_sealed, rotated_at FROM esewa_credentials WHERE merchant_id = $1 ORDER BY product_code', [id]),
    sessions: await db.query('SELECT token_hash, environment, expires_at FROM merchant_sessions WHERE merchant_id = $1 ORDER BY token_hash', [id]),
    endpoints: await db.query('SELECT environment, url FROM webhook_endpoints WHERE merchant_id = $1 ORDER BY environment', [id]),
    deliveries: await db.query('SELECT id, status, attempts, next_attempt_at, locked_until FROM webhook_deliveries WHERE merchant_id = $1 ORDER BY id', [id]),
    signingSecrets: await db.query('SELECT environment, secret FROM signing_secrets WHERE merchant_id = $1 ORDER BY environment', [id]),
    merchant: await db.query('SELECT status, status_reason, applied_at, fee_bps FROM merchants WHERE id = $1', [id]),
    business: await db.query('SELECT * FROM merchant_business_details WHERE merchant_id = $1', [id]),
    bankAccount: await db.query('SELECT * FROM merchant_bank_accounts WHERE merchant_id = $1', [id]),
    payouts: await db.query('SELECT idx, environment, amount, state FROM payouts WHERE merchant_id = $1 ORDER BY idx', [id]),
    users: await db.query('SELECT u.id, p.email, u.role, p.password_hash, p.totp_enrolled_at, u.removed_at FROM merchant_users u JOIN merchant_people p ON p.id = u.person_id WHERE u.merchant_id = $1 ORDER BY u.id', [id]),
    invitations: await db.query('SELECT id, email, role, token_hash, expires_at, accepted_at, revoked_at FROM merchant_invitations WHERE merchant_id = $1 ORDER BY id', [id]),
    teamEvents: await db.query('SELECT count(*)::int AS n FROM merchant_team_events WHERE merchant_id = $1', [id]),
    paymentLinks: await db.query('SELECT idx, environment, active, payments_taken, updated_at FROM payment_links WHERE merchant_id = $1 ORDER BY id', [id]),
  };
}

// ---- attempts ---------------------------------------------------------------------------------

/** Who sends an attempt. */
export type Actor =
  | { key: string }
  | { browser: 'aTest' | 'aLive' | 'bTest' | 'bLive' | MerchantBrowser }
  /** The payer's browser on the hosted page (its CSRF cookie set). */
  | { payer: true }
  | { anonymous: true };

export interface Attempt {
  what: string;
  by: Actor;
  method: 'GET' | 'POST';
  url: string;
  /** A JSON body (API) or form fields (pages; a dashboard post gets its session's CSRF token unless given). */
  body?: Record<string, unknown>;
  headers?: Record<string, string>;
  /** For a dashboard post: the page whose form it comes from (default: the dashboard's home). */
  refresh?: string;
  /**
   * - `api not found`: the API's 404 `{"detail":"Not found.","error_key":"validation_error"}`;
   * - `page not found`: a 404 page;
   * - `forbidden`: a 403 page (a CSRF token not bound to this payment or session);
   * - `shown`: answered (below 500), showing none of the secrets;
   * - a function, for anything else (it gets the answer).
   */
  expect: 'api not found' | 'page not found' | 'forbidden' | 'shown' | ((answer: Answered) => void | Promise<void>);
  /** Which of A's secrets must not show (none for A's own sanity checks). */
  hidden: ('merchant' | 'test' | 'live')[];
}

export interface Answered {
  status: number;
  body: string;
  location?: string;
  contentType: string;
}

/*
 * Each request the suite injects comes from an address of its own: the suite follows hundreds of
 * dead links and wrong tokens on purpose, and the service counts those per address (link guesses,
 * payers' attempts), so from one address the later attempts would meet a lock-out (429) instead of
 * the answer under test. On PostgreSQL the store is shared with the other test files, whose own
 * links from 127.0.0.1 must not be locked by this suite either. (Documentation range 198.18.0.0/15.)
 */
let addresses = 0;
const ownAddress = () => {
  addresses++;
  return `198.18.${(addresses >> 8) & 255}.${addresses & 255}`;
};

async function send(w: World, attempt: Attempt, method: 'GET' | 'POST' | 'HEAD'): Promise<Answered> {
  const by = attempt.by;
  let response: LightMyRequestResponse | { statusCode: number; body: string; headers: Record<string, unknown> };
  if ('browser' in by) {
    const browser = typeof by.browser === 'string' ? w.browsers[by.browser] : by.browser;
    if (method === 'POST') {
      // A fresh token of this session, as a page of its own would carry.
      await browser.get(attempt.refresh ?? '/dashboard');
      const page = await browser.post(attempt.url, Object.fromEntries(Object.entries(attempt.body ?? {}).map(([k, v]) => [k, String(v)])));
      return { status: page.status, body: page.body, location: page.location, contentType: String(page.headers['content-type'] ?? '') };
    }
    const cookie = [...browser.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
    response = await w.t.app.inject({ method, url: attempt.url, headers: cookie ? { cookie } : {}, remoteAddress: ownAddress() });
  } else {
    const headers: Record<string, string> = { ...attempt.headers };
    let payload: string | undefined;
    if ('key' in by) headers.authorization = `Key ${by.key}`;
    if ('payer' in by) headers.cookie = `${CSRF_COOKIE}=${w.payer.nonce}`;
    if (attempt.body && method === 'POST') {
      if ('key' in by) {
        payload = JSON.stringify(attempt.body);
        headers['content-type'] = 'application/json';
      } else {
        payload = new URLSearchParams(Object.entries(attempt.body).map(([k, v]) => [k, String(v)])).toString();
        headers['content-type'] = 'application/x-www-form-urlencoded';
      }
    }
    response = await w.t.app.inject({ method, url: attempt.url, headers, ...(payload !== undefined ? { payload } : {}), remoteAddress: ownAddress() });
  }
  return { status: response.statusCode, body: response.body, location: response.headers.location as string | undefined, contentType: String(response.headers['content-type'] ?? '') };
}

/** The answer with what the attempt itself sent taken out (a search box shows its query; a page its own address). */
function withoutEcho(attempt: Attempt, body: string): string {
  const sent = [attempt.url, ...attempt.url.split(/[/?&=]/), ...Object.values(attempt.body ?? {}).map(String)]
    .flatMap((s) => {
      let decoded = s;
      try {
        decoded = decodeURIComponent(s);
      } catch {
        /* as sent */
      }
      return [s, decoded, decoded.replace(/&/g, '&amp;')];
    })
    .filter((s) => s.length >= 6)
    .sort((x, y) => y.length - x.length);
  let rest = body;
  for (const s of sent) rest = rest.split(s).join('');
  return rest;
}

/** Runs one attempt (as `method`, for a HEAD route its GET attempt as HEAD) and checks its answer. */
export async function runAttempt(w: World, attempt: Attempt, method: 'GET' | 'POST' | 'HEAD' = attempt.method): Promise<Answered> {
  const answer = await send(w, attempt, method);
  const shown = `${attempt.what}: ${method} ${attempt.url} → ${answer.status} ${answer.body.slice(0, 300)}`;
  expect(answer.status, shown).toBeLessThan(500);
  if (method === 'HEAD') {
    expect(answer.body, shown).toBe('');
    return answer;
  }
  switch (attempt.expect) {
    case 'api not found':
      expect({ status: answer.status, body: JSON.parse(answer.body) }, shown).toStrictEqual({ status: 404, body: { detail: 'Not found.', error_key: 'validation_error' } });
      break;
    case 'page not found':
      expect(answer.status, shown).toBe(404);
      break;
    case 'forbidden':
      expect(answer.status, shown).toBe(403);
      break;
    case 'shown':
      break;
    default:
      await attempt.expect(answer);
  }
  const visible = withoutEcho(attempt, answer.body);
  for (const scope of attempt.hidden) {
    for (const secret of w.secrets[scope]) expect(visible.includes(secret), `${shown}\n… shows A's ${scope} secret ${secret}`).toBe(false);
  }
  return answer;
}

/** The intruders of a dashboard read: B in either environment sees nothing of A; A in live nothing of A's test data, and the reverse. */
export const intruders = {
  dashboard: [
    { by: { browser: 'bTest' as const }, hidden: ['merchant', 'test', 'live'] as ('merchant' | 'test' | 'live')[] },
    { by: { browser: 'bLive' as const }, hidden: ['merchant', 'test', 'live'] as ('merchant' | 'test' | 'live')[] },
    { by: { browser: 'aLive' as const }, hidden: ['test'] as ('merchant' | 'test' | 'live')[] },
  ],
};
