// The typed client against a real listening server, as a merchant's server uses it: initiate, the
// payer pays on the portal, the callback is verified, lookup, the transaction list, a refund, and
// every failure as a typed error.
import { readdirSync, readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signingSecret } from '../merchants/signing-secret.js';
import { callbackParams, payerBrowser } from '../../test/portal-client.js';
import { newMerchant, startTestApp, type TestApp } from '../../test/test-app.js';
import {
  AuthenticationError,
  BhuktaniClient,
  BhuktaniError,
  ConflictError,
  ConnectionError,
  NotFoundError,
  RateLimitError,
  ServiceUnavailableError,
  ValidationError,
  type InitiateRequest,
  type TransactionRecord,
} from './index.js';

let t: TestApp;
let baseUrl: string;

beforeAll(async () => {
  t = await startTestApp();
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  baseUrl = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await t?.close();
});

async function merchantClient(options: { fetch?: typeof fetch } = {}) {
  const created = await newMerchant(t.ctx);
  return { created, client: new BhuktaniClient({ baseUrl, secretKey: created.test_secret_key, ...options }) };
}

let orders = 0;
function order(overrides: Partial<InitiateRequest> = {}): InitiateRequest {
  orders += 1;
  return {
    return_url: 'https://shop.example.com/return?cart=7',
    website_url: 'https://shop.example.com',
    amount: 1000,
    purchase_order_id: `client-order-${Date.now()}-${orders}`,
    purchase_order_name: 'Green tea',
    ...overrides,
  };
}

/** The payer pays `pidx` with the sandbox wallet; returns the redirect to return_url. */
async function pay(pidx: string): Promise<string> {
  const finished = await payerBrowser(t.app).pay(pidx);
  expect(finished.status).toBe(303);
  return finished.location!;
}

describe('the client, end to end', () => {
  it('initiates, verifies the signed callback, looks up, and refunds in part', async () => {
    const { created, client } = await merchantClient();
    const initiated = await client.initiate(
      order({
        amount: 123456,
        customer_info: { name: 'Sita', email: 'sita@example.com', phone: '9800000001' },
        amount_breakdown: [
          { label: 'Tea', amount: 100000 },
          { label: 'Delivery', amount: 23456 },
        ],
        product_details: [{ identity: 'tea-1', name: 'Ilam first flush', total_price: 100000, quantity: 2, unit_price: 50000 }],
        merchant_username: 'tea-house',
        merchant_extra: 'kept',
      }),
    );
    expect(initiated).toMatchObject({ payment_url: `http://bhuktani.test/pay/?pidx=${initiated.pidx}`, expires_in: 3600, merchant_username: 'tea-house', merchant_extra: 'kept' });
    expect(initiated.expires_at).toMatch(/\+05:45$/);
    expect(await client.lookup(initiated.pidx)).toMatchObject({ pidx: initiated.pidx, status: 'Initiated', transaction_id: null, total_amount: 123456 });

    const returned = new URL(await pay(initiated.pidx));
    const secret = await signingSecret(t.db, created.merchant.id, 'test');
    expect(client.verifyCallback(returned, secret)).toBe(true);
    expect(client.verifyCallback(returned.searchParams, secret)).toBe(true);
    expect(client.verifyCallback(callbackParams(returned.toString()), secret)).toBe(true);
    const forged = new URL(returned);
    forged.searchParams.set('amount', '10');
    expect(client.verifyCallback(forged, secret)).toBe(false);
    expect(client.verifyCallback(returned, `${secret}x`)).toBe(false);

    const paid = await client.lookup(initiated.pidx);
    expect(paid).toMatchObject({ status: 'Completed', transaction_id: returned.searchParams.get('transaction_id'), refunded: false, fee: 3704 });

    expect(await client.refund(paid.transaction_id!, { amount: 23456 })).toEqual({ detail: 'Transaction refund successful.' });
    expect(await client.lookup(initiated.pidx)).toMatchObject({ status: 'Partially refunded', refunded: true, refunded_amount: 23456 });
    await expect(client.refund(paid.transaction_id!, { amount: 100001 })).rejects.toBeInstanceOf(ValidationError);
    // The whole refund gives back the fee too, which the merchant's balance must hold.
    await pay((await client.initiate(order({ amount: 10_000 }))).pidx);
    expect(await client.refund(paid.transaction_id!)).toEqual({ detail: 'Transaction refund successful.' });
    expect(await client.lookup(initiated.pidx)).toMatchObject({ status: 'Refunded', refunded_amount: 123456 });
  });

  it('walks every page of the transaction list, following next', async () => {
    const requested: string[] = [];
    const { client } = await merchantClient({
      fetch: (input, init) => {
        requested.push(String(input));
        return fetch(input, init);
      },
    });
    const pidxs: string[] = [];
    for (let i = 0; i < 5; i++) {
      const { pidx } = await client.initiate(order({ amount: 1000 + i }));
      await pay(pidx);
      pidxs.push(pidx);
    }
    const refunded = await client.lookup(pidxs[0]);
    await client.refund(refunded.transaction_id!, { amount: 100 });

    requested.length = 0;
    const records: TransactionRecord[] = [];
    for await (const record of client.transactions({ page_size: 2 })) records.push(record);
    expect(records.map((r) => `${r.type.name} ${r.amount}`)).toEqual([
      'Refund 100',
      'Wallet payment 1004',
      'Wallet payment 1003',
      'Wallet payment 1002',
      'Wallet payment 1001',
      'Wallet payment 1000',
    ]);
    expect(new Set(records.map((r) => r.idx)).size).toBe(6);
    expect(requested.map((url) => url.replace(baseUrl, ''))).toEqual([
      '/api/v2/merchant-transaction/?page_size=2',
      '/api/v2/merchant-transaction/?page=2&page_size=2',
      '/api/v2/merchant-transaction/?page=3&page_size=2',
    ]);

    const refunds: TransactionRecord[] = [];
    for await (const record of client.transactions({ purchase_order_id: refunded.purchase_order_id, page_size: 1 })) refunds.push(record);
    expect(refunds.map((r) => r.type.name)).toEqual(['Refund', 'Wallet payment']);

    const page = await client.transactionPage({ page: 2, page_size: 4 });
    expect(page).toMatchObject({ current_page: 2, total_pages: 2, total_records: 6, record_range: [5, 6], next: null });
  });

  it('answers an expired or canceled payment with its lookup body, not an error', async () => {
    const { client } = await merchantClient();
    const canceled = await client.initiate(order());
    const browser = payerBrowser(t.app);
    await browser.open(canceled.pidx);
    expect((await browser.cancel(canceled.pidx)).status).toBe(303);
    expect(await client.lookup(canceled.pidx)).toMatchObject({ pidx: canceled.pidx, status: 'User canceled', transaction_id: null, refunded: false });

    const expiring = await client.initiate(order({ amount: 5000 }));
    t.clock.advance(3601);
    expect(await client.lookup(expiring.pidx)).toMatchObject({ pidx: expiring.pidx, status: 'Expired', transaction_id: null, total_amount: 5000, fee: 150 });
  });

  it('replays an initiate sent again with the same Idempotency-Key', async () => {
    const { client } = await merchantClient();
    const body = order();
    const first = await client.initiate(body, { idempotencyKey: body.purchase_order_id });
    const again = await client.initiate(body, { idempotencyKey: body.purchase_order_id });
    expect(again).toEqual(first);
    const other = await client.initiate(body);
    expect(other.pidx).not.toBe(first.pidx);

    const error = await client.initiate({ ...body, amount: 2000 }, { idempotencyKey: body.purchase_order_id }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConflictError);
    expect(error).toMatchObject({ status: 409, body: { detail: 'This Idempotency-Key was already used with a different request.', status_code: 409 } });
  });
});

describe('errors', () => {
  it('throw AuthenticationError for a wrong key, with the contract body', async () => {
    const client = new BhuktaniClient({ baseUrl, secretKey: `test_secret_key_${'0'.repeat(32)}` });
    const error = await client.lookup('anything').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AuthenticationError);
    expect(error).toBeInstanceOf(BhuktaniError);
    expect(error).toMatchObject({ status: 401, body: { detail: 'Invalid token.', status_code: 401 }, detail: 'Invalid token.' });
    expect((error as BhuktaniError).requestId).toMatch(/./);
  });

  it('throw ValidationError with every failing field', async () => {
    const { client } = await merchantClient();
    const error = await client
      .initiate(order({ return_url: 'not a url', amount: 5, purchase_order_name: '', customer_info: { email: 'nope' } }))
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ValidationError);
    const validation = error as ValidationError;
    expect(validation.status).toBe(400);
    expect(validation.body.error_key).toBe('validation_error');
    expect(validation.fields).toEqual({
      return_url: ['Enter a valid URL.'],
      amount: ['Amount should be at least 10 paisa.'],
      purchase_order_name: ['This field may not be blank.'],
      customer_info: { email: ['Enter a valid email address.'] },
    });
  });

  it('throw NotFoundError for an unknown pidx or transaction', async () => {
    const { client } = await merchantClient();
    const error = await client.lookup('no-such-pidx').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NotFoundError);
    expect(error).toMatchObject({ status: 404, body: { detail: 'Not found.', error_key: 'validation_error' } });
    await expect(client.refund('no-such-transaction')).rejects.toBeInstanceOf(NotFoundError);
  });

  it('throw ConnectionError when nothing answers', async () => {
    const client = new BhuktaniClient({ baseUrl: 'http://127.0.0.1:1', secretKey: 'test_secret_key_x' });
    const error = await client.lookup('x').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConnectionError);
    expect(error).toMatchObject({ status: 0 });
  });

  it('throw RateLimitError and ServiceUnavailableError with the advised wait', async () => {
    const answering = (status: number, body: unknown, headers: Record<string, string> = {}) =>
      new BhuktaniClient({
        baseUrl,
        secretKey: 'test_secret_key_x',
        fetch: async () => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json', ...headers } }),
      });
    const limited = await answering(429, { detail: 'Request was throttled.', status_code: 429 }, { 'retry-after': '7' })
      .lookup('x')
      .catch((e: unknown) => e);
    expect(limited).toBeInstanceOf(RateLimitError);
    expect(limited).toMatchObject({ status: 429, retryAfterSeconds: 7 });
    const down = await answering(503, { detail: 'Service temporarily unavailable, try again shortly.', status_code: 503 }, { 'retry-after': '1' })
      .transactionPage()
      .catch((e: unknown) => e);
    expect(down).toBeInstanceOf(ServiceUnavailableError);
    expect(down).toMatchObject({ status: 503, retryAfterSeconds: 1, detail: 'Service temporarily unavailable, try again shortly.' });
    const proxy = new BhuktaniClient({ baseUrl, secretKey: 'k', fetch: async () => new Response('<html>Bad gateway</html>', { status: 502 }) });
    await expect(proxy.lookup('x')).rejects.toBeInstanceOf(ServiceUnavailableError);
  });
});

describe('requests', () => {
  it('carry the key, JSON bodies and the Idempotency-Key', async () => {
    const sent: { url: string; method?: string; headers: Record<string, string>; body?: string }[] = [];
    const client = new BhuktaniClient({
      baseUrl: 'https://pay.example.com/bhuktani/',
      secretKey: 'test_secret_key_abc',
      fetch: async (input, init) => {
        sent.push({ url: String(input), method: init?.method, headers: init?.headers as Record<string, string>, body: init?.body as string | undefined });
        return new Response(JSON.stringify({ detail: 'Transaction refund successful.' }), { status: 200 });
      },
    });
    await client.refund('tx/1', { amount: 500, idempotencyKey: 'refund-1' });
    await client.refund('tx2');
    expect(sent[0]).toMatchObject({
      url: 'https://pay.example.com/bhuktani/api/merchant-transaction/tx%2F1/refund/',
      method: 'POST',
      headers: { authorization: 'Key test_secret_key_abc', 'content-type': 'application/json', 'idempotency-key': 'refund-1' },
      body: '{"amount":500}',
    });
    expect(sent[1].body).toBe('{}');
    expect(sent[1].headers['idempotency-key']).toBeUndefined();
  });

  it('use nothing but Node built-ins and the client folder, so the client stands alone', () => {
    const dir = new URL('./', import.meta.url);
    for (const name of readdirSync(dir).filter((n) => n.endsWith('.ts') && !n.endsWith('.test.ts'))) {
      const source = readFileSync(new URL(name, dir), 'utf8');
      for (const [, from] of source.matchAll(/\bfrom '([^']+)'/g)) {
        expect(from, `${name} imports ${from}`).toMatch(/^(node:|\.\/[\w-]+\.js$)/);
      }
    }
  });
});
