import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { validInitiate } from '../../test/api-client.js';
import { newMerchant, startTestApp, type TestApp } from '../../test/test-app.js';

let t: TestApp;
let key: string;

beforeAll(async () => {
  t = await startTestApp();
  key = (await newMerchant(t.ctx)).test_secret_key;
});
afterAll(() => t.close());

const initiate = (body: object, idempotencyKey?: string, secret = key) =>
  t.app.inject({
    method: 'POST',
    url: '/api/v2/epayment/initiate/',
    headers: { authorization: `Key ${secret}`, ...(idempotencyKey ? { 'idempotency-key': idempotencyKey } : {}) },
    payload: body,
  });

const paymentsOfOrder = async (orderId: string) =>
  (await t.db.query<{ n: number }>('SELECT count(*)::int AS n FROM payments WHERE purchase_order_id = $1', [orderId]))[0].n;

describe('Idempotency-Key on initiate', () => {
  it('replays the first response for the same key and body, byte for byte', async () => {
    const body = validInitiate();
    const first = await initiate(body, 'key-1');
    const again = await initiate({ ...body }, 'key-1');
    expect(first.statusCode).toBe(200);
    expect(again.statusCode).toBe(200);
    expect(again.body).toBe(first.body);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(await paymentsOfOrder(body.purchase_order_id)).toBe(1);
  });

  it('rejects the same key with a different body (409 with a detail)', async () => {
    const body = validInitiate();
    await initiate(body, 'key-2');
    const other = await initiate({ ...body, amount: 2000 }, 'key-2');
    expect(other.statusCode).toBe(409);
    expect(other.json()).toEqual({ detail: 'This Idempotency-Key was already used with a different request.', status_code: 409 });
  });

  it('answers a bad body the same way each time, and keys are per merchant', async () => {
    const bad = await initiate({ amount: 5 }, 'key-3');
    expect(bad.statusCode).toBe(400);
    expect((await initiate({ amount: 5 }, 'key-3')).body).toBe(bad.body);
    const otherMerchant = (await newMerchant(t.ctx)).test_secret_key;
    const body = validInitiate();
    expect((await initiate(body, 'key-3', otherMerchant)).statusCode).toBe(200);
  });

  it('two concurrent requests with one key create one payment', async () => {
    const body = validInitiate();
    const responses = await Promise.all(Array.from({ length: 5 }, () => initiate(body, 'key-race')));
    expect(responses.map((r) => r.statusCode)).toEqual([200, 200, 200, 200, 200]);
    expect(new Set(responses.map((r) => r.json().pidx)).size).toBe(1);
    expect(await paymentsOfOrder(body.purchase_order_id)).toBe(1);
  });

  it('forgets a key after 24 hours', async () => {
    const body = validInitiate();
    const first = await initiate(body, 'key-old');
    t.clock.advance(24 * 3600 + 1);
    const later = await initiate(body, 'key-old');
    expect(later.json().pidx).not.toBe(first.json().pidx);
  });

  it('without the header, every request acts', async () => {
    const body = validInitiate();
    await initiate(body);
    await initiate(body);
    expect(await paymentsOfOrder(body.purchase_order_id)).toBe(2);
  });

  it('rejects a malformed key', async () => {
    const response = await initiate(validInitiate(), 'x'.repeat(300));
    expect(response.statusCode).toBe(400);
    expect(response.json().detail).toContain('Idempotency-Key');
  });
});
