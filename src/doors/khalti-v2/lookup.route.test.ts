import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LOOKUP_PATH, merchantApi, validInitiate } from '../../../test/api-client.js';
import { payerBrowser } from '../../../test/portal-client.js';
import { newMerchant, startTestApp, type TestApp } from '../../../test/test-app.js';

/** /metrics is served only with a token (or on its own port): this file reads it with one. */
const METRICS_TOKEN = 'lookup-test-metrics-token';

let t: TestApp;
let merchant: Awaited<ReturnType<typeof newMerchant>>;
let api: ReturnType<typeof merchantApi>;

beforeAll(async () => {
  t = await startTestApp({ config: { metricsToken: METRICS_TOKEN } });
  merchant = await newMerchant(t.ctx, { fee_bps: 250 });
  api = merchantApi(t.app, merchant.test_secret_key);
});
afterAll(() => t.close());

const NOT_FOUND = { detail: 'Not found.', error_key: 'validation_error' };

describe('POST /api/v2/epayment/lookup/', () => {
  it('an Initiated payment → 200 with the lookup shape', async () => {
    const order = validInitiate({ amount: 1234 });
    const initiated = await api.initiate(order);
    const { status, body } = await api.lookup(initiated.body.pidx);
    expect(status).toBe(200);
    expect(body).toStrictEqual({
      pidx: initiated.body.pidx,
      total_amount: 1234,
      status: 'Initiated',
      transaction_id: null,
      fee: 31, // 1234 × 2.5% = 30.85, rounded half up
      refunded: false,
      purchase_order_id: order.purchase_order_id,
      expires_at: initiated.body.expires_at,
      refunded_amount: 0,
    });
  });

  it('still Initiated one second before expiry', async () => {
    const { body } = await api.initiate();
    t.clock.advance(3599);
    const lookup = await api.lookup(body.pidx);
    expect(lookup.status).toBe(200);
    expect(lookup.body.status).toBe('Initiated');
  });

  it('Expired → 400 with the lookup shape as soon as the time has passed, before any sweep', async () => {
    const order = validInitiate();
    const initiated = await api.initiate(order);
    t.clock.advance(3601);
    const { status, body } = await api.lookup(initiated.body.pidx);
    expect(status).toBe(400);
    expect(body).toStrictEqual({
      pidx: initiated.body.pidx,
      total_amount: 1000,
      status: 'Expired',
      transaction_id: null,
      fee: 25,
      refunded: false,
      purchase_order_id: order.purchase_order_id,
      expires_at: initiated.body.expires_at,
      refunded_amount: 0,
    });
    // Reads report the expiry; the stored row may still say Initiated until the sweep runs.
    expect((await api.lookup(initiated.body.pidx)).body.status).toBe('Expired');
  });

  it('the same pidx looked up twice gives the same answer', async () => {
    const { body } = await api.initiate();
    const first = await api.lookup(body.pidx);
    const second = await api.lookup(body.pidx);
    expect(second).toStrictEqual(first);
  });

  it('accepts a form-encoded body', async () => {
    const { body } = await api.initiate();
    const lookup = await api.send({ url: LOOKUP_PATH, payload: `pidx=${encodeURIComponent(body.pidx)}`, contentType: 'application/x-www-form-urlencoded' });
    expect(lookup.status).toBe(200);
    expect(lookup.body.pidx).toBe(body.pidx);
  });
});

describe('lookup: not found', () => {
  it('an unknown pidx → 404 {"detail":"Not found.","error_key":"validation_error"}', async () => {
    expect(await api.lookup('no-such-pidx-0000000000')).toStrictEqual({ status: 404, body: NOT_FOUND });
  });

  it("another merchant's pidx → 404, the same answer as an unknown one", async () => {
    const other = merchantApi(t.app, (await newMerchant(t.ctx)).test_secret_key);
    const { body } = await other.initiate();
    expect((await other.lookup(body.pidx)).status).toBe(200);
    expect(await api.lookup(body.pidx)).toStrictEqual({ status: 404, body: NOT_FOUND });
  });

  it("the other environment's pidx → 404: a test key cannot see a live payment, nor a live key a test one", async () => {
    const live = merchantApi(t.app, merchant.live_secret_key);
    const livePayment = (await live.initiate()).body.pidx;
    const testPayment = (await api.initiate()).body.pidx;
    expect((await live.lookup(livePayment)).status).toBe(200);
    expect(await api.lookup(livePayment)).toStrictEqual({ status: 404, body: NOT_FOUND });
    expect(await live.lookup(testPayment)).toStrictEqual({ status: 404, body: NOT_FOUND });
  });
});

describe('lookup: validation', () => {
  it('a missing pidx → 400 field error', async () => {
    expect(await api.send({ url: LOOKUP_PATH, payload: {} })).toStrictEqual({
      status: 400,
      body: { pidx: ['This field is required.'], error_key: 'validation_error' },
    });
  });

  it('no body at all → the same field error', async () => {
    expect(await api.send({ url: LOOKUP_PATH })).toStrictEqual({
      status: 400,
      body: { pidx: ['This field is required.'], error_key: 'validation_error' },
    });
  });

  it('a blank pidx → 400 "This field may not be blank."', async () => {
    expect(await api.send({ url: LOOKUP_PATH, payload: { pidx: '  ' } })).toStrictEqual({
      status: 400,
      body: { pidx: ['This field may not be blank.'], error_key: 'validation_error' },
    });
  });

  it('malformed JSON → 400 JSON parse error', async () => {
    const { status, body } = await api.send({ url: LOOKUP_PATH, payload: '{"pidx":', contentType: 'application/json' });
    expect(status).toBe(400);
    expect(body).toStrictEqual({ detail: expect.stringMatching(/^JSON parse error - \S/), error_key: 'validation_error' });
  });
});

describe('GET /api/v2/epayment/lookup/?pidx=…', () => {
  const raw = async (key: string, method: 'GET' | 'POST', pidx: string, url = LOOKUP_PATH) => {
    const response = await t.app.inject(
      method === 'GET'
        ? { method, url: `${url}?pidx=${encodeURIComponent(pidx)}`, headers: { authorization: `Key ${key}` } }
        : { method, url, headers: { authorization: `Key ${key}` }, payload: { pidx } },
    );
    return { status: response.statusCode, type: response.headers['content-type'], body: response.body };
  };

  /** GET, with and without the trailing slash, answers byte for byte what POST does. */
  const expectSameAsPost = async (pidx: string, key = merchant.test_secret_key) => {
    const post = await raw(key, 'POST', pidx);
    expect(await raw(key, 'GET', pidx)).toStrictEqual(post);
    expect(await raw(key, 'GET', pidx, LOOKUP_PATH.slice(0, -1))).toStrictEqual(post);
    return post;
  };

  it('Initiated, Completed and Expired: the POST bodies and statuses', async () => {
    const initiated = (await api.initiate()).body.pidx;
    expect((await expectSameAsPost(initiated)).status).toBe(200);
    const completed = (await api.initiate()).body.pidx;
    await payerBrowser(t.app).pay(completed);
    const paid = await expectSameAsPost(completed);
    expect(JSON.parse(paid.body)).toMatchObject({ status: 'Completed', transaction_id: expect.any(String) });
    const expiring = (await api.initiate()).body.pidx;
    t.clock.advance(3601);
    const expired = await expectSameAsPost(expiring);
    expect([expired.status, JSON.parse(expired.body).status]).toStrictEqual([400, 'Expired']);
  });

  it("unknown, another merchant's and the other environment's pidx: the same 404", async () => {
    expect((await expectSameAsPost('no-such-pidx-0000000000')).body).toBe(JSON.stringify(NOT_FOUND));
    const other = merchantApi(t.app, (await newMerchant(t.ctx)).test_secret_key);
    expect((await expectSameAsPost((await other.initiate()).body.pidx)).status).toBe(404);
    const live = (await merchantApi(t.app, merchant.live_secret_key).initiate()).body.pidx;
    expect((await expectSameAsPost(live)).status).toBe(404);
  });

  it('a missing, blank or repeated pidx → the field errors of the POST', async () => {
    const get = async (query: string) => {
      const response = await t.app.inject({ method: 'GET', url: `${LOOKUP_PATH}${query}`, headers: { authorization: `Key ${merchant.test_secret_key}` } });
      return { status: response.statusCode, body: response.json() };
    };
    expect(await get('')).toStrictEqual({ status: 400, body: { pidx: ['This field is required.'], error_key: 'validation_error' } });
    expect(await get('?pidx=')).toStrictEqual({ status: 400, body: { pidx: ['This field may not be blank.'], error_key: 'validation_error' } });
    expect(await get('?pidx=%20%20')).toStrictEqual({ status: 400, body: { pidx: ['This field may not be blank.'], error_key: 'validation_error' } });
    expect(await get('?pidx=a&pidx=b')).toStrictEqual({ status: 400, body: { pidx: ['Not a valid string.'], error_key: 'validation_error' } });
  });

  it('counts in the metrics under the lookup route, with its method', async () => {
    await raw(merchant.test_secret_key, 'GET', 'no-such-pidx-0000000001');
    const metrics = (await t.app.inject({ method: 'GET', url: '/metrics', headers: { authorization: `Bearer ${METRICS_TOKEN}` } })).body;
    expect(metrics).toMatch(/bhuktani_http_requests_total\{route="\/api\/v2\/epayment\/lookup\/",method="GET",status="404"\} \d+/);
  });
});

describe('GET lookup: the rate limit of the key', () => {
  it('shares the key’s budget with every other call', async () => {
    const limited = await startTestApp({ config: { rateLimitTest: 3 } });
    try {
      const key = (await newMerchant(limited.ctx)).test_secret_key;
      const get = () => limited.app.inject({ method: 'GET', url: `${LOOKUP_PATH}?pidx=x`, headers: { authorization: `Key ${key}` } });
      const post = () => limited.app.inject({ method: 'POST', url: LOOKUP_PATH, headers: { authorization: `Key ${key}` }, payload: { pidx: 'x' } });
      // A burst spans at most two one-second windows: 3 to 6 pass, the rest are refused, GETs among them.
      const burst = await Promise.all([post(), ...Array.from({ length: 11 }, get)]);
      const passed = burst.filter((r) => r.statusCode === 404).length;
      expect(passed).toBeGreaterThanOrEqual(3);
      expect(passed).toBeLessThanOrEqual(6);
      expect(burst.filter((r) => r.statusCode === 429)).toHaveLength(12 - passed);
      const over = burst.slice(1).find((r) => r.statusCode === 429)!;
      expect(over.headers['retry-after']).toMatch(/^\d+$/);
      expect(over.json()).toStrictEqual({ detail: 'Request was throttled.', status_code: 429 });
    } finally {
      await limited.close();
    }
  });
});
