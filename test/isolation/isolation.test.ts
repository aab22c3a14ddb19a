// Isolation (issue 6): for every route the app registers — API, hosted page, dashboard and the rest —
// the attempts to reach another merchant's data or the other environment's data, run by the helper
// in isolation-helper.ts. Every route must be classified in the table below: a route added later
// fails "every route is classified" until someone writes down how it is isolated. HEAD routes
// repeat their GET route's attempts. After each route's attempts, nothing of A's has changed.
import { afterAll, describe, expect, it } from 'vitest';
import { merchantBrowser, type MerchantBrowser, uniqueSignUp } from '../dashboard-client.js';
import { esewaForm, ESEWA_FORM, ESEWA_STATUS, pidxOf, v1Form } from '../esewa-client.js';
import { validApplication } from '../merchant-approval.js';
import { consoleRoute, consoleRouteOf, consoleSignedOutRoute } from './console-isolation.js';
import { createMerchant } from '../../src/merchants/create-merchant.js';
import { findMerchantById } from '../../src/merchants/merchant-store.js';
import { findWallet } from '../../src/wallets/wallet-store.js';
import { type Answered, type Attempt, buildWorld, intruders, routeKey, runAttempt, snapshotOfA, startRecordingRoutes, type World } from './isolation-helper.js';

interface Classification {
  /**
   * - `api`: merchant-scoped by the secret key (its merchant and environment);
   * - `portal`: the pidx is the capability; what must hold is that one payment's page never shows
   *   or moves another (its CSRF token and attempt tokens are bound to it);
   * - `dashboard`: merchant-scoped by the session (its merchant and the environment it looks at);
   * - `public`: takes no merchant-scoped id and shows no merchant's data;
   * - `console`: operators only, by the permission the route declares (console-isolation.ts);
   * - `esewa`: eSewa's door, merchant-scoped by the product code (its merchant and environment),
   *   a form signed with the product code's own key.
   */
  scope: 'api' | 'portal' | 'dashboard' | 'public' | 'console' | 'esewa';
  reason: string;
  attempts: (w: World) => Attempt[] | Promise<Attempt[]>;
}

const ALL: Attempt['hidden'] = ['merchant', 'test', 'live'];

const validInitiateForSimulator = { return_url: 'https://evil.example.com/r', website_url: 'https://evil.example.com', amount: 1000, purchase_order_id: 'x', purchase_order_name: 'x' };

/** A public route: asked without any credentials, it shows nothing of A's. */
const publicRoute = (reason: string, url: string, method: 'GET' | 'POST' = 'GET', body?: Record<string, unknown>): Classification => ({
  scope: 'public',
  reason,
  attempts: () => [{ what: 'anyone', by: { anonymous: true }, method, url, body, expect: 'shown', hidden: ALL }],
});

const apiNotFound = (w: World, what: string, method: 'POST' | 'GET', url: (env: 'test' | 'live') => string, body: Record<string, unknown> | undefined, targetEnvironment: 'test' | 'live'): Attempt[] => [
  { what: `B's test key: ${what}`, by: { key: w.b.keys.test }, method, url: url(targetEnvironment), body, expect: 'api not found', hidden: ALL },
  { what: `B's live key: ${what}`, by: { key: w.b.keys.live }, method, url: url(targetEnvironment), body, expect: 'api not found', hidden: ALL },
  {
    what: `A's ${targetEnvironment === 'test' ? 'live' : 'test'} key: ${what}`,
    by: { key: targetEnvironment === 'test' ? w.a.keys.live : w.a.keys.test },
    method,
    url: url(targetEnvironment),
    body,
    expect: 'api not found',
    hidden: [targetEnvironment],
  },
];

/** A fresh browser logged in as B (for posts that change B's own session or keys). */
async function freshB(w: World): Promise<MerchantBrowser> {
  const browser = merchantBrowser(w.t.app);
  expect((await browser.logIn(w.b.email, w.b.password)).status).toBe(303);
  return browser;
}

const json = (answer: Answered) => JSON.parse(answer.body);

/** A merchant of its own, signed up for one attempt that changes its user (two-factor, its sessions). */
async function throwaway(w: World): Promise<MerchantBrowser> {
  const browser = merchantBrowser(w.t.app);
  await browser.signUp(uniqueSignUp());
  return browser;
}

const table: Record<string, Classification> = {
  // ---- the API: merchant and environment come from the key -----------------------------------
  'POST /api/v2/epayment/initiate/': {
    scope: 'api',
    reason: 'takes no id; what could cross is the one-paid-payment-per-order rule and the Idempotency-Key, both per merchant and environment',
    attempts: (w) => {
      const payable = (check: (pidx: string) => Promise<void>) => async (answer: Answered) => {
        expect(answer.status, answer.body).toBe(200);
        await check(json(answer).pidx);
      };
      const payablePage = async (pidx: string) => {
        const page = await w.t.app.inject({ method: 'GET', url: `/pay/${pidx}` });
        expect(page.statusCode, 'an order paid by another merchant (or in the other environment) is not paid here').toBe(200);
        expect(page.body).toContain('name="mpin"');
      };
      const paidOrder = { purchase_order_id: w.a.test.completed.orderId, return_url: 'https://shop.example.com/r', website_url: 'https://shop.example.com', amount: 1000, purchase_order_name: 'x' };
      return [
        { what: "B orders A's paid order id", by: { key: w.b.keys.test }, method: 'POST', url: '/api/v2/epayment/initiate/', body: paidOrder, expect: payable(payablePage), hidden: ALL },
        {
          what: "A's live key orders A's test-paid order id",
          by: { key: w.a.keys.live },
          method: 'POST',
          url: '/api/v2/epayment/initiate/',
          body: paidOrder,
          expect: payable(async (pidx) => {
            w.ownNew.add(pidx);
            await payablePage(pidx);
          }),
          hidden: ['test'],
        },
        {
          what: "B replays A's Idempotency-Key with A's body",
          by: { key: w.b.keys.test },
          method: 'POST',
          url: '/api/v2/epayment/initiate/',
          body: w.a.idempotentInitiate.body,
          headers: { 'idempotency-key': w.a.idempotentInitiate.key },
          expect: payable(async (pidx) => {
            expect(pidx, "B got A's payment back").not.toBe(w.a.idempotentInitiate.pidx);
            const lookup = await w.t.app.inject({ method: 'POST', url: '/api/v2/epayment/lookup/', headers: { authorization: `Key ${w.a.keys.test}` }, payload: { pidx } });
            expect(lookup.statusCode).toBe(404);
          }),
          hidden: ALL,
        },
      ];
    },
  },
  'POST /api/v2/epayment/lookup/': {
    scope: 'api',
    reason: "a pidx of another merchant or environment is 'Not found.'",
    attempts: (w) => [
      ...Object.entries(w.a.test).flatMap(([status, p]) => apiNotFound(w, `lookup of A's ${status} test pidx`, 'POST', () => '/api/v2/epayment/lookup/', { pidx: p.pidx }, 'test')),
      ...Object.entries(w.a.live).flatMap(([status, p]) => apiNotFound(w, `lookup of A's ${status} live pidx`, 'POST', () => '/api/v2/epayment/lookup/', { pidx: p.pidx }, 'live')),
      { what: 'A itself (the attempt is aimed right)', by: { key: w.a.keys.test }, method: 'POST', url: '/api/v2/epayment/lookup/', body: { pidx: w.a.test.completed.pidx }, expect: (a) => expect(a.status).toBe(200), hidden: [] },
    ],
  },
  'GET /api/v2/epayment/lookup/': {
    scope: 'api',
    reason: "the POST lookup with pidx in the query string: a pidx of another merchant or environment is 'Not found.'",
    attempts: (w) => {
      const url = (pidx: string) => () => `/api/v2/epayment/lookup/?pidx=${encodeURIComponent(pidx)}`;
      return [
        ...Object.entries(w.a.test).flatMap(([status, p]) => apiNotFound(w, `GET lookup of A's ${status} test pidx`, 'GET', url(p.pidx), undefined, 'test')),
        ...Object.entries(w.a.live).flatMap(([status, p]) => apiNotFound(w, `GET lookup of A's ${status} live pidx`, 'GET', url(p.pidx), undefined, 'live')),
        { what: 'A itself (the attempt is aimed right)', by: { key: w.a.keys.test }, method: 'GET', url: url(w.a.test.completed.pidx)(), expect: (a) => expect(a.status).toBe(200), hidden: [] },
      ];
    },
  },
  'GET /api/v2/merchant-transaction/': {
    scope: 'api',
    reason: "lists only the key's merchant and environment",
    attempts: (w) => {
      const none = (answer: Answered) => expect(json(answer)).toMatchObject({ total_records: 0, records: [] });
      const order = (o: string) => `/api/v2/merchant-transaction/?purchase_order_id=${encodeURIComponent(o)}`;
      return [
        { what: "B's test key lists", by: { key: w.b.keys.test }, method: 'GET', url: '/api/v2/merchant-transaction/?page_size=100', expect: 'shown', hidden: ALL },
        { what: "B's live key lists", by: { key: w.b.keys.live }, method: 'GET', url: '/api/v2/merchant-transaction/?page_size=100', expect: 'shown', hidden: ALL },
        { what: "B's test key filters on A's order", by: { key: w.b.keys.test }, method: 'GET', url: order(w.a.test.completed.orderId), expect: none, hidden: ALL },
        { what: "A's live key lists", by: { key: w.a.keys.live }, method: 'GET', url: '/api/v2/merchant-transaction/?page_size=100', expect: 'shown', hidden: ['test'] },
        { what: "A's live key filters on A's test order", by: { key: w.a.keys.live }, method: 'GET', url: order(w.a.test.completed.orderId), expect: none, hidden: ['test'] },
        { what: "A's test key lists", by: { key: w.a.keys.test }, method: 'GET', url: '/api/v2/merchant-transaction/?page_size=100', expect: 'shown', hidden: ['live'] },
        {
          what: 'A itself (the attempt is aimed right)',
          by: { key: w.a.keys.test },
          method: 'GET',
          url: order(w.a.test.completed.orderId),
          expect: (a) => expect(json(a).total_records).toBe(1),
          hidden: [],
        },
      ];
    },
  },
  'POST /api/merchant-transaction/:transaction_id/refund/': {
    scope: 'api',
    reason: "a transaction of another merchant or environment is 'Not found.', and refunds nothing",
    attempts: (w) => {
      const url = (p: { transactionId?: string }) => () => `/api/merchant-transaction/${p.transactionId}/refund/`;
      return [
        ...apiNotFound(w, "whole refund of A's completed test transaction", 'POST', url(w.a.test.completed), undefined, 'test'),
        ...apiNotFound(w, "partial refund of A's partly refunded test transaction", 'POST', url(w.a.test.partial), { amount: 10 }, 'test'),
        ...apiNotFound(w, "refund of A's live transaction", 'POST', url(w.a.live.completed), { amount: 10 }, 'live'),
        {
          what: "B replays A's refund Idempotency-Key and body on A's transaction",
          by: { key: w.b.keys.test },
          method: 'POST',
          url: url(w.a.test.partial)(),
          body: w.a.idempotentRefund.body,
          headers: { 'idempotency-key': w.a.idempotentRefund.key },
          expect: 'api not found',
          hidden: ALL,
        },
      ];
    },
  },
  'POST /api/v2/settlements/': {
    scope: 'api',
    reason: "takes no id: a payout comes out of the key's merchant and environment only, and an Idempotency-Key is per merchant and environment",
    attempts: (w) => {
      const nothingAvailable = (answer: Answered) => expect([answer.status, json(answer).detail]).toEqual([400, 'No balance is available for a payout yet.']);
      return [
        { what: "B's test key asks for a payout", by: { key: w.b.keys.test }, method: 'POST', url: '/api/v2/settlements/', body: { amount: 1000 }, expect: nothingAvailable, hidden: ALL },
        { what: "B's live key asks for all", by: { key: w.b.keys.live }, method: 'POST', url: '/api/v2/settlements/', body: {}, expect: nothingAvailable, hidden: ALL },
        {
          what: "B replays A's payout Idempotency-Key with A's body",
          by: { key: w.b.keys.test },
          method: 'POST',
          url: '/api/v2/settlements/',
          body: w.a.idempotentPayout.body,
          headers: { 'idempotency-key': w.a.idempotentPayout.key },
          expect: nothingAvailable,
          hidden: ALL,
        },
      ];
    },
  },
  'GET /api/v2/settlements/': {
    scope: 'api',
    reason: "lists only the key's merchant and environment",
    attempts: (w) => [
      { what: "B's test key lists", by: { key: w.b.keys.test }, method: 'GET', url: '/api/v2/settlements/?page_size=100', expect: (a) => expect(json(a)).toMatchObject({ total_records: 0, records: [] }), hidden: ALL },
      { what: "B's live key lists", by: { key: w.b.keys.live }, method: 'GET', url: '/api/v2/settlements/?page_size=100', expect: (a) => expect(json(a)).toMatchObject({ total_records: 0, records: [] }), hidden: ALL },
      { what: "A's live key lists", by: { key: w.a.keys.live }, method: 'GET', url: '/api/v2/settlements/?page_size=100', expect: 'shown', hidden: ['test'] },
      { what: "A's test key lists", by: { key: w.a.keys.test }, method: 'GET', url: '/api/v2/settlements/?page_size=100', expect: 'shown', hidden: ['live'] },
    ],
  },
  'GET /api/v2/settlements/:idx/': {
    scope: 'api',
    reason: "a payout of another merchant or environment is 'Not found.'",
    attempts: (w) => [
      ...apiNotFound(w, "A's test payout", 'GET', () => `/api/v2/settlements/${w.a.payouts.test}/`, undefined, 'test'),
      ...apiNotFound(w, "A's live payout", 'GET', () => `/api/v2/settlements/${w.a.payouts.live}/`, undefined, 'live'),
      { what: 'A itself (the attempt is aimed right)', by: { key: w.a.keys.live }, method: 'GET', url: `/api/v2/settlements/${w.a.payouts.live}/`, expect: (a) => expect(a.status).toBe(200), hidden: [] },
    ],
  },
  'POST /api/v2/payment-links/': {
    scope: 'api',
    reason: "takes no id: a link is made for the key's merchant and environment only (an id in the body names nothing), and an Idempotency-Key is per merchant and environment",
    attempts: (w) => [
      { what: "B's test key creates a link, naming A", by: { key: w.b.keys.test }, method: 'POST', url: '/api/v2/payment-links/', body: { name: 'B link', amount: 1000, merchant_id: w.a.id, merchant: w.a.id }, expect: (a) => expect(a.status).toBe(201), hidden: ALL },
      { what: "B's live key creates a link", by: { key: w.b.keys.live }, method: 'POST', url: '/api/v2/payment-links/', body: { name: 'B live link', amount: 1000 }, expect: (a) => expect(a.status).toBe(201), hidden: ALL },
    ],
  },
  'GET /api/v2/payment-links/': {
    scope: 'api',
    reason: "lists only the key's merchant and environment",
    attempts: (w) => [
      { what: "B's test key lists", by: { key: w.b.keys.test }, method: 'GET', url: '/api/v2/payment-links/?page_size=100', expect: 'shown', hidden: ALL },
      { what: "B's live key lists", by: { key: w.b.keys.live }, method: 'GET', url: '/api/v2/payment-links/?page_size=100', expect: 'shown', hidden: ALL },
      { what: "A's live key lists", by: { key: w.a.keys.live }, method: 'GET', url: '/api/v2/payment-links/?page_size=100', expect: 'shown', hidden: ['test'] },
      { what: "A's test key lists", by: { key: w.a.keys.test }, method: 'GET', url: '/api/v2/payment-links/?page_size=100', expect: 'shown', hidden: ['live'] },
    ],
  },
  'GET /api/v2/payment-links/:idx/': {
    scope: 'api',
    reason: "a link of another merchant or environment is 'Not found.'",
    attempts: (w) => [
      ...apiNotFound(w, "A's test link", 'GET', () => `/api/v2/payment-links/${w.a.links.test.idx}/`, undefined, 'test'),
      ...apiNotFound(w, "A's live link", 'GET', () => `/api/v2/payment-links/${w.a.links.live.idx}/`, undefined, 'live'),
      { what: 'A itself (the attempt is aimed right)', by: { key: w.a.keys.test }, method: 'GET', url: `/api/v2/payment-links/${w.a.links.test.idx}/`, expect: (a) => expect(a.status).toBe(200), hidden: ['live'] },
    ],
  },
  ...Object.fromEntries(
    ['deactivate', 'activate'].map((verb) => [
      `POST /api/v2/payment-links/:idx/${verb}/`,
      {
        scope: 'api' as const,
        reason: `${verb === 'deactivate' ? 'deactivating' : 'activating'} a link of another merchant or environment is 'Not found.', and changes nothing`,
        attempts: (w: World): Attempt[] => [
          ...apiNotFound(w, `${verb} A's test link`, 'POST', () => `/api/v2/payment-links/${w.a.links.test.idx}/${verb}/`, undefined, 'test'),
          ...apiNotFound(w, `${verb} A's live link`, 'POST', () => `/api/v2/payment-links/${w.a.links.live.idx}/${verb}/`, undefined, 'live'),
        ],
      },
    ]),
  ),
  // ---- eSewa's door: merchant and environment come from the product code --------------------
  'POST /api/epay/main/v2/form': {
    scope: 'esewa',
    reason: "a transaction_uuid names a payment of the product code's merchant and environment only: another's, or A's other environment's, is a new payment there; A's code needs A's key",
    attempts: (w) => {
      const v2 = w.a.esewa.v2;
      const newPaymentOf = (merchantKey: 'b' | 'aLive') => async (answer: Answered) => {
        expect(answer.status, answer.body).toBe(302);
        const pidx = pidxOf(answer.location!);
        expect(pidx, "A's payment was resumed").not.toBe(v2.pidx);
        const [payment] = await w.t.db.query<{ merchant_id: number; environment: string }>('SELECT merchant_id, environment FROM payments WHERE pidx = $1', [pidx]);
        if (merchantKey === 'aLive') {
          expect(payment).toEqual({ merchant_id: w.a.id, environment: 'live' });
          w.ownNew.add(pidx);
        } else expect(payment.merchant_id).not.toBe(w.a.id);
      };
      return [
        { what: "B's code and key, A's transaction_uuid", by: { anonymous: true }, method: 'POST', url: ESEWA_FORM, body: esewaForm(w.b.esewa.test, { transaction_uuid: v2.orderId }), expect: newPaymentOf('b'), hidden: ALL },
        { what: "A's live code and key, A's test transaction_uuid", by: { anonymous: true }, method: 'POST', url: ESEWA_FORM, body: esewaForm(w.a.esewa.live, { transaction_uuid: v2.orderId }), expect: newPaymentOf('aLive'), hidden: ['test'] },
        {
          what: "A's code signed with B's key",
          by: { anonymous: true },
          method: 'POST',
          url: ESEWA_FORM,
          body: esewaForm({ product_code: w.a.esewa.test.product_code, secret_key: w.b.esewa.test.secret_key }, { transaction_uuid: v2.orderId }),
          expect: (a) => expect([a.status, JSON.parse(a.body)]).toEqual([400, { code: 'ES104', message: 'Invalid payload signature.' }]),
          hidden: ALL,
        },
      ];
    },
  },
  'GET /api/epay/transaction/status/': {
    scope: 'esewa',
    reason: "answers only for the product code's own payments: another merchant's code, or A's other environment's, finds NOT_FOUND",
    attempts: (w) => {
      const v2 = w.a.esewa.v2;
      const url = (productCode: string) => `${ESEWA_STATUS}?${new URLSearchParams({ product_code: productCode, total_amount: v2.total, transaction_uuid: v2.orderId })}`;
      // Not A's payment: NOT_FOUND, or the payment the form's attempts made there with that uuid (PENDING).
      const notFound = (a: Answered) => {
        const answer = JSON.parse(a.body);
        expect([a.status, answer.ref_id, ['NOT_FOUND', 'PENDING'].includes(answer.status)]).toEqual([200, null, true]);
      };
      return [
        { what: "B's code asks for A's payment", by: { anonymous: true }, method: 'GET', url: url(w.b.esewa.test.product_code), expect: notFound, hidden: ALL },
        { what: "B's live code asks for A's payment", by: { anonymous: true }, method: 'GET', url: url(w.b.esewa.live.product_code), expect: notFound, hidden: ALL },
        { what: "A's live code asks for A's test payment", by: { anonymous: true }, method: 'GET', url: url(w.a.esewa.live.product_code), expect: notFound, hidden: ['test'] },
        { what: 'A itself (the attempt is aimed right)', by: { anonymous: true }, method: 'GET', url: url(w.a.esewa.test.product_code), expect: (a) => expect(JSON.parse(a.body)).toMatchObject({ status: 'COMPLETE', ref_id: v2.transactionId }), hidden: [] },
      ];
    },
  },
  'POST /epay/main': {
    scope: 'esewa',
    reason: "a pid names a payment of the scd's merchant and environment only: another's is a new payment there",
    attempts: (w) => [
      {
        what: "B's scd with A's pid and amounts",
        by: { anonymous: true },
        method: 'POST',
        url: '/epay/main',
        body: v1Form(w.b.esewa.test.product_code, { pid: w.a.esewa.v1.orderId }),
        expect: async (a) => {
          expect(a.status, a.body).toBe(302);
          expect(pidxOf(a.location!)).not.toBe(w.a.esewa.v1.pidx);
        },
        hidden: ALL,
      },
    ],
  },
  'GET /epay/main': {
    scope: 'esewa',
    reason: 'the POST form with its fields in the query string',
    attempts: (w) => [
      {
        what: "B's scd with A's pid and amounts",
        by: { anonymous: true },
        method: 'GET',
        url: `/epay/main?${new URLSearchParams(v1Form(w.b.esewa.test.product_code, { pid: w.a.esewa.v1.orderId }))}`,
        expect: async (a) => {
          expect(a.status, a.body).toBe(302);
          expect(pidxOf(a.location!)).not.toBe(w.a.esewa.v1.pidx);
        },
        hidden: ALL,
      },
    ],
  },
  'POST /epay/transrec': {
    scope: 'esewa',
    reason: "verifies only the scd's own payments: with another merchant's scd, or A's other environment's, A's payment is a failure",
    attempts: (w) => transrecAttempts(w, 'POST'),
  },
  'GET /epay/transrec': {
    scope: 'esewa',
    reason: 'the POST verification with its fields in the query string',
    attempts: (w) => transrecAttempts(w, 'GET'),
  },
  'GET /api/v2/openapi.json': publicRoute('the API description: the same document for everyone, no merchant data', '/api/v2/openapi.json'),

  // ---- the hosted page: the pidx is the capability -------------------------------------------
  'GET /pay/:pidx': {
    scope: 'portal',
    reason: "the pidx is the capability to pay it; the page shows that payment and no other, whatever the browser's cookies hold",
    attempts: (w) => [
      {
        what: "A's payment page in a browser that holds B's payment's form",
        by: { payer: true },
        method: 'GET',
        url: `/pay/${w.a.test.initiated.pidx}`,
        expect: (a) => {
          expect(a.status).toBe(200);
          expect(a.body).not.toContain(w.b.test.initiated.pidx);
          expect(a.body).not.toContain(w.b.test.initiated.orderId);
        },
        // The page is A's payment's: A's name and this payment show; nothing of A's live data.
        hidden: ['live'],
      },
    ],
  },
  'POST /pay/:pidx/wallet': {
    scope: 'portal',
    reason: "step one needs this payment's CSRF token: a token of another payment is refused, and no attempt starts",
    attempts: (w) => [
      {
        what: "B's payment's token posted to A's payment",
        by: { payer: true },
        method: 'POST',
        url: `/pay/${w.a.test.initiated.pidx}/wallet`,
        body: { csrf_token: w.payer.tokenFor(w.b.test.initiated.pidx), mobile: '9800000001', mpin: '1111' },
        expect: 'forbidden',
        hidden: ALL,
      },
    ],
  },
  'GET /pay/:pidx/otp/:token': {
    scope: 'portal',
    reason: "the attempt token is looked up with its pidx: another payment's attempt shows nothing, the browser goes back to the payment's own page",
    attempts: (w) => [
      {
        what: "B's payment's attempt token under A's payment",
        by: { payer: true },
        method: 'GET',
        url: `/pay/${w.a.test.initiated.pidx}/otp/${w.b.test.attempt.token}`,
        expect: (a) => {
          expect(a.status).toBe(303);
          expect(a.location).toBe(`/pay/?pidx=${w.a.test.initiated.pidx}`);
        },
        hidden: ALL,
      },
    ],
  },
  'POST /pay/:pidx/confirm': {
    scope: 'portal',
    reason: "the attempt must be this payment's and the CSRF token bound to it: another payment's attempt (even with its right OTP) moves neither payment",
    attempts: async (w) => {
      const stillOpen = async () => {
        const rows = await w.t.db.query<{ pidx: string; status: string }>('SELECT pidx, status FROM payments WHERE pidx = ANY($1) ORDER BY pidx', [[w.a.test.initiated.pidx, w.b.test.initiated.pidx]]);
        expect(rows.map((r) => r.status)).toEqual(['Initiated', 'Initiated']);
      };
      return [
        {
          what: "B's payment's attempt and right OTP posted to A's payment (with A's payment's token)",
          by: { payer: true },
          method: 'POST',
          url: `/pay/${w.a.test.initiated.pidx}/confirm`,
          body: { csrf_token: w.payer.tokenFor(w.a.test.initiated.pidx), attempt: w.b.test.attempt.token, otp: w.b.test.attempt.otp },
          expect: async (a) => {
            expect(a.status).toBe(400);
            await stillOpen();
          },
          hidden: ['live'],
        },
        {
          what: "B's payment's token posted to A's payment",
          by: { payer: true },
          method: 'POST',
          url: `/pay/${w.a.test.initiated.pidx}/confirm`,
          body: { csrf_token: w.payer.tokenFor(w.b.test.initiated.pidx), attempt: w.b.test.attempt.token, otp: w.b.test.attempt.otp },
          expect: 'forbidden',
          hidden: ALL,
        },
      ];
    },
  },
  'POST /pay/:pidx/provider': {
    scope: 'portal',
    reason: "starting an attempt at a provider needs this payment's CSRF token: another payment's token is refused, and no attempt starts",
    attempts: (w) => [
      {
        what: "B's payment's token posted to start a Khalti attempt for A's payment",
        by: { payer: true },
        method: 'POST',
        url: `/pay/${w.a.test.initiated.pidx}/provider`,
        body: { csrf_token: w.payer.tokenFor(w.b.test.initiated.pidx), provider: 'khalti' },
        expect: async (a) => {
          expect(a.status).toBe(403);
          expect(await w.t.db.query('SELECT 1 FROM provider_attempts WHERE pidx = $1', [w.a.test.initiated.pidx])).toEqual([]);
        },
        hidden: ALL,
      },
    ],
  },
  'GET /pay/return/:provider/*': {
    scope: 'portal',
    reason: "the attempt named by the provider's return is the capability (random, the payer's browser's only): an unknown attempt, or one of another provider, shows the not-found page and asks no provider",
    attempts: (w) => [
      { what: 'a guessed attempt', by: { anonymous: true }, method: 'GET', url: '/pay/return/khalti/AAAAAAAAAAAAAAAAA/success?status=Completed', expect: 'page not found', hidden: ALL },
      { what: 'a connectIPS return without its TXNID', by: { anonymous: true }, method: 'GET', url: `/pay/return/connectips/success?pidx=${w.a.test.initiated.pidx}`, expect: 'page not found', hidden: ALL },
      { what: 'an unknown provider', by: { anonymous: true }, method: 'GET', url: '/pay/return/paypal/x/success', expect: 'page not found', hidden: ALL },
    ],
  },
  'POST /pay/:pidx/cancel': {
    scope: 'portal',
    reason: "cancelling needs this payment's CSRF token: another payment's token is refused",
    attempts: (w) => [
      {
        what: "B's payment's token posted to cancel A's payment",
        by: { payer: true },
        method: 'POST',
        url: `/pay/${w.a.test.initiated.pidx}/cancel`,
        body: { csrf_token: w.payer.tokenFor(w.b.test.initiated.pidx) },
        expect: 'forbidden',
        hidden: ALL,
      },
      {
        what: "A's payment's token posted to cancel A's live payment",
        by: { payer: true },
        method: 'POST',
        url: `/pay/${w.a.live.initiated.pidx}/cancel`,
        body: { csrf_token: w.payer.tokenFor(w.a.test.initiated.pidx) },
        expect: 'forbidden',
        hidden: ['merchant', 'test'],
      },
    ],
  },

  // ---- a payment link's public pages: the code is the capability --------------------------------
  'GET /l/:code': {
    scope: 'portal',
    reason: "the code is the capability, like a pidx: the page shows its link (merchant's name, what for, amount) and nothing else of the merchant; a made-up code is 404 (and counted against the address)",
    attempts: (w) => [
      { what: "A's test link's page", by: { payer: true }, method: 'GET', url: `/l/${w.a.links.test.code}`, expect: (a) => expect(a.status).toBe(200), hidden: ['live'] },
      { what: 'a made-up code', by: { payer: true }, method: 'GET', url: '/l/NoSuchCode1', expect: 'page not found', hidden: ALL },
    ],
  },
  'POST /l/:code': {
    scope: 'portal',
    reason: "starting a payment needs this link's CSRF token: another link's or a payment's token is refused, and no payment starts",
    attempts: (w) => [
      { what: "A's live link's token posted to A's test link", by: { payer: true }, method: 'POST', url: `/l/${w.a.links.test.code}`, body: { csrf_token: w.payer.tokenFor(`link:${w.a.links.live.code}`) }, expect: 'forbidden', hidden: ['live'] },
      { what: "B's payment's token posted to A's live link", by: { payer: true }, method: 'POST', url: `/l/${w.a.links.live.code}`, body: { csrf_token: w.payer.tokenFor(w.b.test.initiated.pidx) }, expect: 'forbidden', hidden: ['test'] },
      { what: 'a made-up code', by: { payer: true }, method: 'POST', url: '/l/NoSuchCode1', body: { csrf_token: w.payer.tokenFor('link:NoSuchCode1') }, expect: 'page not found', hidden: ALL },
    ],
  },
  'GET /l/:code/paid': {
    scope: 'portal',
    reason: 'the receipt shows a payment only under the link it was made through: any other payment, of A or of anyone, is not found there',
    attempts: (w) => [
      { what: "A's link payment under A's live link", by: { payer: true }, method: 'GET', url: `/l/${w.a.links.live.code}/paid?pidx=${w.a.linkPayment.pidx}`, expect: 'page not found', hidden: ['test'] },
      { what: "A's completed test payment under A's test link", by: { payer: true }, method: 'GET', url: `/l/${w.a.links.test.code}/paid?pidx=${w.a.test.completed.pidx}`, expect: 'page not found', hidden: ['live'] },
      { what: "B's payment under A's test link", by: { payer: true }, method: 'GET', url: `/l/${w.a.links.test.code}/paid?pidx=${w.b.test.initiated.pidx}`, expect: 'page not found', hidden: ['live'] },
      {
        what: 'A itself (the attempt is aimed right)',
        by: { payer: true },
        method: 'GET',
        url: `/l/${w.a.links.test.code}/paid?pidx=${w.a.linkPayment.pidx}`,
        expect: (a) => expect(a.body).toContain(w.a.linkPayment.transactionId!),
        hidden: [],
      },
    ],
  },
  ...Object.fromEntries(
    ['svg', 'png'].map((type) => [
      `GET /l/:code/qr.${type}`,
      {
        scope: 'portal' as const,
        reason: "the QR code of the link's public address, its merchant's name under it: nothing else of the merchant; a made-up code is 404",
        attempts: (w: World): Attempt[] => [
          { what: "A's test link's QR code", by: { payer: true }, method: 'GET', url: `/l/${w.a.links.test.code}/qr.${type}`, expect: (a) => expect(a.status).toBe(200), hidden: ['live'] },
          { what: 'a made-up code', by: { payer: true }, method: 'GET', url: `/l/NoSuchCode1/qr.${type}`, expect: 'page not found', hidden: ALL },
        ],
      },
    ]),
  ),

  // ---- the dashboard: merchant and environment come from the session -------------------------
  'GET /dashboard/payments/:pidx': {
    scope: 'dashboard',
    reason: "a payment of another merchant or of the other environment is 'not found'",
    attempts: (w) => [
      ...Object.entries(w.a.test).flatMap(([status, p]) =>
        intruders.dashboard.map((i) => ({ what: `${JSON.stringify(i.by)} opens A's ${status} test payment`, ...i, method: 'GET' as const, url: `/dashboard/payments/${p.pidx}`, expect: 'page not found' as const })),
      ),
      { what: "A on test opens A's live payment", by: { browser: 'aTest' }, method: 'GET', url: `/dashboard/payments/${w.a.live.completed.pidx}`, expect: 'page not found', hidden: ['live'] },
      { what: 'A itself (the attempt is aimed right)', by: { browser: 'aTest' }, method: 'GET', url: `/dashboard/payments/${w.a.test.completed.pidx}`, expect: (a) => expect(a.status).toBe(200), hidden: [] },
    ],
  },
  'POST /dashboard/payments/:pidx/refund': {
    scope: 'dashboard',
    reason: "the refund form of another merchant's or environment's payment is 'not found'",
    attempts: (w) => [
      ...intruders.dashboard.map((i) => ({ what: `${JSON.stringify(i.by)} reviews a refund of A's test payment`, ...i, method: 'POST' as const, url: `/dashboard/payments/${w.a.test.completed.pidx}/refund`, body: { amount: '10' }, expect: 'page not found' as const })),
      { what: "A on test reviews a refund of A's live payment", by: { browser: 'aTest' }, method: 'POST', url: `/dashboard/payments/${w.a.live.completed.pidx}/refund`, body: { amount: '10' }, expect: 'page not found', hidden: ['live'] },
    ],
  },
  'POST /dashboard/payments/:pidx/refund/confirm': {
    scope: 'dashboard',
    reason: "confirming a refund of another merchant's or environment's payment is 'not found' and refunds nothing",
    attempts: (w) => [
      ...intruders.dashboard.flatMap((i) => [
        { what: `${JSON.stringify(i.by)} refunds A's completed test payment`, ...i, method: 'POST' as const, url: `/dashboard/payments/${w.a.test.completed.pidx}/refund/confirm`, body: { amount_paisa: '10', refunded_before: '0' }, expect: 'page not found' as const },
        { what: `${JSON.stringify(i.by)} refunds A's partly refunded test payment`, ...i, method: 'POST' as const, url: `/dashboard/payments/${w.a.test.partial.pidx}/refund/confirm`, body: { amount_paisa: '10', refunded_before: '1000' }, expect: 'page not found' as const },
      ]),
      { what: "A on test refunds A's live payment", by: { browser: 'aTest' }, method: 'POST', url: `/dashboard/payments/${w.a.live.completed.pidx}/refund/confirm`, body: { amount_paisa: '10', refunded_before: '0' }, expect: 'page not found', hidden: ['live'] },
    ],
  },
  'GET /dashboard/links': {
    scope: 'dashboard',
    reason: "lists only the session's merchant's links in its environment",
    attempts: () => [
      ...intruders.dashboard.map((i) => ({ what: `${JSON.stringify(i.by)} payment links`, ...i, method: 'GET' as const, url: '/dashboard/links', expect: 'shown' as const })),
      { what: 'A on test: payment links', by: { browser: 'aTest' }, method: 'GET', url: '/dashboard/links', expect: 'shown', hidden: ['live'] },
    ],
  },
  'POST /dashboard/links': {
    scope: 'dashboard',
    reason: "creates a link of the session's merchant and environment only; an id in the form names nothing",
    attempts: (w) => [
      { what: 'B creates a link, naming A', by: { browser: 'bTest' }, method: 'POST', url: '/dashboard/links', body: { name: 'B counter', pricing: 'fixed', amount: '10', merchant_id: w.a.id, environment: 'live' }, expect: (a) => expect(a.status).toBe(303), hidden: ALL, refresh: '/dashboard/links' },
    ],
  },
  ...Object.fromEntries(
    ['', '/print'].map((suffix) => [
      `GET /dashboard/links/:idx${suffix}`,
      {
        scope: 'dashboard' as const,
        reason: "a link of another merchant or of the other environment is 'not found'",
        attempts: (w: World): Attempt[] => [
          ...intruders.dashboard.map((i) => ({ what: `${JSON.stringify(i.by)} opens A's test link`, ...i, method: 'GET' as const, url: `/dashboard/links/${w.a.links.test.idx}${suffix}`, expect: 'page not found' as const })),
          { what: "B opens A's live link", by: { browser: 'bLive' }, method: 'GET', url: `/dashboard/links/${w.a.links.live.idx}${suffix}`, expect: 'page not found', hidden: ALL },
          { what: "A on test opens A's live link", by: { browser: 'aTest' }, method: 'GET', url: `/dashboard/links/${w.a.links.live.idx}${suffix}`, expect: 'page not found', hidden: ['live'] },
          { what: 'A itself (the attempt is aimed right)', by: { browser: 'aTest' }, method: 'GET', url: `/dashboard/links/${w.a.links.test.idx}${suffix}`, expect: (a) => expect(a.status).toBe(200), hidden: ['live'] },
        ],
      },
    ]),
  ),
  ...Object.fromEntries(
    ['deactivate', 'activate'].map((verb) => [
      `POST /dashboard/links/:idx/${verb}`,
      {
        scope: 'dashboard' as const,
        reason: `the ${verb} form of another merchant's or environment's link is 'not found' and changes nothing`,
        attempts: (w: World): Attempt[] => [
          ...intruders.dashboard.map((i) => ({ what: `${JSON.stringify(i.by)} ${verb}s A's test link`, ...i, method: 'POST' as const, url: `/dashboard/links/${w.a.links.test.idx}/${verb}`, expect: 'page not found' as const })),
          { what: `A on test ${verb}s A's live link`, by: { browser: 'aTest' }, method: 'POST', url: `/dashboard/links/${w.a.links.live.idx}/${verb}`, expect: 'page not found', hidden: ['live'] },
        ],
      },
    ]),
  ),
  'GET /dashboard/transactions': {
    scope: 'dashboard',
    reason: "lists (and searches) only the session's merchant and environment",
    attempts: (w) => transactionListAttempts(w, '/dashboard/transactions'),
  },
  'GET /dashboard/transactions.csv': {
    scope: 'dashboard',
    reason: "exports only the session's merchant and environment",
    attempts: (w) => transactionListAttempts(w, '/dashboard/transactions.csv'),
  },
  'GET /dashboard': {
    scope: 'dashboard',
    reason: "balance, volumes and recent payments of the session's merchant and environment",
    attempts: (w) => [
      ...intruders.dashboard.map((i) => ({ what: `${JSON.stringify(i.by)} home`, ...i, method: 'GET' as const, url: '/dashboard', expect: 'shown' as const })),
      { what: 'A on test: home', by: { browser: 'aTest' }, method: 'GET', url: '/dashboard', expect: 'shown', hidden: ['live'] },
    ],
  },
  'GET /dashboard/keys': {
    scope: 'dashboard',
    reason: "the session's merchant's keys (both environments are the merchant's own)",
    attempts: () => [
      { what: "B's keys page", by: { browser: 'bTest' }, method: 'GET', url: '/dashboard/keys', expect: 'shown', hidden: ALL },
      { what: "B's keys page, on live", by: { browser: 'bLive' }, method: 'GET', url: '/dashboard/keys', expect: 'shown', hidden: ALL },
    ],
  },
  'POST /dashboard/keys/rotate': {
    scope: 'dashboard',
    reason: "takes an environment, never a merchant: it reviews the rotation of the session's merchant's key",
    attempts: async (w) => [
      { what: "another merchant's rotation review, naming A", by: { browser: await freshB(w) }, method: 'POST', url: '/dashboard/keys/rotate', body: { environment: 'test', grace: '0', merchant_id: w.a.id, merchant: w.a.id }, expect: 'shown', hidden: ALL },
    ],
  },
  'POST /dashboard/keys/rotate/confirm': {
    scope: 'dashboard',
    reason: "takes an environment, never a merchant: it rotates the session's merchant's key only (A's keys stay as they were)",
    attempts: async (w) => {
      // A throwaway merchant: rotating B's own key would end B's other attempts.
      const c = merchantBrowser(w.t.app);
      await c.signUp(uniqueSignUp());
      return [
        { what: "another merchant rotates with grace 0, naming A", by: { browser: c }, method: 'POST', url: '/dashboard/keys/rotate/confirm', body: { environment: 'test', grace: '0', merchant_id: w.a.id, merchant: w.a.id }, expect: (a) => expect(a.status).toBe(200), hidden: ALL },
        { what: "another merchant rotates live with grace 0, naming A", by: { browser: c }, method: 'POST', url: '/dashboard/keys/rotate/confirm', body: { environment: 'live', grace: '0', merchant_id: w.a.id }, expect: (a) => expect(a.status).toBe(200), hidden: ALL },
      ];
    },
  },
  'POST /dashboard/keys/esewa/rotate': {
    scope: 'dashboard',
    reason: "takes an environment, never a merchant: it reviews the rotation of the session's merchant's eSewa key",
    attempts: async (w) => [
      { what: "another merchant's eSewa rotation review, naming A", by: { browser: await freshB(w) }, method: 'POST', url: '/dashboard/keys/esewa/rotate', body: { environment: 'test', grace: '0', merchant_id: w.a.id, product_code: w.a.esewa.test.product_code }, expect: 'shown', hidden: ALL },
    ],
  },
  'POST /dashboard/keys/esewa/rotate/confirm': {
    scope: 'dashboard',
    reason: "takes an environment, never a merchant or a product code: it rotates the session's merchant's eSewa key only (A's stay as they were)",
    attempts: async (w) => {
      const c = merchantBrowser(w.t.app);
      await c.signUp(uniqueSignUp());
      return [
        { what: 'another merchant rotates its eSewa key, naming A and its code', by: { browser: c }, method: 'POST', url: '/dashboard/keys/esewa/rotate/confirm', body: { environment: 'test', grace: '0', merchant_id: w.a.id, product_code: w.a.esewa.test.product_code }, expect: (a) => expect(a.status).toBe(200), hidden: ALL },
        { what: 'another merchant rotates its live eSewa key, naming A', by: { browser: c }, method: 'POST', url: '/dashboard/keys/esewa/rotate/confirm', body: { environment: 'live', grace: '0', merchant_id: w.a.id }, expect: (a) => expect(a.status).toBe(200), hidden: ALL },
      ];
    },
  },
  'GET /dashboard/webhooks': {
    scope: 'dashboard',
    reason: "the session's merchant's signing secret, endpoint and deliveries in its environment",
    attempts: () => [
      ...intruders.dashboard.map((i) => ({ what: `${JSON.stringify(i.by)} webhooks page`, ...i, method: 'GET' as const, url: '/dashboard/webhooks', expect: 'shown' as const })),
      { what: 'A on test: webhooks page', by: { browser: 'aTest' }, method: 'GET', url: '/dashboard/webhooks', expect: 'shown', hidden: ['live'] },
    ],
  },
  'POST /dashboard/webhooks/endpoint': {
    scope: 'dashboard',
    reason: "sets the endpoint of the session's merchant and environment only",
    attempts: (w) => [
      { what: 'B sets its endpoint, naming A', by: { browser: 'bTest' }, method: 'POST', url: '/dashboard/webhooks/endpoint', body: { url: 'https://b.example.com/hook', merchant_id: w.a.id, environment: 'live' }, expect: 'shown', hidden: ALL },
      { what: 'B on live removes its endpoint, naming A', by: { browser: 'bLive' }, method: 'POST', url: '/dashboard/webhooks/endpoint', body: { url: '', merchant_id: w.a.id }, expect: 'shown', hidden: ALL },
    ],
  },
  'POST /dashboard/webhooks/:id/resend': {
    scope: 'dashboard',
    reason: "a delivery of another merchant or environment is not found and is not queued again",
    attempts: (w) => [
      ...intruders.dashboard.map((i) => ({ what: `${JSON.stringify(i.by)} resends A's test delivery`, ...i, method: 'POST' as const, url: `/dashboard/webhooks/${w.a.deliveryId.test}/resend`, expect: 'page not found' as const })),
      { what: "A on test resends A's live delivery", by: { browser: 'aTest' }, method: 'POST', url: `/dashboard/webhooks/${w.a.deliveryId.live}/resend`, expect: 'page not found', hidden: ['live'] },
    ],
  },
  'GET /dashboard/business': {
    scope: 'dashboard',
    reason: "the session's merchant's approval status, business details and settlement account",
    attempts: (w) => [
      ...intruders.dashboard.map((i) => ({ what: `${JSON.stringify(i.by)} business page`, ...i, method: 'GET' as const, url: '/dashboard/business', expect: 'shown' as const })),
      { what: 'A on test: business page', by: { browser: 'aTest' }, method: 'GET', url: '/dashboard/business', expect: (a) => expect(a.body).toContain(w.a.panNumber), hidden: [] },
    ],
  },
  'POST /dashboard/business': {
    scope: 'dashboard',
    reason: "applies for the session's own merchant; an id in the form names nothing",
    attempts: async (w) => {
      const newcomer = merchantBrowser(w.t.app);
      await newcomer.signUp();
      const application = { ...validApplication(), merchant_id: w.a.id, merchant_idx: w.a.id, pan_number: '999999999' };
      return [
        { what: 'a new merchant applies, naming A', by: { browser: newcomer }, method: 'POST', url: '/dashboard/business', body: application, expect: (a) => expect(a.status).toBe(303), hidden: ALL },
        { what: 'B (approved) applies again, naming A', by: { browser: 'bLive' }, method: 'POST', url: '/dashboard/business', body: application, expect: 'shown', hidden: ALL },
      ];
    },
  },
  'POST /dashboard/business/bank-account': {
    scope: 'dashboard',
    reason: "sets the bank account of the session's own approved merchant; an id in the form names nothing",
    attempts: async (w) => {
      // An approved merchant whose owner counts as confirmed (made by the operator), so the change goes through.
      const fields = uniqueSignUp();
      await createMerchant(w.t.ctx, fields);
      const operatorMade = merchantBrowser(w.t.app);
      await operatorMade.logIn(fields.email, fields.password);
      const account = { bank_name: 'Intruder Bank', branch: 'Nowhere', account_name: 'Not A', account_number: '99999999', merchant_id: String(w.a.id), merchant_idx: String(w.a.id) };
      return [
        { what: 'an approved merchant sets its bank account, naming A', by: { browser: operatorMade }, method: 'POST', url: '/dashboard/business/bank-account', body: account, expect: (a) => expect(a.status).toBe(303), hidden: ALL },
        // B's owner confirmed its e-mail by signing up: B's own account changes, A's stays as it was.
        { what: 'B (approved) sets its bank account, naming A', by: { browser: await freshB(w) }, method: 'POST', url: '/dashboard/business/bank-account', body: { ...account, confirm_identity: w.b.password }, expect: (a) => expect(a.status).toBe(303), hidden: ALL },
      ];
    },
  },
  'GET /dashboard/team': {
    scope: 'dashboard',
    reason: "the session's own merchant's users, invitations and changes only",
    attempts: () => [
      ...intruders.dashboard.map((i) => ({ what: `${JSON.stringify(i.by)} team page`, ...i, method: 'GET' as const, url: '/dashboard/team', expect: 'shown' as const })),
      { what: 'A on test: team page', by: { browser: 'aTest' }, method: 'GET', url: '/dashboard/team', expect: 'shown', hidden: ['live', 'test'] },
    ],
  },
  'POST /dashboard/team/invite': {
    scope: 'dashboard',
    reason: "invites into the session's own merchant's team, whatever merchant the form names",
    attempts: (w) => [
      { what: 'B invites, naming A', by: { browser: 'bTest' }, method: 'POST', url: '/dashboard/team/invite', body: { email: `iso-by-b-${w.a.id}-${Date.now()}@example.com`, role: 'admin', merchant_id: w.a.id }, expect: (a) => expect(a.status).toBe(303), hidden: ALL },
    ],
  },
  ...Object.fromEntries(
    ['resend', 'revoke'].map((verb) => [
      `POST /dashboard/team/invitations/:id/${verb}`,
      {
        scope: 'dashboard' as const,
        reason: "an invitation is found by id within the session's own merchant only",
        attempts: (w: World) =>
          intruders.dashboard.slice(0, 2).map((i) => ({ what: `${JSON.stringify(i.by)} ${verb}s A's invitation`, ...i, method: 'POST' as const, url: `/dashboard/team/invitations/${w.a.invitationId}/${verb}`, expect: 'page not found' as const })),
      },
    ]),
  ),
  'POST /dashboard/team/users/:id/role': {
    scope: 'dashboard',
    reason: "a user is found by id within the session's own merchant only",
    attempts: (w) => intruders.dashboard.slice(0, 2).map((i) => ({ what: `${JSON.stringify(i.by)} makes A's viewer an admin`, ...i, method: 'POST' as const, url: `/dashboard/team/users/${w.a.viewer.id}/role`, body: { role: 'admin' }, expect: 'page not found' as const })),
  },
  'POST /dashboard/team/users/:id/remove': {
    scope: 'dashboard',
    reason: "a user is found by id within the session's own merchant only",
    attempts: (w) => intruders.dashboard.slice(0, 2).map((i) => ({ what: `${JSON.stringify(i.by)} removes A's viewer`, ...i, method: 'POST' as const, url: `/dashboard/team/users/${w.a.viewer.id}/remove`, expect: 'page not found' as const })),
  },
  'POST /dashboard/team/transfer': {
    scope: 'dashboard',
    reason: "the new owner is found by id within the session's own merchant only",
    attempts: async (w) => [
      { what: "B's owner hands B over to A's viewer", by: { browser: await freshB(w) }, method: 'POST', url: '/dashboard/team/transfer', body: { user_id: String(w.a.viewer.id) }, expect: 'page not found', hidden: ALL },
    ],
  },
  'GET /dashboard/invitation/:token': publicRoute('the token is the capability (random, hashed, single-use, 7 days); an unknown one shows nothing', `/dashboard/invitation/${'A'.repeat(43)}`),
  'POST /dashboard/invitation/:token': publicRoute('accepts the invitation the token names, with the form’s token; an unknown one changes nothing', `/dashboard/invitation/${'A'.repeat(43)}`, 'POST', { password: 'a long password', password_again: 'a long password' }),
  'POST /dashboard/environment': {
    scope: 'dashboard',
    reason: "switches the session's own environment; no other session's",
    attempts: async (w) => [
      { what: 'B switches its session to live', by: { browser: await freshB(w) }, method: 'POST', url: '/dashboard/environment', body: { environment: 'live', back: '/dashboard' }, expect: (a) => expect(a.status).toBe(303), hidden: ALL },
    ],
  },
  'POST /dashboard/switch-business': {
    scope: 'dashboard',
    reason: "switches the session to another of its person's own businesses only; any other merchant, named by its idx, is the not-found page",
    attempts: async (w) => {
      const [{ idx }] = await w.t.db.query<{ idx: string }>('SELECT idx FROM merchants WHERE id = $1', [w.a.id]);
      return [
        { what: "B switches its session to A's business", by: { browser: await freshB(w) }, method: 'POST', url: '/dashboard/switch-business', body: { business: idx }, expect: 'page not found', hidden: ALL },
        { what: 'A on live switches to a business that does not exist', by: { browser: 'aLive' }, method: 'POST', url: '/dashboard/switch-business', body: { business: 'x'.repeat(16) }, expect: 'page not found', hidden: ['test'] },
      ];
    },
  },
  'POST /dashboard/logout': {
    scope: 'dashboard',
    reason: "ends the session's own session; A's sessions stay",
    attempts: async (w) => [{ what: 'B logs out', by: { browser: await freshB(w) }, method: 'POST', url: '/dashboard/logout', expect: (a) => expect(a.status).toBe(303), hidden: ALL }],
  },
  // ---- a user's own account safety: the session's user only; links are capabilities ----------
  'GET /dashboard/account': {
    scope: 'dashboard',
    reason: "the session's own user: e-mail, two-factor, password form",
    attempts: () => intruders.dashboard.map((i) => ({ what: `${JSON.stringify(i.by)} security page`, ...i, method: 'GET' as const, url: '/dashboard/account', expect: 'shown' as const })),
  },
  'GET /dashboard/account/two-factor': {
    scope: 'dashboard',
    reason: "sets up two-factor for the session's own user (a secret of theirs only)",
    attempts: async (w) => [{ what: 'a throwaway user sets up two-factor', by: { browser: await throwaway(w) }, method: 'GET', url: '/dashboard/account/two-factor', expect: 'shown', hidden: ALL }],
  },
  'POST /dashboard/account/two-factor': {
    scope: 'dashboard',
    reason: "confirms the session's own user's set-up with a code; names no one else",
    attempts: async (w) => [{ what: 'a wrong code, naming A', by: { browser: await throwaway(w) }, method: 'POST', url: '/dashboard/account/two-factor', body: { code: '000000', user_id: w.a.id }, expect: 'shown', hidden: ALL }],
  },
  'POST /dashboard/account/two-factor/recovery-codes': {
    scope: 'dashboard',
    reason: "new codes for the session's own user only, after their code",
    attempts: (w) => [{ what: 'B asks new codes, naming A', by: { browser: 'bTest' }, method: 'POST', url: '/dashboard/account/two-factor/recovery-codes', body: { code: '000000', user_id: w.a.id }, expect: (a) => expect(a.status).toBe(409), hidden: ALL, refresh: '/dashboard/account' }],
  },
  'POST /dashboard/account/two-factor/off': {
    scope: 'dashboard',
    reason: "turns off the session's own user's two-factor only, after their code",
    attempts: (w) => [{ what: 'B turns off, naming A', by: { browser: 'bTest' }, method: 'POST', url: '/dashboard/account/two-factor/off', body: { off_code: '000000', user_id: w.a.id }, expect: (a) => expect(a.status).toBe(409), hidden: ALL, refresh: '/dashboard/account' }],
  },
  'POST /dashboard/account/password': {
    scope: 'dashboard',
    reason: "the session's own user's password, after the current one",
    attempts: (w) => [{ what: 'B changes a password with a wrong current one, naming A', by: { browser: 'bTest' }, method: 'POST', url: '/dashboard/account/password', body: { current_password: `not ${w.b.password}`, new_password: 'hijacked password', user_id: w.a.id, email: w.a.email }, expect: (a) => expect(a.status).toBe(400), hidden: ALL, refresh: '/dashboard/account' }],
  },
  'POST /dashboard/account/team-two-factor': {
    scope: 'dashboard',
    reason: "the session's own merchant's team setting (owner only)",
    attempts: (w) => [{ what: 'B requires two-factor, naming A', by: { browser: 'bTest' }, method: 'POST', url: '/dashboard/account/team-two-factor', body: { required: 'yes', merchant_id: w.a.id }, expect: (a) => expect(a.status).toBe(409), hidden: ALL, refresh: '/dashboard/account' }],
  },
  'POST /dashboard/account/verify-email': {
    scope: 'dashboard',
    reason: "sends the link to the session's own user's e-mail only",
    attempts: (w) => [{ what: 'B asks a link, naming A', by: { browser: 'bTest' }, method: 'POST', url: '/dashboard/account/verify-email', body: { email: w.a.email, user_id: w.a.id }, expect: 'shown', hidden: ALL, refresh: '/dashboard/account' }],
  },
  'GET /dashboard/verify-email/:token': publicRoute('the token is the capability (256 random bits, hashed, single-use, 24 hours); a wrong one shows nothing', `/dashboard/verify-email/${'A'.repeat(43)}`),
  'POST /dashboard/account/confirm': {
    scope: 'dashboard',
    reason: "confirms the session's own user with their own code or password; A's password proves nothing for B",
    attempts: (w) => [{ what: "B confirms with A's e-mail named", by: { browser: 'bTest' }, method: 'POST', url: '/dashboard/account/confirm', body: { back: '/dashboard', confirm_identity: 'not the password', email: w.a.email }, expect: 'shown', hidden: ALL, refresh: '/dashboard/account' }],
  },
  'GET /dashboard/account/sessions': {
    scope: 'dashboard',
    reason: "the session's own user's sessions",
    attempts: () => intruders.dashboard.map((i) => ({ what: `${JSON.stringify(i.by)} sessions page`, ...i, method: 'GET' as const, url: '/dashboard/account/sessions', expect: 'shown' as const })),
  },
  'POST /dashboard/account/sessions/end': {
    scope: 'dashboard',
    reason: "ends one of the session's own user's sessions, found by its ref among theirs only",
    attempts: (w) => [{ what: 'B ends a session ref it made up, naming A', by: { browser: 'bTest' }, method: 'POST', url: '/dashboard/account/sessions/end', body: { session: '0'.repeat(24), user_id: w.a.id }, expect: 'shown', hidden: ALL, refresh: '/dashboard/account/sessions' }],
  },
  'POST /dashboard/account/sessions/end-all': {
    scope: 'dashboard',
    reason: "ends the session's own user's sessions; A's stay",
    attempts: async (w) => [{ what: 'a throwaway user logs out everywhere, naming A', by: { browser: await throwaway(w) }, method: 'POST', url: '/dashboard/account/sessions/end-all', body: { user_id: w.a.id }, expect: (a) => expect(a.status).toBe(303), hidden: ALL }],
  },
  'GET /dashboard/login/code': publicRoute('the second-factor form, only in a session that gave the password', '/dashboard/login/code'),
  'POST /dashboard/login/code': publicRoute('a code, only in a session that gave the password; without one it leads to log-in', '/dashboard/login/code', 'POST', { code: '123456' }),
  'GET /dashboard/forgot-password': publicRoute('the form that asks for an e-mail', '/dashboard/forgot-password'),
  'POST /dashboard/forgot-password': {
    scope: 'public',
    reason: "answers the same for A's e-mail as for any other, and the link goes to A's mailbox only",
    attempts: (w) => [{ what: "a reset for A's e-mail", by: { browser: merchantBrowser(w.t.app) }, method: 'POST', url: '/dashboard/forgot-password', body: { email: w.a.email }, expect: (a) => expect(a.status).toBe(200), hidden: ALL, refresh: '/dashboard/forgot-password' }],
  },
  'GET /dashboard/reset-password/:token': publicRoute('the token is the capability (256 random bits, hashed, single-use, 1 hour); a wrong one shows nothing', `/dashboard/reset-password/${'A'.repeat(43)}`),
  'POST /dashboard/reset-password/:token': publicRoute('sets a password only with a live token; a wrong one changes nothing', `/dashboard/reset-password/${'A'.repeat(43)}`, 'POST', { password: 'hijacked password' }),
  'GET /dashboard/settlements': {
    scope: 'dashboard',
    reason: "balance, bank account, schedule and payouts of the session's merchant and environment",
    attempts: (w) => [
      ...intruders.dashboard.map((i) => ({ what: `${JSON.stringify(i.by)} settlements page`, ...i, method: 'GET' as const, url: '/dashboard/settlements', expect: 'shown' as const })),
      { what: 'A on test: settlements page', by: { browser: 'aTest' }, method: 'GET', url: '/dashboard/settlements', expect: (a) => expect(a.body).toContain(w.a.payouts.test), hidden: ['live'] },
    ],
  },
  'POST /dashboard/settlements/payouts': {
    scope: 'dashboard',
    reason: "pays out the session's own merchant's balance in its environment; an id in the form names nothing",
    attempts: (w) => {
      // B has no money to pay out: refused for B's own balance (A's payouts are in the snapshot, unchanged);
      // on live, B's owner has not confirmed its e-mail, which is refused (403) before the balance is read.
      const refused = (a: Answered) => expect([400, 403]).toContain(a.status);
      return [
        { what: 'B requests a payout, naming A', by: { browser: 'bTest' }, method: 'POST', url: '/dashboard/settlements/payouts', body: { payout: 'all', merchant_id: w.a.id, merchant: w.a.id, environment: 'live' }, expect: refused, hidden: ALL, refresh: '/dashboard/settlements' },
        { what: 'B on live requests a payout, naming A', by: { browser: 'bLive' }, method: 'POST', url: '/dashboard/settlements/payouts', body: { payout: 'amount', amount: '1', merchant_id: w.a.id }, expect: refused, hidden: ALL, refresh: '/dashboard/settlements' },
      ];
    },
  },
  'POST /dashboard/settlements/schedule': {
    scope: 'dashboard',
    reason: "sets the schedule of the session's own merchant and environment; an id in the form names nothing",
    attempts: (w) => {
      const noScheduleOfA = async (a: Answered) => {
        expect(a.status).toBe(303);
        expect(await w.t.db.query('SELECT 1 FROM payout_schedules WHERE merchant_id = $1', [w.a.id])).toEqual([]);
      };
      return [
        { what: 'B sets its schedule, naming A', by: { browser: 'bTest' }, method: 'POST', url: '/dashboard/settlements/schedule', body: { frequency: 'daily', minimum_amount: '999999', merchant_id: w.a.id }, expect: noScheduleOfA, hidden: ALL, refresh: '/dashboard/settlements' },
        { what: 'B on live turns its schedule off, naming A', by: { browser: 'bLive' }, method: 'POST', url: '/dashboard/settlements/schedule', body: { frequency: 'none', merchant_id: w.a.id }, expect: noScheduleOfA, hidden: ALL, refresh: '/dashboard/settlements' },
      ];
    },
  },
  ...Object.fromEntries(
    ['', '/statement.csv'].map((suffix) => [
      `GET /dashboard/settlements/:idx${suffix}`,
      {
        scope: 'dashboard' as const,
        reason: "a payout (statement) of another merchant or of the other environment is 'not found'",
        attempts: (w: World): Attempt[] => {
          const mine = w.a.payouts;
          return [
            ...intruders.dashboard.map((i) => ({ what: `${JSON.stringify(i.by)} opens A's test payout`, ...i, method: 'GET' as const, url: `/dashboard/settlements/${mine.test}${suffix}`, expect: 'page not found' as const })),
            { what: "B opens A's live payout", by: { browser: 'bLive' }, method: 'GET', url: `/dashboard/settlements/${mine.live}${suffix}`, expect: 'page not found', hidden: ALL },
            { what: "A on test opens A's live payout", by: { browser: 'aTest' }, method: 'GET', url: `/dashboard/settlements/${mine.live}${suffix}`, expect: 'page not found', hidden: ['live'] },
            { what: 'A itself (the attempt is aimed right)', by: { browser: 'aTest' }, method: 'GET', url: `/dashboard/settlements/${mine.test}${suffix}`, expect: (a) => expect(a.status).toBe(200), hidden: [] },
          ];
        },
      },
    ]),
  ),
  'GET /dashboard/signup': publicRoute('the sign-up form: no merchant yet', '/dashboard/signup'),
  'POST /dashboard/signup': {
    scope: 'public',
    reason: 'asks for a new merchant by e-mail; A’s email is answered as any other ("check your e-mail"), showing nothing of A and creating nothing',
    attempts: (w) => [
      { what: "sign-up with A's email", by: { browser: merchantBrowser(w.t.app) }, method: 'POST', url: '/dashboard/signup', body: { ...uniqueSignUp(), email: w.a.email }, expect: (a) => expect(a.status).toBe(200), hidden: ALL, refresh: '/dashboard/signup' },
    ],
  },
  'GET /dashboard/signup/:token': publicRoute('the token is the capability (256 random bits, hashed, single-use, 24 hours); a wrong one shows nothing', `/dashboard/signup/${'A'.repeat(43)}`),
  'POST /dashboard/signup/:token': publicRoute('creates the merchant a live token names, with the form’s token; a wrong one creates nothing', `/dashboard/signup/${'A'.repeat(43)}`, 'POST'),
  'GET /dashboard/login': publicRoute('the log-in form: no merchant yet', '/dashboard/login'),
  'POST /dashboard/login': {
    scope: 'public',
    reason: "logs a merchant in by email and password; a wrong password for A's email shows nothing of A",
    attempts: (w) => [
      { what: 'log-in as A with a wrong password', by: { browser: merchantBrowser(w.t.app) }, method: 'POST', url: '/dashboard/login', body: { email: w.a.email, password: 'not the password' }, expect: (a) => expect(a.status).toBe(401), hidden: ALL, refresh: '/dashboard/login' },
    ],
  },

  // ---- the rest: no merchant-scoped id -------------------------------------------------------
  // ---- the operator console: operators only, each route by the permission it declares --------
  'GET /console/login': consoleSignedOutRoute('the sign-in form', 'GET', '/console/login'),
  'POST /console/login': consoleSignedOutRoute('e-mail and password; refused without the form’s token', 'POST', '/console/login', { email: 'x@example.com', password: 'x' }),
  'GET /console/login/code': consoleSignedOutRoute('the second-factor form, only in a session that gave the password', 'GET', '/console/login/code'),
  'POST /console/login/code': consoleSignedOutRoute('a TOTP or recovery code, only in a session that gave the password', 'POST', '/console/login/code', { code: '123456' }),
  'GET /console/enrol': consoleSignedOutRoute('the TOTP enrolment, only in a session of an invited operator who set a password', 'GET', '/console/enrol'),
  'POST /console/enrol': consoleSignedOutRoute('confirms the enrolment, only in such a session', 'POST', '/console/enrol', { code: '123456' }),
  'POST /console/logout': consoleSignedOutRoute('ends the session the cookie names, with the form’s token', 'POST', '/console/logout'),
  'GET /console/invitation/:token': consoleSignedOutRoute('the token is the capability (random, hashed, single-use, 7 days)', 'GET', '/console/invitation/AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA'),
  'POST /console/invitation/:token': consoleSignedOutRoute('accepts an invitation the token names, with the form’s token', 'POST', '/console/invitation/AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA', { password: 'a long password 1', password_again: 'a long password 1' }),
  'GET /console': consoleRoute('read', 'GET', '/console'),
  'POST /console/ledger/verify': consoleRoute('ledger.verify', 'POST', '/console/ledger/verify'),
  'GET /console/account': consoleRoute('read', 'GET', '/console/account'),
  'POST /console/account/password': consoleRoute('read', 'POST', '/console/account/password', { current_password: 'wrong', new_password: 'x' }),
  'POST /console/account/recovery-codes': consoleRoute('read', 'POST', '/console/account/recovery-codes', { current_password: 'wrong' }),
  'GET /console/operators': consoleRoute('operators.manage', 'GET', '/console/operators'),
  'POST /console/operators/invite': consoleRoute('operators.manage', 'POST', '/console/operators/invite', { email: 'crafted-invite@example.com', role: 'admin' }),
  'POST /console/operators/invitations/:id/resend': consoleRoute('operators.manage', 'POST', '/console/operators/invitations/1/resend'),
  'POST /console/operators/invitations/:id/revoke': consoleRoute('operators.manage', 'POST', '/console/operators/invitations/1/revoke'),
  'POST /console/operators/:id/role': consoleRoute('operators.manage', 'POST', '/console/operators/1/role', { role: 'admin' }),
  'POST /console/operators/:id/remove': consoleRoute('operators.manage', 'POST', '/console/operators/1/remove'),
  'GET /console/audit': consoleRoute('read', 'GET', '/console/audit'),
  'GET /console/payments': consoleRoute('read', 'GET', '/console/payments?q=9800000001'),
  'GET /console/payments/:pidx': consoleRouteOf('read', async (w) => `/console/payments/${w.a.live.completed.pidx}`),
  'POST /console/payments/:pidx/resolve': consoleRoute('payments.resolve', 'POST', '/console/payments/any/resolve', { resolution: 'Completed', reason: 'crafted' }),
  'GET /console/wallets': consoleRoute('read', 'GET', '/console/wallets?mobile=98'),
  'POST /console/wallets': consoleRoute('wallets.manage', 'POST', '/console/wallets', { mobile: '9700000099', name: 'Crafted', mpin: '1234', environment: 'live' }),
  'GET /console/wallets/:idx': consoleRouteOf('read', async (w) => `/console/wallets/${(await findWallet(w.t.db, 'test', '9800000001'))!.idx}`),
  'POST /console/wallets/:idx/topup': consoleRoute('wallets.manage', 'POST', '/console/wallets/any/topup', { amount: '100', reason: 'crafted' }),
  'POST /console/wallets/:idx/freeze': consoleRoute('wallets.freeze', 'POST', '/console/wallets/any/freeze', { reason: 'crafted' }),
  'POST /console/wallets/:idx/unfreeze': consoleRoute('wallets.freeze', 'POST', '/console/wallets/any/unfreeze', { reason: 'crafted' }),
  'GET /console/providers': consoleRoute('read', 'GET', '/console/providers'),
  'POST /console/providers/:name/set': consoleRoute('providers.manage', 'POST', '/console/providers/khalti/set', { environment: 'live', base_url: 'https://evil.example.com', secret_key: 'crafted' }),
  'POST /console/providers/:name/:environment/enable': consoleRoute('providers.manage', 'POST', '/console/providers/khalti/live/enable'),
  'POST /console/providers/:name/:environment/disable': consoleRoute('providers.manage', 'POST', '/console/providers/khalti/test/disable'),
  'POST /console/providers/attempts/:idx/resolve': consoleRoute('payments.resolve', 'POST', '/console/providers/attempts/any/resolve', { decision: 'paid', reason: 'crafted' }),
  'POST /console/providers/refunds/:idx/refunded': consoleRoute('providers.refunds', 'POST', '/console/providers/refunds/any/refunded', { reference: 'crafted' }),
  'GET /console/payouts': consoleRoute('read', 'GET', '/console/payouts?state=Processing'),
  'POST /console/payouts/export': consoleRoute('payouts.process', 'POST', '/console/payouts/export'),
  'GET /console/payouts/processing.csv': consoleRoute('payouts.process', 'GET', '/console/payouts/processing.csv'),
  'GET /console/payouts/:idx': consoleRouteOf('read', async (w) => `/console/payouts/${w.a.payouts.live}`),
  'POST /console/payouts/:idx/paid': consoleRoute('payouts.process', 'POST', '/console/payouts/any/paid', { reference: 'crafted' }),
  'POST /console/payouts/:idx/failed': consoleRoute('payouts.process', 'POST', '/console/payouts/any/failed', { reason: 'crafted' }),
  'GET /console/payout-rail': consoleRoute('read', 'GET', '/console/payout-rail?date=2026-11-28&env=test'),
  'POST /console/payout-rail/accounts/:id/approve': consoleRoute('payouts.process', 'POST', '/console/payout-rail/accounts/1/approve', { reason: 'crafted' }),
  'GET /console/merchants': consoleRoute('read', 'GET', '/console/merchants?status=applied'),
  'GET /console/merchants/:idx': consoleRouteOf('read', async (w) => `/console/merchants/${(await findMerchantById(w.t.db, w.a.id))!.idx}`),
  ...Object.fromEntries(
    ['approve', 'reject', 'suspend', 'reactivate', 'fee'].map((verb) => [
      `POST /console/merchants/:idx/${verb}`,
      consoleRoute('merchants.decide', 'POST', `/console/merchants/any/${verb}`, { reason: 'crafted', fee_bps: '0' }),
    ]),
  ),

  'GET /': publicRoute('redirects to the dashboard', '/'),
  'GET /language/:language': {
    scope: 'public',
    reason: "the payer's language switch: a cookie of the payer's own browser, and back to one of the payer's pages only (never another site)",
    attempts: (w) => [
      { what: "back to A's payment page", by: { anonymous: true }, method: 'GET', url: `/language/ne?back=${encodeURIComponent(`/pay/?pidx=${w.a.test.initiated.pidx}`)}`, expect: (a) => expect([a.status, a.location]).toEqual([303, `/pay/?pidx=${w.a.test.initiated.pidx}`]), hidden: ALL },
      { what: 'back to another site', by: { anonymous: true }, method: 'GET', url: `/language/en?back=${encodeURIComponent('//evil.example/pay')}`, expect: (a) => expect([a.status, a.location]).toEqual([200, undefined]), hidden: ALL },
    ],
  },
  'GET /health': publicRoute('liveness of the service; no merchant data', '/health'),
  'GET /metrics': {
    scope: 'public',
    reason: 'service-wide counters, labelled by route and status, never by merchant; on the public port only with METRICS_TOKEN (src/http/metrics.test.ts), else not served',
    attempts: () => [{ what: 'anyone', by: { anonymous: true }, method: 'GET', url: '/metrics', expect: (a) => expect(a.status).toBe(404), hidden: ALL }],
  },
  'GET /assets/:name': publicRoute('static stylesheets and scripts shipped with the service', '/assets/portal.css'),
  'GET /docs': publicRoute('the API documentation page', '/docs'),
  'GET /demo': publicRoute("the demo shop of the demo merchant (its own sandbox key)", '/demo'),
  'POST /demo/buy': publicRoute('buys from the demo shop with the demo merchant’s key; takes a product, never a merchant or payment', '/demo/buy', 'POST', { product: 'x' }),
  'GET /demo/return': {
    scope: 'public',
    reason: "the demo shop's return page: a callback not signed for the demo merchant is ignored, and its lookup uses the demo merchant's key",
    attempts: (w) => [
      {
        what: "A's callback parameters replayed on the demo shop",
        by: { anonymous: true },
        method: 'GET',
        url: `/demo/return?pidx=${w.a.test.completed.pidx}&status=Completed&transaction_id=${w.a.test.completed.transactionId}&purchase_order_id=${w.a.test.completed.orderId}`,
        expect: (a) => expect([400, 404]).toContain(a.status),
        hidden: ALL,
      },
    ],
  },
};

/** A hosted page's address given out before, at the page's own shape: `/pay/X` → `/pay/?pidx=X`, `/pay/X/otp/T` → `/pay/?pidx=X&attempt=T`, `/pay/X/wallet` → `/pay/wallet?pidx=X`. */
function queryAddressOf(url: string): string {
  const [, pidx, rest = ''] = /^\/pay\/([\w-]+)(.*)$/.exec(url)!;
  const otp = /^\/otp\/([\w-]+)$/.exec(rest);
  if (otp) return `/pay/?pidx=${pidx}&attempt=${otp[1]}`;
  return `/pay/${rest.slice(1)}?pidx=${pidx}`;
}

/** The classifications of routes at the addresses given out before, each attempt sent to the page's own address instead. */
function atQueryAddress(...keys: string[]): Classification {
  const classifications = keys.map((key) => table[key]);
  return {
    scope: 'portal',
    reason: classifications.map((c) => c.reason).join('; '),
    attempts: async (w) => {
      const attempts: Attempt[] = [];
      for (const c of classifications) attempts.push(...(await c.attempts(w)));
      return attempts.map((attempt) => ({ ...attempt, url: queryAddressOf(attempt.url) }));
    },
  };
}

// The hosted page's own addresses, the payment in the query: the same attempts as at the addresses
// given out before (the page and its OTP step share one route).
table['GET /pay'] = atQueryAddress('GET /pay/:pidx', 'GET /pay/:pidx/otp/:token');
for (const step of ['wallet', 'confirm', 'cancel', 'provider']) table[`POST /pay/${step}`] = atQueryAddress(`POST /pay/:pidx/${step}`);

function transrecAttempts(w: World, method: 'GET' | 'POST'): Attempt[] {
  const v1 = w.a.esewa.v1;
  const fields = (scd: string) => ({ amt: v1.total, rid: v1.transactionId, pid: v1.orderId, scd });
  const ask = (scd: string) => (method === 'GET' ? { url: `/epay/transrec?${new URLSearchParams(fields(scd))}` } : { url: '/epay/transrec', body: fields(scd) });
  const failure = (a: Answered) => expect([a.status, a.body]).toEqual([200, '<response><response_code>failure</response_code></response>']);
  return [
    { what: "B's scd verifies A's payment", by: { anonymous: true }, method, ...ask(w.b.esewa.test.product_code), expect: failure, hidden: ALL },
    { what: "A's live scd verifies A's test payment", by: { anonymous: true }, method, ...ask(w.a.esewa.live.product_code), expect: failure, hidden: ['test'] },
    { what: 'A itself (the attempt is aimed right)', by: { anonymous: true }, method, ...ask(w.a.esewa.test.product_code), expect: (a) => expect(a.body).toContain('Success'), hidden: [] },
  ];
}

function transactionListAttempts(w: World, path: string): Attempt[] {
  const q = (value: string) => `${path}?q=${encodeURIComponent(value)}`;
  return [
    ...intruders.dashboard.flatMap((i) => [
      { what: `${JSON.stringify(i.by)} lists`, ...i, method: 'GET' as const, url: path, expect: 'shown' as const },
      { what: `${JSON.stringify(i.by)} searches A's pidx`, ...i, method: 'GET' as const, url: q(w.a.test.completed.pidx), expect: 'shown' as const },
      { what: `${JSON.stringify(i.by)} searches A's order`, ...i, method: 'GET' as const, url: q(w.a.test.partial.orderId), expect: 'shown' as const },
    ]),
    { what: "A on test searches A's live pidx", by: { browser: 'aTest' }, method: 'GET', url: q(w.a.live.completed.pidx), expect: 'shown', hidden: ['live'] },
    {
      what: 'A itself (the attempt is aimed right)',
      by: { browser: 'aTest' },
      method: 'GET',
      url: q(w.a.test.completed.pidx),
      expect: (a) => {
        expect(a.status).toBe(200);
        expect(a.body).toContain(w.a.test.completed.transactionId);
      },
      hidden: [],
    },
  ];
}

// ---- the sandbox's providers: simulators of Khalti, eSewa and connectIPS (issue 26) ------------
// They hold only their own simulated payments, answer only to the sandbox's own keys and
// signatures, and show no merchant's data: a merchant's key, an unknown reference or a forged
// signature gets the provider's own refusal.
const simulator = (reason: string, method: 'GET' | 'POST', url: string, status: number, body?: Record<string, unknown>, by: Attempt['by'] = { anonymous: true }): Classification => ({
  scope: 'public',
  reason,
  attempts: () => [{ what: 'anyone', by, method, url, body, expect: (a) => expect(a.status).toBe(status), hidden: ALL }],
});
table['POST /sandbox/khalti/api/v2/epayment/initiate/'] = {
  scope: 'public',
  reason: "Khalti's simulator answers only to the sandbox's own key: a merchant's secret key is Invalid token",
  attempts: (w) => [{ what: "A's test key", by: { key: w.a.keys.test }, method: 'POST', url: '/sandbox/khalti/api/v2/epayment/initiate/', body: validInitiateForSimulator, expect: (a) => expect(a.status).toBe(401), hidden: ALL }],
};
table['POST /sandbox/khalti/api/v2/epayment/lookup/'] = {
  scope: 'public',
  reason: "Khalti's simulator's lookup answers only to the sandbox's own key, and only about its simulated payments",
  attempts: (w) => [{ what: "A's pidx with A's key", by: { key: w.a.keys.test }, method: 'POST', url: '/sandbox/khalti/api/v2/epayment/lookup/', body: { pidx: w.a.test.completed.pidx }, expect: (a) => expect(a.status).toBe(401), hidden: ALL }],
};
table['POST /sandbox/khalti/api/merchant-transaction/:transactionId/refund/'] = {
  scope: 'public',
  reason: "Khalti's simulator's refund answers only to the sandbox's own key and refunds only its simulated payments: A's transaction with A's key refunds nothing",
  attempts: (w) => [
    {
      what: "A's transaction with A's key",
      by: { key: w.a.keys.test },
      method: 'POST',
      url: `/sandbox/khalti/api/merchant-transaction/${w.a.test.completed.transactionId}/refund/`,
      expect: (a) => expect(a.status).toBe(401),
      hidden: ALL,
    },
  ],
};
table['GET /sandbox/khalti/pay'] = {
  scope: 'public',
  reason: "Khalti's simulator's page shows only its own simulated payment; a merchant's pidx is not one",
  attempts: (w) => [{ what: "A's pidx", by: { anonymous: true }, method: 'GET', url: `/sandbox/khalti/pay?pidx=${w.a.test.initiated.pidx}`, expect: (a) => expect(a.status).toBe(404), hidden: ALL }],
};
table['POST /sandbox/khalti/pay'] = simulator("the simulator's choice needs the CSRF token bound to its own payment", 'POST', '/sandbox/khalti/pay', 400, { pidx: 'x', outcome: 'paid' });
table['POST /sandbox/esewa/api/epay/main/v2/form'] = simulator("eSewa's simulator takes only forms signed with its test key", 'POST', '/sandbox/esewa/api/epay/main/v2/form', 400, {
  amount: '10',
  tax_amount: '0',
  total_amount: '10',
  transaction_uuid: 'x',
  product_code: 'EPAYTEST',
  product_service_charge: '0',
  product_delivery_charge: '0',
  success_url: 'https://evil.example.com/s',
  failure_url: 'https://evil.example.com/f',
  signed_field_names: 'total_amount,transaction_uuid,product_code',
  signature: 'forged',
});
table['GET /sandbox/esewa/pay'] = simulator("eSewa's simulator's page shows only its own simulated payments", 'GET', '/sandbox/esewa/pay?ref=unknown', 404);
table['POST /sandbox/esewa/pay'] = simulator("the simulator's choice needs the CSRF token bound to its own payment", 'POST', '/sandbox/esewa/pay', 400, { ref: 'x', outcome: 'paid' });
table['GET /sandbox/esewa/api/epay/transaction/status/'] = {
  scope: 'public',
  reason: "eSewa's simulator's status check knows only its own simulated payments: a merchant's payment is NOT_FOUND",
  attempts: (w) => [
    {
      what: "A's pidx",
      by: { anonymous: true },
      method: 'GET',
      url: `/sandbox/esewa/api/epay/transaction/status/?product_code=EPAYTEST&total_amount=10&transaction_uuid=${w.a.test.completed.pidx}`,
      expect: (a) => expect(JSON.parse(a.body).status).toBe('NOT_FOUND'),
      hidden: ['merchant', 'live'],
    },
  ],
};
table['POST /sandbox/connectips/connectipswebgw/loginpage'] = simulator("connectIPS's simulator takes only forms whose TOKEN the sandbox merchant's key signed", 'POST', '/sandbox/connectips/connectipswebgw/loginpage', 400, {
  MERCHANTID: '1',
  APPID: 'BHUKTANI-SANDBOX-1',
  APPNAME: 'x',
  TXNID: 'x',
  TXNDATE: '01-01-2026',
  TXNCRNCY: 'NPR',
  TXNAMT: '1000',
  REFERENCEID: 'x',
  REMARKS: 'x',
  PARTICULARS: 'x',
  TOKEN: 'forged',
});
table['GET /sandbox/connectips/pay'] = simulator("connectIPS's simulator's page shows only its own simulated payments", 'GET', '/sandbox/connectips/pay?txn=unknown', 404);
table['POST /sandbox/connectips/pay'] = simulator("the simulator's choice needs the CSRF token bound to its own payment", 'POST', '/sandbox/connectips/pay', 400, { txn: 'x', outcome: 'paid' });
table['POST /sandbox/connectips/connectipswebws/api/creditor/validatetxn'] = simulator("connectIPS's simulator's validation needs the sandbox app's password (basic authentication)", 'POST', '/sandbox/connectips/connectipswebws/api/creditor/validatetxn', 401, {
  merchantId: 1,
  appId: 'BHUKTANI-SANDBOX-1',
  referenceId: 'x',
  txnAmt: 1000,
  token: 'forged',
});

// NPI's simulator, the test environment's payout rail: its token endpoint wants the member's client
// credentials, every API call a token issued to the member; a merchant's key is neither.
table['POST /sandbox/npi/oauth/token'] = simulator("NPI's simulator issues tokens only to the sandbox member's client credentials (basic authentication)", 'POST', '/sandbox/npi/oauth/token', 401, { grant_type: 'password', username: 'x', password: 'x' });
for (const path of ['validatebankaccount', 'postcipsbatch', 'postnchlipsbatch', 'getcipstxnlistbybatchid', 'getcipstxnbyinstructionid', 'getcipstxnlistbydate', 'getnchlipstxnlistbybatchid', 'getnchlipstxnlistbyinstructionid', 'getnchlipstxnlistbydate']) {
  table[`POST /sandbox/npi/api/${path}`] = simulator("NPI's simulator answers only calls bearing a token it issued to the member, and keeps each member's books apart", 'POST', `/sandbox/npi/api/${path}`, 401, { batchId: 'x' });
}

const FONEPAY_QR_API = '/sandbox/fonepay/api/merchant/merchantDetailsForThirdParty';
table['GET /sandbox/fonepay/api/merchantRequest'] = simulator("Fonepay's simulator takes only requests whose DV its test merchant's key signed", 'GET', '/sandbox/fonepay/api/merchantRequest?PID=fonepay123&MD=P&PRN=xyz&AMT=10&CRN=NPR&DT=01/01/2026&R1=x&R2=N%2FA&RU=https%3A%2F%2Fevil.example.com%2F&DV=forged', 400);
table['POST /sandbox/fonepay/api/merchantRequest'] = simulator("Fonepay's simulator takes only requests whose DV its test merchant's key signed", 'POST', '/sandbox/fonepay/api/merchantRequest', 400, {
  PID: 'fonepay123',
  MD: 'P',
  PRN: 'xyz',
  AMT: '10',
  CRN: 'NPR',
  DT: '01/01/2026',
  R1: 'x',
  R2: 'N/A',
  RU: 'https://evil.example.com/',
  DV: 'forged',
});
table['GET /sandbox/fonepay/checkout'] = simulator("Fonepay's simulator's page shows only its own simulated payments", 'GET', '/sandbox/fonepay/checkout?prn=unknown', 404);
table['POST /sandbox/fonepay/checkout'] = simulator("the simulator's choice needs the CSRF token bound to its own payment", 'POST', '/sandbox/fonepay/checkout', 400, { prn: 'x', outcome: 'paid' });
table['GET /sandbox/fonepay/api/merchantRequest/verificationMerchant'] = {
  scope: 'public',
  reason: "Fonepay's simulator's verification needs its test merchant's DV and knows only its own simulated payments",
  attempts: (w) => [
    {
      what: "A's pidx",
      by: { anonymous: true },
      method: 'GET',
      url: `/sandbox/fonepay/api/merchantRequest/verificationMerchant?PRN=${w.a.test.completed.pidx}&PID=fonepay123&BID=&AMT=10&UID=1&DV=forged`,
      expect: (a) => expect(a.body).toContain('<success>false</success>'),
      hidden: ALL,
    },
  ],
};
table[`POST ${FONEPAY_QR_API}/thirdPartyDynamicQrDownload`] = simulator("Fonepay's simulator issues a QR only to its test merchant's user and DV", 'POST', `${FONEPAY_QR_API}/thirdPartyDynamicQrDownload`, 406, { amount: '10', prn: 'x', merchantCode: 'fonepay123', remarks1: 'x', remarks2: 'x', dataValidation: 'forged', username: 'bijayk', password: 'wrong' });
table[`POST ${FONEPAY_QR_API}/thirdPartyDynamicQrGetStatus`] = simulator("Fonepay's simulator's status check needs its test merchant's user and DV", 'POST', `${FONEPAY_QR_API}/thirdPartyDynamicQrGetStatus`, 406, { prn: 'x', merchantCode: 'fonepay123', dataValidation: 'forged', username: 'bijayk', password: 'wrong' });
table['GET /sandbox/fonepay/convergent-webSocket-web/merchantEndPoint/:deviceId/:merchantCode/:flag'] = simulator(
  "Fonepay's simulator's QR socket serves only a device it named in a QR answer (a request that is no upgrade is not found either)",
  'GET',
  '/sandbox/fonepay/convergent-webSocket-web/merchantEndPoint/Tnosuchdevice/fonepay123/Y',
  404,
);
table['GET /sandbox/fonepay/bank-app'] = simulator("the simulated bank app pays only a QR message the simulator issued", 'GET', '/sandbox/fonepay/bank-app?qr=000201', 404);
table['POST /sandbox/fonepay/bank-app'] = simulator("the simulated bank app pays only a QR message the simulator issued", 'POST', '/sandbox/fonepay/bank-app', 404, { qr: '000201', outcome: 'paid' });
table['GET /pay/qr/:idx'] = {
  scope: 'portal',
  reason: "the attempt on a QR page is the capability (random, the payer's browser's only): a guessed attempt, a payment's pidx or a web checkout's attempt shows nothing and asks no provider",
  attempts: (w) => [
    { what: 'a guessed attempt', by: { anonymous: true }, method: 'GET', url: '/pay/qr/AAAAAAAAAAAAAAAAA', expect: 'page not found', hidden: ALL },
    { what: "A's pidx", by: { anonymous: true }, method: 'GET', url: `/pay/qr/${w.a.test.initiated.pidx}`, expect: 'page not found', hidden: ALL },
  ],
};
table['GET /pay/qr/:idx/wait'] = {
  scope: 'portal',
  reason: "the QR page's wait answers only about a QR attempt, named by its random idx",
  attempts: (w) => [{ what: "A's pidx", by: { anonymous: true }, method: 'GET', url: `/pay/qr/${w.a.test.initiated.pidx}/wait`, expect: (a) => expect(a.status).toBe(404), hidden: ALL }],
};

// ---- the suite --------------------------------------------------------------------------------

const { t, routes } = await startRecordingRoutes();
afterAll(() => t.close());
// On PostgreSQL every test file shares one store, and other files run the expiry sweep and the
// webhook sender at their own clocks (about now): twenty years ahead, nothing of this file's is
// ever due for them.
t.clock.advance(20 * 365 * 24 * 3600);
const world = await buildWorld(t);

describe('isolation', () => {
  it('every route the app registers is classified (a new route must say how it is isolated)', () => {
    const unclassified = routes.filter((r) => r.method !== 'HEAD' && !table[routeKey(r)]).map(routeKey);
    expect(unclassified, 'add these routes to the table in test/isolation/isolation.test.ts').toEqual([]);
    const headless = routes.filter((r) => r.method === 'HEAD' && !table[`GET ${r.url}`]).map(routeKey);
    expect(headless, 'a HEAD route repeats its GET route’s attempts').toEqual([]);
    const stale = Object.keys(table).filter((key) => !routes.some((r) => routeKey(r) === key));
    expect(stale, 'routes in the table that the app no longer registers').toEqual([]);
  });

  it('covers the API, the hosted page, the dashboard and the console', () => {
    const scopes = new Set(Object.values(table).map((c) => c.scope));
    expect([...scopes].sort()).toEqual(['api', 'console', 'dashboard', 'esewa', 'portal', 'public']);
    for (const prefix of ['/api/', '/api/epay/', '/epay/', '/pay/', '/dashboard', '/console']) expect(routes.some((r) => r.url.startsWith(prefix))).toBe(true);
  });

  const classified = routes.filter((r) => table[routeKey(r)] || (r.method === 'HEAD' && table[`GET ${r.url}`]));
  describe.each(classified.map((r) => [routeKey(r), r] as const))('%s', (_key, route) => {
    const head = route.method === 'HEAD';
    const classification = table[head ? `GET ${route.url}` : routeKey(route)];
    it(`${classification.scope}: ${classification.reason}`, async () => {
      const before = await snapshotOfA(world);
      const attempts = await classification.attempts(world);
      expect(attempts.length).toBeGreaterThan(0);
      for (const attempt of attempts) {
        if (!head) {
          await runAttempt(world, attempt);
          continue;
        }
        // HEAD: the same answer as GET, without a body.
        const got = await runAttempt(world, attempt);
        const headed = await runAttempt(world, attempt, 'HEAD');
        expect(headed.status, `${attempt.what} as HEAD`).toBe(got.status);
      }
      expect(await snapshotOfA(world), "A's data changed").toEqual(before);
    }, 120_000);
  });
});
