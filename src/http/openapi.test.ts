import { Validator } from '@seriousme/openapi-schema-validator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { payerBrowser, callbackParams } from '../../test/portal-client.js';
import { merchantApi, validInitiate } from '../../test/api-client.js';
import { newMerchant, startTestApp, type TestApp } from '../../test/test-app.js';

let t: TestApp;
let doc: Record<string, any>;

beforeAll(async () => {
  t = await startTestApp();
  const response = await t.app.inject({ method: 'GET', url: '/api/v2/openapi.json' });
  expect(response.statusCode).toBe(200);
  doc = response.json();
});
afterAll(() => t.close());

describe('GET /api/v2/openapi.json', () => {
  it('is a valid OpenAPI 3.1 document', async () => {
    const validator = new Validator();
    const result = await validator.validate(doc);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    expect(validator.version).toBe('3.1');
  });

  it('documents every endpoint of the contract with its errors', () => {
    expect(Object.keys(doc.paths).sort()).toEqual([
      '/api/epay/transaction/status/',
      '/api/merchant-transaction/{transaction_id}/refund/',
      '/api/v2/epayment/initiate/',
      '/api/v2/epayment/lookup/',
      '/api/v2/merchant-transaction/',
      '/api/v2/payment-links/',
      '/api/v2/payment-links/{idx}/',
      '/api/v2/payment-links/{idx}/activate/',
      '/api/v2/payment-links/{idx}/deactivate/',
      '/api/v2/settlements/',
      '/api/v2/settlements/{idx}/',
    ]);
    const initiate = doc.paths['/api/v2/epayment/initiate/'].post;
    expect(Object.keys(initiate.responses).sort()).toEqual(['200', '400', '401', '403', '409', '413', '415', '429', '503']);
    // A live key of a merchant not approved, or suspended.
    expect(initiate.responses['403'].content['application/json'].examples).toEqual({
      forbidden: { value: { detail: 'This merchant is suspended: live payments are off.', status_code: 403 } },
    });
    expect(Object.keys(initiate.requestBody.content['application/json'].schema.properties)).toEqual(
      expect.arrayContaining(['return_url', 'website_url', 'amount', 'purchase_order_id', 'purchase_order_name', 'customer_info', 'amount_breakdown', 'product_details']),
    );
    expect(initiate.responses['401'].content['application/json'].examples).toEqual({
      not_authenticated: { value: { detail: 'Authentication credentials were not provided.', status_code: 401 } },
      invalid_token: { value: { detail: 'Invalid token.', status_code: 401 } },
    });
    const lookup = doc.paths['/api/v2/epayment/lookup/'].post;
    expect(Object.keys(lookup.responses)).toEqual(expect.arrayContaining(['200', '400', '404']));
    const lookupByQuery = doc.paths['/api/v2/epayment/lookup/'].get;
    expect(lookupByQuery.parameters).toStrictEqual([expect.objectContaining({ name: 'pidx', in: 'query', required: true })]);
    expect(lookupByQuery.responses['200']).toStrictEqual(lookup.responses['200']);
    expect(Object.keys(lookupByQuery.responses).sort()).toEqual(['200', '400', '401', '403', '404', '429', '503']);
    const list = doc.paths['/api/v2/merchant-transaction/'].get;
    expect(list.parameters.map((p: { name: string }) => p.name)).toEqual(['status', 'from', 'to', 'purchase_order_id', 'page', 'page_size']);
    expect(list.responses['404'].content['application/json'].examples.invalid_page.value).toEqual({ detail: 'Invalid page.' });
    const refund = doc.paths['/api/merchant-transaction/{transaction_id}/refund/'].post;
    expect(refund.parameters.map((p: { name: string }) => p.name)).toEqual(['transaction_id', 'Idempotency-Key']);
  });

  it('every documented request example is accepted by the server', async () => {
    const key = (await newMerchant(t.ctx)).test_secret_key;
    const api = merchantApi(t.app, key);
    const { body: initiated } = await api.initiate(validInitiate({ amount: 5000 }));
    const done = await payerBrowser(t.app).pay(initiated.pidx);
    const transactionId = callbackParams(done.location!).transaction_id;
    // A balance for the whole refund (its fee too) and the payouts of the examples.
    await payerBrowser(t.app).pay((await api.initiate(validInitiate({ amount: 1_000_000 }))).body.pidx);
    let tried = 0;
    for (const [path, methods] of Object.entries(doc.paths as Record<string, Record<string, any>>)) {
      for (const [method, op] of Object.entries(methods)) {
        const examples = op.requestBody?.content['application/json'].examples ?? {};
        for (const { value } of Object.values(examples) as { value: Record<string, unknown> }[]) {
          const body = path.includes('lookup') ? { pidx: initiated.pidx } : value; // a real pidx, shaped as documented
          const response = await t.app.inject({
            method: method.toUpperCase() as 'POST',
            url: path.replace('{transaction_id}', transactionId),
            headers: { authorization: `Key ${key}` },
            payload: body,
          });
          expect(response.statusCode, `${method} ${path} ${JSON.stringify(value)}: ${response.body}`).toBe(path === '/api/v2/settlements/' || path === '/api/v2/payment-links/' ? 201 : 200);
          tried += 1;
        }
      }
    }
    expect(tried).toBeGreaterThanOrEqual(5);
  });
});

describe("eSewa's status check as documented", () => {
  it('is public (no key), answers its own shape, and refuses in eSewa’s shape only', async () => {
    const check = doc.paths['/api/epay/transaction/status/'].get;
    expect(check.security).toEqual([]);
    expect(check.parameters.map((p: { name: string; required: boolean }) => [p.name, p.required])).toEqual([
      ['product_code', true],
      ['total_amount', true],
      ['transaction_uuid', true],
    ]);
    expect(Object.keys(check.responses).sort()).toEqual(['200', '400', '429']);
    expect(check.responses['200'].content['application/json'].schema.properties.status.enum).toEqual(['COMPLETE', 'PENDING', 'FULL_REFUND', 'PARTIAL_REFUND', 'CANCELED', 'NOT_FOUND', 'AMBIGUOUS']);
    const example = check.responses['400'].content['application/json'].examples.example1.value;
    const answered = await t.app.inject({ url: '/api/epay/transaction/status/?product_code=EPAYTEST&total_amount=abc' });
    expect(answered.statusCode).toBe(400);
    expect(Object.keys(answered.json())).toEqual(Object.keys(example));
    expect(answered.json().error_message).toBe(example.error_message);
  });
});

describe("initiate's payment_url as documented", () => {
  it('is the shape initiate answers: the hosted page with the payment in its query', async () => {
    const initiate = doc.paths['/api/v2/epayment/initiate/'].post;
    const { description, examples } = initiate.responses['200'].content['application/json'].schema.properties.payment_url;
    expect(description).toContain('/pay/?pidx=<pidx>');
    const { body: initiated } = await merchantApi(t.app, (await newMerchant(t.ctx)).test_secret_key).initiate();
    const [documented, answered] = [new URL(examples[0]), new URL(initiated.payment_url)];
    expect([documented.pathname, [...documented.searchParams.keys()]]).toEqual([answered.pathname, [...answered.searchParams.keys()]]);
    expect(answered.searchParams.get('pidx')).toBe(initiated.pidx);
    expect(initiate.description).toContain('`txnId`');
  });
});

describe('GET /docs', () => {
  it('is a reference page served from our own assets, listing every endpoint', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/docs' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-security-policy']).toContain("default-src 'none'");
    for (const path of Object.keys(doc.paths)) expect(response.body).toContain(path);
    expect(response.body).not.toMatch(/<script|https?:\/\/(?!localhost|bhuktani\.test|shop\.example\.com)[a-z]/);
    expect((await t.app.inject({ method: 'GET', url: '/assets/docs.css' })).statusCode).toBe(200);
  });

  it('has an eSewa section: the door’s addresses, its form, the signature and its test vector, the sandbox payers', async () => {
    const body = (await t.app.inject({ method: 'GET', url: '/docs' })).body;
    expect(body).toContain('<a href="#esewa">eSewa ePay</a>');
    const section = body.slice(body.indexOf('id="esewa"'));
    for (const text of ['POST /api/epay/main/v2/form', 'GET /api/epay/transaction/status/', 'POST /epay/main', 'POST /epay/transrec', 'signed_field_names', 'i94zsd3oXF6ZsSr/kGqT4sSzYQzjj1W/waxjWyRwaME=', '9806800001', 'EPAYTEST', 'ES104']) {
      expect(section).toContain(text);
    }
  });
});
