// eSewa's ePay v2 door, driven as an eSewa integration drives it: a signed
// form posted by the payer's browser, the hosted page paid with eSewa's sandbox payer, `data` read
// and verified on the success page, the status check. The payment is the same payment as one of the
// v2 API: its list, refunds, ledger.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { esewaForm, ESEWA_FORM, pidxOf, postForm, postJson, postMultipart, postRaw, readData, sign, statusCheck, type EsewaPair } from '../../../test/esewa-client.js';
import { merchantApi, refund } from '../../../test/api-client.js';
import { merchantBrowser, pageText } from '../../../test/dashboard-client.js';
import { operatorWallet, payerBrowser, payWithLiveWallet } from '../../../test/portal-client.js';
import { freePort } from '../../../test/processes.js';
import { newMerchant, startTestApp, type TestApp } from '../../../test/test-app.js';
import { ensureDemoMerchant } from '../../demo/ensure-demo-merchant.js';
import { verifyLedger } from '../../ledger/verify-ledger.js';
import { ESEWA_TEST_PAIR } from '../../merchants/esewa-credential.js';
import { findEsewaCredential } from '../../merchants/esewa-credentials.js';
import { findPayment } from '../../payments/payment-store.js';
import { setWebhookEndpoint } from '../../webhooks/webhook-store.js';

let t: TestApp;
let merchant: Awaited<ReturnType<typeof newMerchant>>;
let pair: EsewaPair;

beforeAll(async () => {
  t = await startTestApp();
  merchant = await newMerchant(t.ctx, { fee_bps: 250 });
  pair = merchant.esewa.test;
});
afterAll(() => t.close());

/** Pays on the hosted page with eSewa's published sandbox payer. */
const payWithEsewaPayer = (pidx: string, mobile = '9806800001') => payerBrowser(t.app).pay(pidx, mobile, '1122', '123456');

describe('POST /api/epay/main/v2/form', () => {
  it('sends the browser (302) to the hosted page of a new payment: the total in paisa, the parts as its breakdown, the merchant’s fee', async () => {
    const form = esewaForm(pair, { amount: '100.50', tax_amount: '13.06', product_service_charge: '5', product_delivery_charge: '1.44', total_amount: '120' });
    const answer = await postForm(t.app, ESEWA_FORM, form);
    expect(answer.status, answer.body).toBe(302);
    expect(answer.location).toMatch(/^http:\/\/bhuktani\.test\/pay\/\?pidx=\w+$/);
    const payment = (await findPayment(t.db, pidxOf(answer.location!)))!;
    expect(payment).toMatchObject({
      merchant_id: merchant.merchant.id,
      environment: 'test',
      door: 'esewa-v2',
      amount: 12000,
      fee: 300,
      status: 'Initiated',
      purchase_order_id: form.transaction_uuid,
      return_url: form.success_url,
      door_fields: { product_code: pair.product_code, failure_url: form.failure_url },
      amount_breakdown: [
        { label: 'Amount', amount: 10050 },
        { label: 'Tax', amount: 1306 },
        { label: 'Service charge', amount: 500 },
        { label: 'Delivery charge', amount: 144 },
      ],
    });
    const page = await payerBrowser(t.app).open(payment.pidx);
    expect(page.body).toContain('Rs. 120.00');
    expect(page.body).toContain('9806800001');
  });

  it('keeps the success URL as posted, and its origin as the payment’s website_url', async () => {
    const form = esewaForm(pair, { success_url: 'https://Shop.Example.com:8443/esewa/ok?order=7', failure_url: 'http://other.example.net/no' });
    const answer = await postForm(t.app, ESEWA_FORM, form);
    expect(answer.status, answer.body).toBe(302);
    expect(await findPayment(t.db, pidxOf(answer.location!))).toMatchObject({ return_url: form.success_url, website_url: 'https://shop.example.com:8443' });
  });

  it('a server that posts the form and follows the 302 gets the hosted page', async () => {
    const port = await freePort();
    const served = await startTestApp({ db: t.db, config: { publicUrl: `http://127.0.0.1:${port}` } });
    try {
      await served.app.listen({ port, host: '127.0.0.1' });
      const response = await fetch(`http://127.0.0.1:${port}${ESEWA_FORM}`, { method: 'POST', body: new URLSearchParams(esewaForm(pair)), redirect: 'follow' });
      expect([response.status, response.url.startsWith(`http://127.0.0.1:${port}/pay/?pidx=`)]).toEqual([200, true]);
      expect(await response.text()).toContain('Rs. 110.00');
    } finally {
      await served.close();
    }
  });

  it('takes JSON too', async () => {
    const answer = await postJson(t.app, ESEWA_FORM, esewaForm(pair));
    expect(answer.status, answer.body).toBe(302);
  });

  it('takes multipart/form-data (PHP’s curl posts an array so), and the fields in the query string with an empty body', async () => {
    for (const send of [(form: Record<string, string>) => postMultipart(t.app, ESEWA_FORM, form), (form: Record<string, string>) => postRaw(t.app, `${ESEWA_FORM}?${new URLSearchParams(form)}`, '')]) {
      const form = esewaForm(pair, { amount: '100.5', total_amount: '110.5' });
      const answer = await send(form);
      expect(answer.status, answer.body).toBe(302);
      expect(await findPayment(t.db, pidxOf(answer.location!))).toMatchObject({ amount: 11050, purchase_order_id: form.transaction_uuid, return_url: form.success_url });
    }
  });

  it('paid with eSewa’s sandbox payer: the browser goes to success_url?data=…, signed with the merchant’s secret key, COMPLETE', async () => {
    const form = esewaForm(pair);
    const pidx = pidxOf((await postForm(t.app, ESEWA_FORM, form)).location!);
    const done = await payWithEsewaPayer(pidx);
    expect(done.status).toBe(303);
    const url = new URL(done.location!);
    expect(`${url.origin}${url.pathname}`).toBe('https://shop.example.com/esewa/success');
    expect(url.searchParams.get('cart')).toBe('7');
    const { fields, verified } = readData(done.location!, pair.secret_key);
    expect(verified).toBe(true);
    const payment = (await findPayment(t.db, pidx))!;
    expect(fields).toEqual({
      transaction_code: payment.transaction_id,
      status: 'COMPLETE',
      total_amount: '110.0',
      transaction_uuid: form.transaction_uuid,
      product_code: pair.product_code,
      signed_field_names: 'transaction_code,status,total_amount,transaction_uuid,product_code,signed_field_names',
      signature: fields.signature,
    });
    expect(Object.keys(fields)).toEqual(['transaction_code', 'status', 'total_amount', 'transaction_uuid', 'product_code', 'signed_field_names', 'signature']);
    expect(readData(done.location!, merchant.esewa.live.secret_key).verified).toBe(false);
    const status = await statusCheck(t.app, { product_code: pair.product_code, total_amount: fields.total_amount, transaction_uuid: form.transaction_uuid });
    expect([status.status, status.json()]).toEqual([200, { product_code: pair.product_code, transaction_uuid: form.transaction_uuid, total_amount: 110, status: 'COMPLETE', ref_id: payment.transaction_id }]);
    // As eSewa writes it: a number with one decimal at least.
    expect(status.body).toBe(`{"product_code":"${pair.product_code}","transaction_uuid":"${form.transaction_uuid}","total_amount":110.0,"status":"COMPLETE","ref_id":"${payment.transaction_id}"}`);
  });
});

describe('the same payment as any other', () => {
  it('is listed by the v2 API, refunded through it, queues its webhooks, and ledger verify holds', async () => {
    const m = await newMerchant(t.ctx);
    const api = merchantApi(t.app, m.test_secret_key);
    await setWebhookEndpoint(t.db, m.merchant.id, 'test', 'https://shop.example.com/hooks', t.clock.now());
    const form = esewaForm(m.esewa.test);
    const pidx = pidxOf((await postForm(t.app, ESEWA_FORM, form)).location!);
    const { fields } = readData((await payWithEsewaPayer(pidx, '9806800003')).location!, m.esewa.test.secret_key);
    const lookup = await api.lookup(pidx);
    expect(lookup.body).toMatchObject({ status: 'Completed', total_amount: 11000, transaction_id: fields.transaction_code, purchase_order_id: form.transaction_uuid });
    const listed = await api.transactions({ purchase_order_id: form.transaction_uuid });
    expect(listed.body.records).toEqual([expect.objectContaining({ idx: fields.transaction_code, amount: 11000, pidx, user: expect.objectContaining({ name: 'eSewa Sandbox Payer 3', mobile: '98XXXXXXX3' }) })]);

    const check = () => statusCheck(t.app, { product_code: m.esewa.test.product_code, total_amount: '110', transaction_uuid: form.transaction_uuid });
    expect((await refund(t.app, m.test_secret_key, fields.transaction_code, { amount: 1000 })).status).toBe(200);
    expect((await check()).json()).toMatchObject({ status: 'PARTIAL_REFUND', ref_id: fields.transaction_code });
    expect((await refund(t.app, m.test_secret_key, fields.transaction_code)).status).toBe(200);
    expect((await check()).json()).toMatchObject({ status: 'FULL_REFUND', ref_id: fields.transaction_code, total_amount: 110 });

    const browser = merchantBrowser(t.app);
    expect((await browser.logIn(m.merchant.email, 'correct horse battery')).status).toBe(303);
    const row = /<tr data-idx="[^"]+" data-pidx="(\w+)">([\s\S]*?)<\/tr>/.exec((await browser.get(`/dashboard/transactions?q=${form.transaction_uuid}`)).body)!;
    expect([row[1], pageText(row[2])]).toEqual([pidx, expect.stringContaining(`${form.transaction_uuid} eSewa ePay`)]);
    expect(pageText((await browser.get(`/dashboard/payments/${pidx}`)).body)).toContain('Started through eSewa ePay');
    const csv = await browser.get(`/dashboard/transactions.csv?q=${form.transaction_uuid}`);
    expect(csv.body).toContain(fields.transaction_code);

    const hooks = await t.db.query<{ type: string }>('SELECT type FROM webhook_deliveries WHERE pidx = $1 ORDER BY id', [pidx]);
    expect(hooks.map((h) => h.type)).toEqual(['payment.completed', 'refund.completed', 'refund.completed']);
    expect((await verifyLedger(t.db)).filter((r) => !r.holds)).toEqual([]);
  });
});

describe('cancel, hold, expiry', () => {
  it('a cancel sends the browser to failure_url?data=… (CANCELED, no transaction_code), and the status check says CANCELED', async () => {
    const form = esewaForm(pair);
    const pidx = pidxOf((await postForm(t.app, ESEWA_FORM, form)).location!);
    const browser = payerBrowser(t.app);
    await browser.open(pidx);
    const canceled = await browser.cancel(pidx);
    expect(canceled.status).toBe(303);
    expect(canceled.location!.startsWith('https://shop.example.com/esewa/failure?data=')).toBe(true);
    const { fields, verified } = readData(canceled.location!, pair.secret_key);
    expect(verified).toBe(true);
    expect(fields).toEqual({
      status: 'CANCELED',
      total_amount: '110.0',
      transaction_uuid: form.transaction_uuid,
      product_code: pair.product_code,
      signed_field_names: 'status,total_amount,transaction_uuid,product_code,signed_field_names',
      signature: fields.signature,
    });
    expect((await statusCheck(t.app, { product_code: pair.product_code, total_amount: '110.0', transaction_uuid: form.transaction_uuid })).json()).toMatchObject({ status: 'CANCELED', ref_id: null });
  });

  it('a payment not yet paid is PENDING; one held (9800000007) goes to failure_url as PENDING, with its code, and stays PENDING', async () => {
    const form = esewaForm(pair);
    const pidx = pidxOf((await postForm(t.app, ESEWA_FORM, form)).location!);
    const query = { product_code: pair.product_code, total_amount: '110.00', transaction_uuid: form.transaction_uuid };
    expect((await statusCheck(t.app, query)).json()).toEqual({ ...query, total_amount: 110, status: 'PENDING', ref_id: null });
    const held = await payerBrowser(t.app).pay(pidx, '9800000007');
    // success_url receives only COMPLETE: a shop that checks no more than the signature would hand over the goods.
    expect(held.location!.startsWith(`${form.failure_url}?data=`)).toBe(true);
    const { fields, verified } = readData(held.location!, pair.secret_key);
    expect([verified, fields.status, fields.transaction_code]).toEqual([true, 'PENDING', (await findPayment(t.db, pidx))!.transaction_id]);
    expect((await statusCheck(t.app, query)).json()).toMatchObject({ status: 'PENDING', ref_id: null });
  });

  it('an expired payment is CANCELED', async () => {
    const form = esewaForm(pair);
    await postForm(t.app, ESEWA_FORM, form);
    const app = await startTestApp({ db: t.db });
    try {
      app.clock.advance(t.ctx.config.paymentTtlSeconds + 1);
      expect((await statusCheck(app.app, { product_code: pair.product_code, total_amount: '110', transaction_uuid: form.transaction_uuid })).json()).toMatchObject({ status: 'CANCELED' });
    } finally {
      await app.close();
    }
  });
});

describe('GET /api/epay/transaction/status/', () => {
  it('answers only for the product code’s own payment, with its total: anything else is NOT_FOUND', async () => {
    const form = esewaForm(pair);
    await postForm(t.app, ESEWA_FORM, form);
    const other = await newMerchant(t.ctx);
    const ask = (query: Record<string, string>) => statusCheck(t.app, { product_code: pair.product_code, total_amount: '110', transaction_uuid: form.transaction_uuid, ...query });
    expect((await ask({})).json().status).toBe('PENDING');
    const queries: Partial<Record<'transaction_uuid' | 'total_amount' | 'product_code', string>>[] = [
      { transaction_uuid: 'no-such-uuid' },
      { total_amount: '110.01' },
      { total_amount: '11' },
      { product_code: merchant.esewa.live.product_code },
      { product_code: other.esewa.test.product_code },
      { product_code: 'NO-SUCH-CODE' },
    ];
    for (const query of queries) {
      const answer = await ask(query as Record<string, string>);
      expect([answer.status, answer.json()], JSON.stringify(query)).toEqual([
        200,
        { product_code: query.product_code ?? pair.product_code, transaction_uuid: query.transaction_uuid ?? form.transaction_uuid, total_amount: Number(query.total_amount ?? 110), status: 'NOT_FOUND', ref_id: null },
      ]);
    }
  });

  it('answers with and without the trailing slash, the total as 110, 110.0 or 110.00', async () => {
    const form = esewaForm(pair);
    await postForm(t.app, ESEWA_FORM, form);
    for (const path of ['/api/epay/transaction/status/', '/api/epay/transaction/status']) {
      for (const total of ['110', '110.0', '110.00']) {
        const answer = await t.app.inject({ url: `${path}?product_code=${pair.product_code}&total_amount=${total}&transaction_uuid=${form.transaction_uuid}` });
        expect([answer.statusCode, answer.json().status]).toEqual([200, 'PENDING']);
      }
    }
  });
});

describe('the same transaction_uuid again', () => {
  it('with the same amounts resumes the payment: its hosted page, then its outcome', async () => {
    const form = esewaForm(pair);
    const first = await postForm(t.app, ESEWA_FORM, form);
    const again = await postForm(t.app, ESEWA_FORM, form);
    expect(again.location).toBe(first.location);
    const paid = await payWithEsewaPayer(pidxOf(first.location!));
    const afterPaid = await postForm(t.app, ESEWA_FORM, form);
    expect(afterPaid.status).toBe(302);
    expect(readData(afterPaid.location!, pair.secret_key)).toEqual(readData(paid.location!, pair.secret_key));
    expect((await t.db.query('SELECT 1 FROM payments WHERE purchase_order_id = $1', [form.transaction_uuid])).length).toBe(1);
  });

  it('after a cancel, sends the browser to failure_url again', async () => {
    const form = esewaForm(pair);
    const pidx = pidxOf((await postForm(t.app, ESEWA_FORM, form)).location!);
    const browser = payerBrowser(t.app);
    await browser.open(pidx);
    await browser.cancel(pidx);
    const again = await postForm(t.app, ESEWA_FORM, form);
    expect([again.status, readData(again.location!, pair.secret_key).fields.status]).toEqual([302, 'CANCELED']);
  });

  it('with other amounts is refused, and the payment stays as it was', async () => {
    const form = esewaForm(pair);
    const first = await postForm(t.app, ESEWA_FORM, form);
    const others: Record<string, string>[] = [
      { amount: '90', tax_amount: '20' },
      { amount: '100', tax_amount: '11', total_amount: '111' },
      { amount: '110', tax_amount: '0' },
    ];
    for (const overrides of others) {
      const other = esewaForm(pair, { ...overrides, transaction_uuid: form.transaction_uuid });
      const answer = await postForm(t.app, ESEWA_FORM, other);
      expect([answer.status, answer.json()]).toEqual([400, { code: 0, error_message: 'This transaction_uuid was already used for a payment with other amounts: use a new transaction_uuid for a new payment.' }]);
    }
    expect((await findPayment(t.db, pidxOf(first.location!)))!).toMatchObject({ amount: 11000, status: 'Initiated' });
  });

  it('two posts at once make one payment', async () => {
    const form = esewaForm(pair);
    const answers = await Promise.all(Array.from({ length: 8 }, () => postForm(t.app, ESEWA_FORM, form)));
    expect(new Set(answers.map((a) => `${a.status} ${a.location}`)).size).toBe(1);
    expect((await t.db.query('SELECT 1 FROM payments WHERE purchase_order_id = $1', [form.transaction_uuid])).length).toBe(1);
  });
});

describe('environments and merchants', () => {
  it('a live product code makes a live payment, paid with a live wallet; a live code of a merchant not approved is refused', async () => {
    const live = merchant.esewa.live;
    const answer = await postForm(t.app, ESEWA_FORM, esewaForm(live));
    expect(answer.status).toBe(302);
    const pidx = pidxOf(answer.location!);
    expect((await findPayment(t.db, pidx))!.environment).toBe('live');
    const payer = await operatorWallet(t.ctx, { balance: 100_000 });
    const done = await payWithLiveWallet(payerBrowser(t.app), t.sentOtps, pidx, payer);
    expect(readData(done.location!, live.secret_key)).toMatchObject({ verified: true, fields: { status: 'COMPLETE', product_code: live.product_code } });
    const signedUp = await newMerchant(t.ctx);
    await t.db.query(`UPDATE merchants SET status = 'new' WHERE id = $1`, [signedUp.merchant.id]);
    const refused = await postForm(t.app, ESEWA_FORM, esewaForm(signedUp.esewa.live));
    expect([refused.status, refused.json()]).toEqual([400, { code: 0, error_message: 'Your live account is not approved yet: apply with your business details in the dashboard.' }]);
    expect((await postForm(t.app, ESEWA_FORM, esewaForm(signedUp.esewa.test))).status).toBe(302);
  });

  it('a form signed with the other environment’s key, or another merchant’s, is ES104', async () => {
    const other = await newMerchant(t.ctx);
    for (const secret_key of [merchant.esewa.live.secret_key, other.esewa.test.secret_key]) {
      const answer = await postForm(t.app, ESEWA_FORM, esewaForm({ product_code: pair.product_code, secret_key }));
      expect([answer.status, answer.json()]).toEqual([400, { code: 'ES104', message: 'Invalid payload signature.' }]);
    }
  });

  it('signs over the fields signed_field_names names, in its order', async () => {
    const names = 'product_code,amount,total_amount,success_url,transaction_uuid';
    const answer = await postForm(t.app, ESEWA_FORM, esewaForm(pair, {}, names));
    expect(answer.status, answer.body).toBe(302);
    const form = esewaForm(pair, {}, names);
    const reordered = { ...form, signature: sign(pair.secret_key, form, 'total_amount,transaction_uuid,product_code,amount,success_url') };
    expect((await postForm(t.app, ESEWA_FORM, reordered)).json()).toEqual({ code: 'ES104', message: 'Invalid payload signature.' });
  });
});

describe('eSewa’s published test pair', () => {
  it('the demo merchant answers to EPAYTEST in test, so eSewa’s own example runs unchanged; live, or without a demo merchant, it is unknown', async () => {
    const own = await startTestApp({ ownDb: true });
    try {
      const form = {
        amount: '100',
        tax_amount: '10',
        total_amount: '110',
        transaction_uuid: '241028',
        product_code: 'EPAYTEST',
        product_service_charge: '0',
        product_delivery_charge: '0',
        success_url: 'https://shop.example.com/success',
        failure_url: 'https://shop.example.com/failure',
        signed_field_names: 'total_amount,transaction_uuid,product_code',
        signature: 'i94zsd3oXF6ZsSr/kGqT4sSzYQzjj1W/waxjWyRwaME=',
      };
      const before = await postForm(own.app, ESEWA_FORM, form);
      expect([before.status, before.json()]).toEqual([400, { code: 0, error_message: 'Unable to fetch merchant key. Please try again later.' }]);
      const demo = (await ensureDemoMerchant(own.ctx))!;
      await ensureDemoMerchant(own.ctx);
      const answer = await postForm(own.app, ESEWA_FORM, form);
      expect(answer.status, answer.body).toBe(302);
      const payment = (await findPayment(own.db, pidxOf(answer.location!)))!;
      expect(payment).toMatchObject({ merchant_id: demo.merchant.id, environment: 'test', amount: 11000 });
      const done = await payerBrowser(own.app).pay(payment.pidx, '9806800005', '1122', '123456');
      const { fields, verified } = readData(done.location!, ESEWA_TEST_PAIR.secretKey);
      expect([verified, fields.product_code, fields.status]).toEqual([true, 'EPAYTEST', 'COMPLETE']);
      const status = await statusCheck(own.app, { product_code: 'EPAYTEST', total_amount: '110.0', transaction_uuid: '241028' });
      expect(status.json()).toMatchObject({ status: 'COMPLETE', ref_id: fields.transaction_code });
      const rows = await own.db.query<{ environment: string; published: boolean }>("SELECT environment, published FROM esewa_credentials WHERE product_code = 'EPAYTEST'");
      expect(rows).toEqual([{ environment: 'test', published: true }]);

      // The demo merchant's own test code shares its uuids with EPAYTEST (one merchant, one environment): one payment, one code.
      const [{ product_code: own_code }] = await own.db.query<{ product_code: string }>("SELECT product_code FROM esewa_credentials WHERE merchant_id = $1 AND environment = 'test' AND NOT published", [demo.merchant.id]);
      const ownPair = { product_code: own_code, secret_key: (await findEsewaCredential(own.ctx, own_code))!.secretKeys[0] };
      const again = await postForm(own.app, ESEWA_FORM, esewaForm(ownPair, { transaction_uuid: '241028' }));
      expect([again.status, again.json()]).toEqual([400, { code: 0, error_message: 'This transaction_uuid was already used for a payment through another product code: use a new transaction_uuid for a new payment.' }]);
      const asked = await statusCheck(own.app, { product_code: own_code, total_amount: '110', transaction_uuid: '241028' });
      expect(asked.json().status).toBe('NOT_FOUND');
    } finally {
      await own.close();
    }
  });
});
