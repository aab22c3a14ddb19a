import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { merchantApi, validInitiate } from '../../test/api-client.js';
import { newMerchant, startTestApp, type TestApp } from '../../test/test-app.js';

let t: TestApp;
let api: ReturnType<typeof merchantApi>;

beforeAll(async () => {
  t = await startTestApp();
  api = merchantApi(t.app, (await newMerchant(t.ctx)).test_secret_key);
});
afterAll(() => t.close());

describe('POST /api/v2/epayment/initiate/', () => {
  it('answers pidx, payment_url, expiry and echoes merchant_ fields', async () => {
    const { status, body } = await api.initiate(validInitiate({ merchant_username: 'shop', merchant_extra: { cart: [1, 2] } }));
    expect(status).toBe(200);
    expect(body.pidx).toMatch(/^[A-Za-z0-9_-]{22,}$/);
    expect(body.payment_url).toBe(`http://bhuktani.test/pay/${body.pidx}`);
    expect(body.expires_in).toBe(3600);
    expect(body.expires_at).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}\+05:45$/);
    expect(new Date(body.expires_at).getTime()).toBe(t.clock.now().getTime() + 3600_000);
    expect(body.merchant_username).toBe('shop');
    expect(body.merchant_extra).toEqual({ cart: [1, 2] });
    expect(Object.keys(body)).toEqual(['pidx', 'payment_url', 'expires_at', 'expires_in', 'merchant_username', 'merchant_extra']);
  });

  it('stores the payment before answering, so lookup finds it at once', async () => {
    const { body } = await api.initiate();
    const lookup = await api.lookup(body.pidx);
    expect(lookup.status).toBe(200);
    expect(lookup.body).toMatchObject({ pidx: body.pidx, total_amount: 1000, status: 'Initiated', transaction_id: null, fee: 30, refunded: false });
  });
});
