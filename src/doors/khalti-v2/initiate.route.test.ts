import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { merchantApi, validInitiate } from '../../../test/api-client.js';
import { newMerchant, startTestApp, type TestApp } from '../../../test/test-app.js';

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
    expect(body.payment_url).toBe(`http://bhuktani.test/pay/?pidx=${body.pidx}`);
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

describe('empty lists', () => {
  const stored = async (pidx: string) =>
    (await t.db.query<{ amount_breakdown: unknown; product_details: unknown }>('SELECT amount_breakdown, product_details FROM payments WHERE pidx = $1', [pidx]))[0];

  it('"amount_breakdown": [] is the same as none: no sum to check, stored as no breakdown', async () => {
    const { status, body } = await api.initiate(validInitiate({ amount: 1000, amount_breakdown: [] }));
    expect(status, JSON.stringify(body)).toBe(200);
    expect(await stored(body.pidx)).toStrictEqual({ amount_breakdown: null, product_details: null });
    expect((await api.lookup(body.pidx)).body.total_amount).toBe(1000);
  });

  it('an empty product_details is accepted and stored as none, beside a breakdown that is still checked', async () => {
    const accepted = await api.initiate(validInitiate({ amount: 1000, amount_breakdown: [{ label: 'Tea', amount: 1000 }], product_details: [] }));
    expect(accepted.status, JSON.stringify(accepted.body)).toBe(200);
    expect(await stored(accepted.body.pidx)).toStrictEqual({ amount_breakdown: [{ label: 'Tea', amount: 1000 }], product_details: null });
    const mismatch = await api.initiate(validInitiate({ amount: 1000, amount_breakdown: [{ label: 'Tea', amount: 999 }], product_details: [] }));
    expect(mismatch).toStrictEqual({ status: 400, body: { amount: ['Amount Breakdown mismatch.'], error_key: 'validation_error' } });
  });

  it('the hosted page shows no empty breakdown', async () => {
    const { body } = await api.initiate(validInitiate({ amount_breakdown: [], product_details: [] }));
    const page = await t.app.inject({ method: 'GET', url: `/pay/${body.pidx}` });
    expect(page.statusCode).toBe(200);
    expect(page.body).not.toContain('<caption>Breakdown</caption>');
  });
});
