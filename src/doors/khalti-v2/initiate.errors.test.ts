// Every way the contract (section 3) says initiate can reject a request, with its exact body.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { INITIATE_PATH, merchantApi, validInitiate } from '../../../test/api-client.js';
import { multipart, type MultipartBody } from '../../../test/multipart.js';
import { newMerchant, startTestApp, type TestApp } from '../../../test/test-app.js';

let t: TestApp;
let api: ReturnType<typeof merchantApi>;

beforeAll(async () => {
  t = await startTestApp();
  api = merchantApi(t.app, (await newMerchant(t.ctx)).test_secret_key);
});
afterAll(() => t.close());

const REQUIRED = 'This field is required.';
const BLANK = 'This field may not be blank.';
const URL_INVALID = 'Enter a valid URL.';
const INTEGER = 'A valid integer is required.';
const MIN_AMOUNT = 'Amount should be at least 10 paisa.';

/** Initiate with `payload` must answer 400 with exactly these field errors. */
async function expectFieldErrors(payload: unknown, fields: Record<string, unknown>) {
  const { status, body } = await api.initiate(payload);
  expect({ status, body }).toStrictEqual({ status: 400, body: { ...fields, error_key: 'validation_error' } });
}

function without(field: string) {
  const payload: Record<string, unknown> = validInitiate();
  delete payload[field];
  return payload;
}

const product = (overrides: Record<string, unknown> = {}) => ({
  identity: 'sku-1',
  name: 'Tea',
  total_price: 1000,
  quantity: 2,
  unit_price: 500,
  ...overrides,
});

describe('initiate: required fields', () => {
  it.each(['return_url', 'website_url', 'amount', 'purchase_order_id', 'purchase_order_name'])('%s missing → "This field is required."', async (field) => {
    await expectFieldErrors(without(field), { [field]: [REQUIRED] });
  });

  it('an empty object lists every required field at once', async () => {
    await expectFieldErrors({}, {
      return_url: [REQUIRED],
      website_url: [REQUIRED],
      amount: [REQUIRED],
      purchase_order_id: [REQUIRED],
      purchase_order_name: [REQUIRED],
    });
  });

  it('no body at all is read as an empty object', async () => {
    const { status, body } = await api.send({ url: INITIATE_PATH });
    expect(status).toBe(400);
    expect(Object.keys(body).sort()).toEqual(['amount', 'error_key', 'purchase_order_id', 'purchase_order_name', 'return_url', 'website_url']);
  });

  it('null is not a value', async () => {
    await expectFieldErrors(validInitiate({ purchase_order_id: null }), { purchase_order_id: ['This field may not be null.'] });
  });
});

describe('initiate: blank strings', () => {
  it.each(['return_url', 'website_url', 'purchase_order_id', 'purchase_order_name'])('%s blank → "This field may not be blank."', async (field) => {
    await expectFieldErrors(validInitiate({ [field]: '' }), { [field]: [BLANK] });
  });

  it.each(['   ', '\t\n '])('white space only (%j) is blank too', async (value) => {
    await expectFieldErrors(validInitiate({ purchase_order_name: value }), { purchase_order_name: [BLANK] });
  });
});

describe('initiate: URLs', () => {
  it.each(['ftp://shop.example.com/return', 'shop.example.com/return', 'javascript:alert(1)', 'https://', 'http://shop example.com/', 'mailto:shop@example.com'])(
    '%j → "Enter a valid URL."',
    async (value) => {
      await expectFieldErrors(validInitiate({ return_url: value, website_url: value }), { return_url: [URL_INVALID], website_url: [URL_INVALID] });
    },
  );

  it('accepts http and https, with query and port', async () => {
    const { status } = await api.initiate(validInitiate({ return_url: 'http://localhost:3000/done?x=1&y=2', website_url: 'HTTPS://Shop.Example.com' }));
    expect(status).toBe(200);
  });
});

describe('initiate: amount', () => {
  it.each([10.5, 'abc', true, '10.5', '', [], {}, '1e3'])('%j → "A valid integer is required."', async (amount) => {
    await expectFieldErrors(validInitiate({ amount }), { amount: [INTEGER] });
  });

  it.each([9, 0, -100, '9'])('%j → "Amount should be at least 10 paisa."', async (amount) => {
    await expectFieldErrors(validInitiate({ amount }), { amount: [MIN_AMOUNT] });
  });

  it('accepts the minimum, 10 paisa', async () => {
    const { status, body } = await api.initiate(validInitiate({ amount: 10 }));
    expect(status).toBe(200);
    expect((await api.lookup(body.pidx)).body.total_amount).toBe(10);
  });

  it('accepts a numeric string and stores it as an integer', async () => {
    const { status, body } = await api.initiate(validInitiate({ amount: '1500' }));
    expect(status).toBe(200);
    const lookup = await api.lookup(body.pidx);
    expect(lookup.body.total_amount).toBe(1500);
    expect(lookup.body.fee).toBe(45);
  });

  it('rejects an amount above MAX_AMOUNT_PAISA and accepts the maximum itself', async () => {
    const max = t.ctx.config.maxAmountPaisa;
    await expectFieldErrors(validInitiate({ amount: max + 1 }), { amount: [`Ensure this value is less than or equal to ${max}.`] });
    await expectFieldErrors(validInitiate({ amount: '99999999999999999999999' }), { amount: [`Ensure this value is less than or equal to ${max}.`] });
    const { status, body } = await api.initiate(validInitiate({ amount: max }));
    expect(status).toBe(200);
    expect((await api.lookup(body.pidx)).body.total_amount).toBe(max);
  });
});

describe('initiate: amount_breakdown', () => {
  it('a sum different from amount → {"amount": ["Amount Breakdown mismatch."]}', async () => {
    await expectFieldErrors(
      validInitiate({ amount: 1000, amount_breakdown: [{ label: 'Mark price', amount: 900 }, { label: 'VAT', amount: 90 }] }),
      { amount: ['Amount Breakdown mismatch.'] },
    );
  });

  it('a breakdown that adds up is accepted, numeric strings included', async () => {
    const { status } = await api.initiate(validInitiate({ amount: '1000', amount_breakdown: [{ label: 'Mark price', amount: 870 }, { label: 'VAT', amount: '130' }] }));
    expect(status).toBe(200);
  });

  it('reports errors per entry, with {} for the valid ones', async () => {
    await expectFieldErrors(validInitiate({ amount_breakdown: [{ label: 'Mark price', amount: 900 }, { label: 'VAT' }, { label: '', amount: 'x' }] }), {
      amount_breakdown: [{}, { amount: [REQUIRED] }, { label: [BLANK], amount: [INTEGER] }],
    });
  });

  it('must be a list', async () => {
    await expectFieldErrors(validInitiate({ amount_breakdown: 'VAT' }), { amount_breakdown: ['Expected a list of items but got type "str".'] });
  });
});

describe('initiate: product_details', () => {
  it('reports the failing entry only: {"product_details": [{}, {"quantity": [...]}]}', async () => {
    await expectFieldErrors(validInitiate({ product_details: [product(), product({ quantity: 'two' })] }), {
      product_details: [{}, { quantity: [INTEGER] }],
    });
  });

  it('reports every failing field of an entry', async () => {
    await expectFieldErrors(validInitiate({ product_details: [{ identity: '', total_price: 1.5 }] }), {
      product_details: [{ identity: [BLANK], name: [REQUIRED], total_price: [INTEGER], quantity: [REQUIRED], unit_price: [REQUIRED] }],
    });
  });

  it('an entry that is not an object is reported in its place', async () => {
    await expectFieldErrors(validInitiate({ product_details: [product(), 'tea'] }), {
      product_details: [{}, { non_field_errors: ['Invalid data. Expected a dictionary, but got str.'] }],
    });
  });

  it('valid entries are accepted', async () => {
    const { status } = await api.initiate(validInitiate({ product_details: [product(), product({ identity: 'sku-2' })] }));
    expect(status).toBe(200);
  });
});

describe('initiate: customer_info', () => {
  it('reports nested errors: {"customer_info": {"email": [...]}}', async () => {
    await expectFieldErrors(validInitiate({ customer_info: { name: 'Ram Bahadur', email: 'not-an-email', phone: '9800000001' } }), {
      customer_info: { email: ['Enter a valid email address.'] },
    });
  });

  it('every sub-field is optional, but none may be blank', async () => {
    expect((await api.initiate(validInitiate({ customer_info: {} }))).status).toBe(200);
    await expectFieldErrors(validInitiate({ customer_info: { name: ' ', phone: '' } }), { customer_info: { name: [BLANK], phone: [BLANK] } });
  });

  it('must be an object', async () => {
    await expectFieldErrors(validInitiate({ customer_info: ['Ram'] }), { customer_info: { non_field_errors: ['Invalid data. Expected a dictionary, but got list.'] } });
  });
});

describe('initiate: several failures at once', () => {
  it('lists every failing field, top-level and nested, in one answer', async () => {
    await expectFieldErrors(
      {
        return_url: 'ftp://shop.example.com',
        website_url: '  ',
        amount: 9,
        purchase_order_id: '',
        customer_info: { email: 'nope' },
        product_details: [product({ unit_price: 'x' })],
        merchant_extra: 'kept out of the errors',
      },
      {
        return_url: [URL_INVALID],
        website_url: [BLANK],
        amount: [MIN_AMOUNT],
        purchase_order_id: [BLANK],
        purchase_order_name: [REQUIRED],
        customer_info: { email: ['Enter a valid email address.'] },
        product_details: [{ unit_price: [INTEGER] }],
      },
    );
  });

  it('a body that is not an object is one non-field error', async () => {
    await expectFieldErrors([validInitiate()], { non_field_errors: ['Invalid data. Expected a dictionary, but got list.'] });
  });
});

describe('initiate: body encoding', () => {
  const unsupported = (type: string) => ({ detail: `Unsupported media type "${type}" in request.`, status_code: 415 });

  it('malformed JSON → 400 {"detail": "JSON parse error …", "error_key": "validation_error"}', async () => {
    const { status, body } = await api.send({ url: INITIATE_PATH, payload: '{"amount": 1000,', contentType: 'application/json' });
    expect(status).toBe(400);
    expect(body).toStrictEqual({ detail: expect.stringMatching(/^JSON parse error - \S/), error_key: 'validation_error' });
  });

  it('an empty JSON body is a parse error too', async () => {
    const { status, body } = await api.send({ url: INITIATE_PATH, payload: '', contentType: 'application/json' });
    expect(status).toBe(400);
    expect(body).toStrictEqual({ detail: expect.stringMatching(/^JSON parse error - \S/), error_key: 'validation_error' });
  });

  it('a text/plain body → 415 with a detail', async () => {
    const { status, body } = await api.send({ url: INITIATE_PATH, payload: JSON.stringify(validInitiate()), contentType: 'text/plain' });
    expect({ status, body }).toStrictEqual({ status: 415, body: unsupported('text/plain') });
  });

  it.each(['application/xml'])('a %s body → 415 with a detail, never a 500', async (contentType) => {
    const { status, body } = await api.send({ url: INITIATE_PATH, payload: '<amount>1000</amount>', contentType });
    expect({ status, body }).toStrictEqual({ status: 415, body: unsupported(contentType) });
  });

  it('accepts a form-encoded body, numeric strings and merchant_ fields included', async () => {
    const order = validInitiate({ merchant_username: 'shop' });
    const form = new URLSearchParams(Object.entries(order).map(([k, v]) => [k, String(v)])).toString();
    const { status, body } = await api.send({ url: INITIATE_PATH, payload: form, contentType: 'application/x-www-form-urlencoded' });
    expect(status).toBe(200);
    expect(body.merchant_username).toBe('shop');
    const lookup = await api.lookup(body.pidx);
    expect(lookup.body).toMatchObject({ status: 'Initiated', total_amount: 1000, purchase_order_id: order.purchase_order_id });
  });

  it('accepts a multipart/form-data body as a form (PHP’s curl posts an array so); a file in it → 415, a broken one → 400', async () => {
    const order = validInitiate({ merchant_username: 'shop' });
    const fields = Object.entries(order).map(([k, v]) => [k, String(v)] as [string, string]);
    const sent = async (body: MultipartBody) => api.send({ url: INITIATE_PATH, payload: body.payload, contentType: body.contentType });
    const { status, body } = await sent(await multipart(fields));
    expect([status, body.merchant_username]).toEqual([200, 'shop']);
    expect((await api.lookup(body.pidx)).body).toMatchObject({ status: 'Initiated', total_amount: 1000, purchase_order_id: order.purchase_order_id });
    const invalid = await sent(await multipart({ return_url: 'https://shop.example.com', website_url: '', amount: 'abc', purchase_order_id: 'o-1' }));
    expect(invalid).toStrictEqual({ status: 400, body: { website_url: [BLANK], amount: [INTEGER], purchase_order_name: [REQUIRED], error_key: 'validation_error' } });
    const file = await sent(await multipart(fields, [{ name: 'logo', filename: 'logo.txt', content: 'x' }]));
    expect(file).toStrictEqual({ status: 415, body: { detail: 'A multipart/form-data body may hold only text fields, not files.', status_code: 415 } });
    const broken = await api.send({ url: INITIATE_PATH, payload: '<amount>1000</amount>', contentType: 'multipart/form-data; boundary=x' });
    expect(broken).toStrictEqual({ status: 400, body: { detail: expect.stringMatching(/^Malformed multipart\/form-data body: /), error_key: 'validation_error' } });
  });

  it('validates a form-encoded body with the same messages', async () => {
    const form = new URLSearchParams({ return_url: 'https://shop.example.com', website_url: '', amount: 'abc', purchase_order_id: 'o-1' }).toString();
    const { status, body } = await api.send({ url: INITIATE_PATH, payload: form, contentType: 'application/x-www-form-urlencoded' });
    expect({ status, body }).toStrictEqual({
      status: 400,
      body: { website_url: [BLANK], amount: [INTEGER], purchase_order_name: [REQUIRED], error_key: 'validation_error' },
    });
  });

  it('ignores unknown fields that do not start with merchant_', async () => {
    const { status, body } = await api.initiate(validInitiate({ foo: 'bar', status: 'Completed', fee: 0, Merchant_upper: 1, merchant_extra: { a: 1 } }));
    expect(status).toBe(200);
    expect(Object.keys(body)).toEqual(['pidx', 'payment_url', 'expires_at', 'expires_in', 'merchant_extra']);
    const lookup = await api.lookup(body.pidx);
    expect(lookup.body).toMatchObject({ status: 'Initiated', fee: 30 });
    const [row] = await t.db.query<{ merchant_fields: unknown }>('SELECT merchant_fields FROM payments WHERE pidx = $1', [body.pidx]);
    expect(row.merchant_fields).toEqual({ merchant_extra: { a: 1 } });
  });
});

describe('initiate: body size limit', () => {
  let small: TestApp;
  let smallApi: ReturnType<typeof merchantApi>;
  let smallMerchantId: number;

  beforeAll(async () => {
    small = await startTestApp({ config: { bodyLimitBytes: 2048 } });
    const created = await newMerchant(small.ctx);
    smallMerchantId = created.merchant.id;
    smallApi = merchantApi(small.app, created.test_secret_key);
  });
  afterAll(() => small.close());

  it('a JSON body over the limit → 413 with a detail', async () => {
    const { status, body } = await smallApi.initiate(validInitiate({ merchant_extra: 'x'.repeat(4096) }));
    expect({ status, body }).toStrictEqual({ status: 413, body: { detail: 'Request body is too large.', status_code: 413 } });
  });

  it('a form body over the limit → 413 too', async () => {
    const form = new URLSearchParams({ ...validInitiate(), amount: '1000', merchant_extra: 'x'.repeat(4096) }).toString();
    const { status, body } = await smallApi.send({ url: INITIATE_PATH, payload: form, contentType: 'application/x-www-form-urlencoded' });
    expect({ status, body }).toStrictEqual({ status: 413, body: { detail: 'Request body is too large.', status_code: 413 } });
  });

  it('a multipart/form-data body over the limit → 413 too', async () => {
    const body = await multipart({ ...validInitiate(), amount: '1000', merchant_extra: 'x'.repeat(4096) });
    const { status, body: answer } = await smallApi.send({ url: INITIATE_PATH, payload: body.payload, contentType: body.contentType });
    expect({ status, body: answer }).toStrictEqual({ status: 413, body: { detail: 'Request body is too large.', status_code: 413 } });
  });

  it('a body under the limit is served, and nothing over it was stored', async () => {
    expect((await smallApi.initiate(validInitiate())).status).toBe(200);
    const [{ n }] = await small.db.query<{ n: number }>('SELECT count(*)::int AS n FROM payments WHERE merchant_id = $1', [smallMerchantId]);
    expect(n).toBe(1);
  });
});

describe('initiate: a rejected request stores nothing', () => {
  it('leaves no payment behind, whatever the reason', async () => {
    const { merchant, test_secret_key } = await newMerchant(t.ctx);
    const fresh = merchantApi(t.app, test_secret_key);
    const count = async () =>
      (await t.db.query<{ n: number }>('SELECT count(*)::int AS n FROM payments WHERE merchant_id = $1', [merchant.id]))[0].n;

    expect((await fresh.initiate({})).status).toBe(400);
    expect((await fresh.initiate(validInitiate({ amount: 9 }))).status).toBe(400);
    expect((await fresh.initiate(validInitiate({ amount_breakdown: [{ label: 'x', amount: 1 }] }))).status).toBe(400);
    expect((await fresh.initiate(validInitiate({ product_details: [product({ quantity: 0 })] }))).status).toBe(400);
    expect((await fresh.send({ url: INITIATE_PATH, payload: '{', contentType: 'application/json' })).status).toBe(400);
    expect(await count()).toBe(0);

    // The count does see this merchant's payments.
    expect((await fresh.initiate()).status).toBe(200);
    expect(await count()).toBe(1);
  });

});
