// Fuzzing the merchant API (issue 6): thousands of random and hostile bodies, headers and query
// strings. Whatever arrives, the API answers below 500, in the contract's shapes (an error is one
// of the catalogue's JSON bodies, a success its route's shape), and a rejected request stores
// nothing. Size: FUZZ_RUNS runs per property (default 1000); a failure prints the seed to replay
// with FUZZ_SEED (and FUZZ_PATH).
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { validInitiate } from '../api-client.js';
import { payerBrowser, callbackParams } from '../portal-client.js';
import { newMerchant, startTestApp } from '../test-app.js';
import { type Answer, expectApiError, expectInitiated, expectLookup, expectTransactionPage, jsonOf } from './contract-shapes.js';
import { contentTypes, FUZZ_RUNS, fuzzOptions, fuzzTimeout, hostileString, hostileValue, numericStrings, rawBodies, uriEncode } from './hostile.js';

const t = await startTestApp();
afterAll(() => t.close());
// On PostgreSQL every test file shares one store, and other files run the expiry sweep and the
// webhook sender at their own clocks (about now): twenty years ahead, nothing of this file's is
// ever due for them.
t.clock.advance(20 * 365 * 24 * 3600);
const PUBLIC_URL = t.ctx.config.publicUrl;
const merchant = await newMerchant(t.ctx);
const KEY = merchant.test_secret_key;
const other = await newMerchant(t.ctx);

const INITIATE = '/api/v2/epayment/initiate/';
const LOOKUP = '/api/v2/epayment/lookup/';
const LIST = '/api/v2/merchant-transaction/';

interface Request {
  method?: 'GET' | 'POST' | 'PUT' | 'DELETE' | 'PATCH' | 'OPTIONS' | 'HEAD';
  url: string;
  headers?: Record<string, string | undefined>;
  payload?: string;
}

async function send(request: Request): Promise<Answer> {
  const headers = Object.fromEntries(Object.entries({ authorization: `Key ${KEY}`, ...request.headers }).filter(([, v]) => v !== undefined)) as Record<string, string>;
  const response = await t.app.inject({ method: request.method ?? 'POST', url: request.url, headers, ...(request.payload !== undefined ? { payload: request.payload } : {}) });
  const answer = { status: response.statusCode, headers: response.headers, body: response.body };
  expect(answer.status, `${request.method ?? 'POST'} ${request.url.slice(0, 200)} → ${answer.status} ${answer.body.slice(0, 300)}`).toBeLessThan(500);
  return answer;
}

const stored = async (merchantId = merchant.merchant.id) =>
  (await t.db.query<{ n: number }>('SELECT count(*)::int AS n FROM payments WHERE merchant_id = $1', [merchantId]))[0].n;

/** Initiate with `payload`: a success stores exactly one payment and echoes the merchant_* fields; anything else stores none. */
async function initiateChecked(payload: string, contentType: string | undefined, sent: unknown, headers: Record<string, string | undefined> = {}) {
  const before = await stored();
  const answer = await send({ url: INITIATE, headers: { 'content-type': contentType, ...headers }, payload });
  const after = await stored();
  if (answer.status === 200) {
    expectInitiated(answer, sent, PUBLIC_URL);
    expect(after).toBe(before + (answer.headers['idempotent-replayed'] ? 0 : 1));
  } else {
    expectApiError(answer);
    expect(after, `a rejected initiate stored a payment: ${answer.status} ${answer.body.slice(0, 200)}`).toBe(before);
  }
  return answer;
}

const INITIATE_FIELDS = ['return_url', 'website_url', 'amount', 'purchase_order_id', 'purchase_order_name', 'customer_info', 'amount_breakdown', 'product_details'];

/** A valid initiate with some fields replaced by hostile values, some removed, some added. */
const mutatedInitiate = fc
  .record({
    replaced: fc.dictionary(fc.constantFrom(...INITIATE_FIELDS), hostileValue, { maxKeys: 3 }),
    nestedReplaced: fc.option(
      fc.oneof(
        fc.record({ customer_info: fc.dictionary(fc.constantFrom('name', 'email', 'phone', 'other'), hostileValue, { maxKeys: 3 }) }),
        fc.record({ amount_breakdown: fc.array(fc.dictionary(fc.constantFrom('label', 'amount', 'x'), hostileValue, { maxKeys: 2 }), { maxLength: 4 }) }),
        fc.record({
          product_details: fc.array(fc.dictionary(fc.constantFrom('identity', 'name', 'total_price', 'quantity', 'unit_price'), hostileValue, { maxKeys: 5 }), { maxLength: 3 }),
        }),
      ),
    ),
    removed: fc.subarray(INITIATE_FIELDS.slice(0, 5), { maxLength: 2 }),
    extra: fc.dictionary(fc.oneof(fc.constantFrom('merchant_extra', 'merchant_username', 'merchant_', 'merchant_a b'), fc.string({ maxLength: 10 }).map((s) => `merchant_${s}`), fc.string({ maxLength: 10 })), hostileValue, {
      maxKeys: 3,
    }),
  })
  .map(({ replaced, nestedReplaced, removed, extra }) => {
    const body: Record<string, unknown> = { ...validInitiate(), ...extra, ...replaced, ...(nestedReplaced ?? {}) };
    for (const field of removed) delete body[field];
    return body;
  });

const anyJsonBody = fc.oneof(
  { weight: 6, arbitrary: mutatedInitiate },
  { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 4 }) },
  { weight: 1, arbitrary: fc.dictionary(fc.string({ maxLength: 12 }), hostileValue, { maxKeys: 6 }) },
);

describe('initiate', () => {
  it(
    'hostile JSON bodies: never a 5xx, the contract shapes, nothing stored when rejected',
    async () => {
      await fc.assert(
        fc.asyncProperty(anyJsonBody, async (body) => {
          const payload = JSON.stringify(body);
          await initiateChecked(payload, 'application/json', body);
        }),
        fuzzOptions(),
      );
    },
    fuzzTimeout(),
  );

  it(
    'raw bodies (duplicate keys, JSON literals it has not, truncation, deep nesting, huge arrays) with right and wrong content types',
    async () => {
      await fc.assert(
        fc.asyncProperty(rawBodies(validInitiate({ purchase_order_id: 'raw-order' })), contentTypes, async (raw, contentType) => {
          await initiateChecked(raw, contentType, undefined);
        }),
        fuzzOptions(),
      );
    },
    fuzzTimeout(FUZZ_RUNS, 400),
  );

  it(
    'form-encoded bodies, repeated keys and garbage included',
    async () => {
      const field = fc.oneof(fc.constantFrom(...INITIATE_FIELDS, 'merchant_extra', 'customer_info[name]', 'amount[]'), fc.string({ maxLength: 8 }));
      await fc.assert(
        fc.asyncProperty(
          fc.array(fc.tuple(field, fc.oneof(hostileString, fc.constantFrom('1000', 'https://shop.example.com/r'))), { maxLength: 12 }),
          fc.boolean(),
          async (pairs, startValid) => {
            const form = new URLSearchParams(startValid ? Object.entries(validInitiate()).map(([k, v]) => [k, String(v)]) : []);
            for (const [k, v] of pairs) form.append(k, v);
            await initiateChecked(form.toString(), 'application/x-www-form-urlencoded', undefined);
          },
        ),
        fuzzOptions(),
      );
    },
    fuzzTimeout(),
  );

  it('bodies over the size limit are 413 in the generic shape, and store nothing', async () => {
    const limit = t.ctx.config.bodyLimitBytes;
    for (const size of [limit + 1, limit + 1000, 3 * limit]) {
      const payload = JSON.stringify({ ...validInitiate(), merchant_extra: 'x'.repeat(size) });
      const answer = await initiateChecked(payload, 'application/json', undefined);
      expect(answer.status).toBe(413);
    }
  });
});

// ---- headers ----------------------------------------------------------------------------------

/** Header text Node can carry (no control characters but tab, nothing past Latin-1). */
const headerText = (maxLength: number) => fc.string({ unit: 'binary', maxLength }).map((s) => s.replace(/[^\t\x20-\x7e\x80-\xff]/g, ''));

const authorization = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(`Key ${KEY}`, `key ${KEY}`, `KEY ${KEY}`, `Key \t${KEY}`, `Key ${KEY} `, `kEy  ${KEY}\t`) },
  {
    weight: 3,
    arbitrary: fc.constantFrom(
      KEY, `Bearer ${KEY}`, `Key${KEY}`, `Key ${KEY}x`, `Key ${KEY.slice(0, -1)}`, `Key ${KEY.toUpperCase()}`, `Key ${KEY} ${KEY}`, `Key ${other.test_secret_key.slice(0, -1)}${other.test_secret_key.endsWith('0') ? '1' : '0'}`,
      'Key ', 'Key', '', ' ', 'Key \u00e9', `Basic ${Buffer.from(`${KEY}:`).toString('base64')}`, `Key live_secret_key_${'0'.repeat(32)}`, `Key ${'x'.repeat(5000)}`,
    ),
  },
  { weight: 3, arbitrary: headerText(80) },
  { weight: 2, arbitrary: headerText(60).map((s) => `Key ${s}`) },
);

const idempotencyKey = fc.oneof(
  { weight: 3, arbitrary: fc.constant(undefined) },
  { weight: 3, arbitrary: fc.constantFrom('order-1', 'order-2', 'order-3') },
  { weight: 2, arbitrary: fc.string({ unit: 'binary-ascii', minLength: 1, maxLength: 40 }).map((s) => s.replace(/[^\t\x20-\x7e]/g, '') || 'k') },
  { weight: 2, arbitrary: fc.constantFrom('', ' ', 'a b', '\t', 'é', 'x'.repeat(255), 'x'.repeat(256), 'x'.repeat(10_000), '"quoted"', 'key,with,commas') },
);

/** The contract's reading of Authorization: `Key <secret>`, the word in any case. */
const KEY_HEADER = /^key[ \t]+(\S+)[ \t]*$/i;
const PRINTABLE_KEY = /^[\x21-\x7e]{1,255}$/;

describe('headers', () => {
  it(
    'Authorization and Idempotency-Key oddities: 401s and 400s in the contract shapes, a replay stores nothing twice',
    async () => {
      const used = new Map<string, string>();
      let last: { payload: string; idempotency?: string } | undefined;
      await fc.assert(
        fc.asyncProperty(authorization, idempotencyKey, fc.boolean(), async (auth, idempotency, resend) => {
          const request = resend && last ? last : { payload: JSON.stringify(validInitiate()), idempotency };
          last = request;
          const before = await stored();
          const answer = await send({ url: INITIATE, headers: { authorization: auth, 'content-type': 'application/json', 'idempotency-key': request.idempotency }, payload: request.payload });
          const after = await stored();
          const match = KEY_HEADER.exec(auth);
          if (!match) {
            expect({ status: answer.status, body: jsonOf(answer) }).toStrictEqual({ status: 401, body: { detail: 'Authentication credentials were not provided.', status_code: 401 } });
          } else if (match[1] !== KEY) {
            expect({ status: answer.status, body: jsonOf(answer) }).toStrictEqual({ status: 401, body: { detail: 'Invalid token.', status_code: 401 } });
          } else if (request.idempotency !== undefined && !PRINTABLE_KEY.test(request.idempotency)) {
            expect(answer.status).toBe(400);
            expect(expectApiError(answer)).toStrictEqual({ detail: expect.any(String), error_key: 'validation_error' });
          } else if (request.idempotency !== undefined && used.has(request.idempotency) && used.get(request.idempotency) !== request.payload) {
            expect(answer.status).toBe(409);
            expectApiError(answer);
          } else {
            expectInitiated(answer, JSON.parse(request.payload), PUBLIC_URL);
            const replayed = request.idempotency !== undefined && used.has(request.idempotency);
            expect(answer.headers['idempotent-replayed']).toBe(replayed ? 'true' : undefined);
            expect(after).toBe(before + (replayed ? 0 : 1));
            if (request.idempotency !== undefined) used.set(request.idempotency, request.payload);
            return;
          }
          expect(after).toBe(before);
        }),
        fuzzOptions(),
      );
    },
    fuzzTimeout(),
  );
});

// ---- the transaction list ---------------------------------------------------------------------

// A few records to list.
const paid: { pidx: string; transactionId: string }[] = [];
for (let i = 0; i < 3; i++) {
  const { body } = jsonAnswer(await send({ url: INITIATE, headers: { 'content-type': 'application/json' }, payload: JSON.stringify(validInitiate({ amount: 10_000_000 + i })) }));
  const done = await payerBrowser(t.app).pay(body.pidx as string, i === 2 ? '9800000007' : '9800000001');
  paid.push({ pidx: body.pidx as string, transactionId: callbackParams(done.location!).transaction_id });
}

function jsonAnswer(answer: Answer) {
  return { status: answer.status, body: jsonOf(answer) as Record<string, unknown> };
}

const QUERY_KEYS = ['page', 'page_size', 'status', 'from', 'to', 'purchase_order_id'];
const rawQueryText = fc.constantFrom('%', '%zz', '%00', '%ff', '%c3%28', '%e2%82', '+', '%2B', '=', '==', '[]', '[0]', '%5B%5D', '\u00e9', 'a%26b', '%20', '');
const queryValue = fc.oneof(
  { weight: 2, arbitrary: fc.oneof(hostileString, numericStrings, fc.constantFrom('Completed', 'Confirmed', 'Canceled', 'completed', '2026-01-01', '2026-02-30', '2026-01-01T00:00:00Z', '2026-13-01', '0001-01-01', '9999-12-31T23:59:59.999999+14:00')).map(uriEncode) },
  { weight: 1, arbitrary: rawQueryText },
  { weight: 1, arbitrary: fc.constantFrom('1', '2', '0', '-1', '100', '101', '1e2', '99999999999999999999', 'abc') },
);
const queryString = fc
  .array(fc.tuple(fc.oneof({ weight: 4, arbitrary: fc.constantFrom(...QUERY_KEYS) }, { weight: 1, arbitrary: fc.oneof(fc.string({ maxLength: 6 }).map(uriEncode), rawQueryText) }), queryValue, fc.boolean()), { maxLength: 8 })
  .map((pairs) => pairs.map(([k, v, bare]) => (bare && v === '' ? k : `${k}=${v}`)).join('&'));

describe('the transaction list', () => {
  it(
    'hostile query strings: a page, a validation error or "Invalid page.", never another merchant’s records',
    async () => {
      const ours = new Set(paid.map((p) => p.transactionId));
      await fc.assert(
        fc.asyncProperty(queryString, fc.constantFrom('', '/'), async (query, slash) => {
          const answer = await send({ method: 'GET', url: `${LIST.slice(0, -1)}${slash}?${query}` });
          if (answer.status === 200) {
            expectTransactionPage(answer);
            const body = jsonOf(answer) as { records: { idx: string; pidx: string }[] };
            for (const record of body.records) expect(ours.has(record.idx) || paid.some((p) => p.pidx === record.pidx), record.idx).toBe(true);
          } else {
            expect([400, 404]).toContain(answer.status);
            expectApiError(answer);
          }
        }),
        fuzzOptions(),
      );
    },
    fuzzTimeout(),
  );
});

// ---- lookup and refund ------------------------------------------------------------------------

describe('lookup', () => {
  it(
    'hostile bodies: the lookup shape, a validation error or "Not found.", never another merchant’s payment',
    async () => {
      const foreign = jsonAnswer(
        await send({ url: INITIATE, headers: { authorization: `Key ${other.test_secret_key}`, 'content-type': 'application/json' }, payload: JSON.stringify(validInitiate()) }),
      ).body.pidx as string;
      const pidx = fc.oneof(
        { weight: 2, arbitrary: fc.constantFrom(...paid.map((p) => p.pidx)) },
        { weight: 1, arbitrary: fc.constant(foreign) },
        { weight: 3, arbitrary: hostileValue },
      );
      const body = fc.oneof(
        { weight: 4, arbitrary: pidx.map((value) => JSON.stringify({ pidx: value })) },
        { weight: 1, arbitrary: fc.tuple(pidx, hostileValue).map(([a, b]) => `{"pidx": ${JSON.stringify(a)}, "pidx": ${JSON.stringify(b)}}`) },
        { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 3 }).map((v) => JSON.stringify(v)) },
        { weight: 1, arbitrary: rawBodies({ pidx: paid[0].pidx }) },
      );
      await fc.assert(
        fc.asyncProperty(body, contentTypes, async (payload, contentType) => {
          const answer = await send({ url: LOOKUP, headers: { 'content-type': contentType }, payload });
          const parsed = jsonOf(answer) as Record<string, unknown>;
          if (answer.status === 200 || (answer.status === 400 && 'status' in parsed && 'total_amount' in parsed)) {
            expectLookup(answer);
            expect(paid.map((p) => p.pidx)).toContain(parsed.pidx);
          } else expectApiError(answer);
        }),
        fuzzOptions(),
      );
    },
    fuzzTimeout(),
  );
});

describe('refund', () => {
  it(
    'hostile transaction ids and bodies: refunds only what a valid request asks, errors in the contract shapes',
    async () => {
      const AMOUNT = 10_000_000;
      const lookup = async (pidx: string) => jsonAnswer(await send({ url: LOOKUP, headers: { 'content-type': 'application/json' }, payload: JSON.stringify({ pidx }) })).body;
      /** A paid payment to refund; a new one once it is wholly refunded. */
      const newTarget = async () => {
        const { body } = jsonAnswer(await send({ url: INITIATE, headers: { 'content-type': 'application/json' }, payload: JSON.stringify(validInitiate({ amount: AMOUNT })) }));
        const done = await payerBrowser(t.app).pay(body.pidx as string);
        return { pidx: body.pidx as string, transactionId: callbackParams(done.location!).transaction_id };
      };
      let target = paid[0];
      const held = paid[2];
      const id = fc.oneof(
        { weight: 3, arbitrary: fc.constant('TARGET') },
        { weight: 1, arbitrary: fc.constant(held.transactionId) },
        { weight: 3, arbitrary: hostileString.map(uriEncode) },
        { weight: 1, arbitrary: fc.constantFrom('%00', '%', '%zz', '..', '.', '%2F', 'x'.repeat(3000), '%ff%fe', 'TARGET%00') },
      );
      const amount = fc.oneof({ weight: 2, arbitrary: fc.integer({ min: -5, max: 50 }) }, { weight: 3, arbitrary: hostileValue });
      const body = fc.oneof(
        { weight: 1, arbitrary: fc.constant(undefined) },
        { weight: 8, arbitrary: amount.map((a) => JSON.stringify({ amount: a })) },
        { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 2 }).map((v) => JSON.stringify(v)) },
        { weight: 1, arbitrary: fc.constantFrom('{"amount": 1, "amount": "x"}', '{"amount": "x", "amount": 2}', '{"amount": 1e999}', '{"amount": -0}', '{"amount":', '', 'null', '[]') },
      );
      let refunded = (await lookup(target.pidx)).refunded_amount as number;
      await fc.assert(
        fc.asyncProperty(id, body, async (rawId, payload) => {
          const transactionId = rawId.replace('TARGET', target.transactionId);
          const answer = await send({ url: `/api/merchant-transaction/${transactionId}/refund/`, headers: { 'content-type': payload === undefined ? undefined : 'application/json' }, payload });
          const after = await lookup(target.pidx);
          const now = after.refunded_amount as number;
          if (answer.status === 200) {
            expect(jsonOf(answer)).toStrictEqual({ detail: 'Transaction refund successful.' });
            expect(transactionId).toBe(target.transactionId);
            const asked = payload === undefined || payload === '' ? undefined : (JSON.parse(payload) as { amount?: unknown } | null)?.amount;
            expect(now - refunded).toBe(asked === undefined ? AMOUNT - refunded : Number(asked));
          } else {
            expectApiError(answer);
            expect(now).toBe(refunded);
          }
          refunded = now;
          if (after.status === 'Refunded') {
            target = await newTarget();
            refunded = 0;
          }
        }),
        fuzzOptions(),
      );
      expect((await lookup(held.pidx)).status).toBe('Pending');
    },
    fuzzTimeout(),
  );
});

describe('routes that do not exist', () => {
  it(
    'any method and path under /api: the generic shape, never a 5xx',
    async () => {
      const segment = fc.oneof(fc.constantFrom('v2', 'epayment', 'initiate', 'lookup', 'merchant-transaction', 'refund', 'v1', 'v3', '..', '%00', '%zz', ''), hostileString.map(uriEncode));
      await fc.assert(
        fc.asyncProperty(fc.constantFrom('GET', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS', 'HEAD'), fc.array(segment, { maxLength: 5 }), fc.boolean(), async (method, segments, withKey) => {
          const url = `/api/${segments.join('/')}${segments.length ? '/' : ''}`;
          // `..` may climb out of /api: that is another part of the site.
          fc.pre(/^\/api(\/|$)/.test(new URL(url, 'http://x.invalid').pathname));
          const answer = await send({
            method: method as Request['method'],
            url,
            headers: { authorization: withKey ? `Key ${KEY}` : undefined, 'content-type': method === 'GET' || method === 'HEAD' ? undefined : 'application/json' },
            payload: method === 'GET' || method === 'HEAD' ? undefined : '{}',
          });
          if (method === 'HEAD') return;
          if (answer.status === 200) return; // a real route reached (list, or an initiate/lookup of `{}` would be 400)
          expectApiError(answer);
        }),
        fuzzOptions(),
      );
    },
    fuzzTimeout(),
  );
});
