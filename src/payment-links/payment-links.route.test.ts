// The payment links API over HTTP: create (fixed or payer's amount, expiry,
// max payments, what to ask), list, one with its totals, deactivate and activate; its errors in the
// contract's shapes; another merchant's or the other environment's link is Not found; and a payment
// through a link is an ordinary payment that names its link (lookup, list, webhooks, refunds).
import { afterAll, describe, expect, it } from 'vitest';
import { merchantApi, refund } from '../../test/api-client.js';
import { codeOf, linkApi, linkPayer } from '../../test/link-client.js';
import { callbackParams } from '../../test/portal-client.js';
import { newMerchant, startTestApp } from '../../test/test-app.js';
import { verifyLedger } from '../ledger/verify-ledger.js';
import { setWebhookEndpoint } from '../webhooks/set-webhook-endpoint.js';

const t = await startTestApp();
afterAll(() => t.close());
const PUBLIC_URL = t.ctx.config.publicUrl;

async function shop() {
  const created = await newMerchant(t.ctx, { name: 'Momo Corner' });
  return { created, links: linkApi(t.app, created.test_secret_key), liveLinks: linkApi(t.app, created.live_secret_key), api: merchantApi(t.app, created.test_secret_key) };
}

const NOT_FOUND = { detail: 'Not found.', error_key: 'validation_error' };

describe('creating a payment link', () => {
  it('answers 201 with its address, QR codes, settings and zero totals', async () => {
    const { links } = await shop();
    const { status, body } = await links.create({ name: 'Momo platter', amount: 45000, description: 'Ten momos.', ask: ['name', 'phone'] });
    expect(status).toBe(201);
    const code = codeOf(body.url);
    expect(code).toMatch(/^[A-Za-z0-9]{9}$/);
    expect(body).toStrictEqual({
      idx: expect.stringMatching(/^[A-Za-z0-9]{22}$/),
      url: `${PUBLIC_URL}/l/${code}`,
      qr_svg_url: `${PUBLIC_URL}/l/${code}/qr.svg`,
      qr_png_url: `${PUBLIC_URL}/l/${code}/qr.png`,
      name: 'Momo platter',
      description: 'Ten momos.',
      amount: 45000,
      min_amount: null,
      max_amount: null,
      expires_on: null,
      max_payments: null,
      ask: ['name', 'phone'],
      active: true,
      status: 'active',
      payments_count: 0,
      payments_total: 0,
      refunded_total: 0,
      created_by: 'api',
      created_on: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}\+05:45$/),
    });
  });

  it('takes a range, an expiry day (through its end in TIME_ZONE) or instant, and a most number of payments; form-encoded too', async () => {
    const { links } = await shop();
    const range = await links.create({ name: 'Tuition', min_amount: '100000', max_amount: 1500000, expires_on: '2099-05-31', max_payments: 30 });
    expect(range.status).toBe(201);
    expect(range.body).toMatchObject({ amount: null, min_amount: 100000, max_amount: 1500000, max_payments: 30, expires_on: '2099-06-01T00:00:00.000000+05:45', ask: [] });
    const instant = await links.create({ name: 'Concert', amount: 150000, expires_on: '2099-01-01T10:00:00Z' });
    expect(instant.body.expires_on).toBe('2099-01-01T15:45:00.000000+05:45');
    const form = await links.create('name=Tea&amount=1000&ask=email', { 'content-type': 'application/x-www-form-urlencoded' });
    expect(form.status, JSON.stringify(form.body)).toBe(201);
    expect(form.body.ask).toEqual(['email']);
    const repeated = await links.create('name=Tea&amount=1000&ask=email&ask=phone', { 'content-type': 'application/x-www-form-urlencoded' });
    expect(repeated.body.ask).toEqual(['email', 'phone']);
    expect((await links.create({ name: 'Tea', amount: 1000, ask: 'name, phone' })).body.ask).toEqual(['name', 'phone']);
  });

  it('refuses bad input with every failing field at once, in the contract’s shape, and stores nothing', async () => {
    const { created, links } = await shop();
    const cases: [unknown, Record<string, unknown>][] = [
      [{}, { name: ['This field is required.'] }],
      [{ name: 'x' }, { amount: ['Give amount, or min_amount and max_amount.'] }],
      [{ name: 'x', amount: 1000, min_amount: 100, max_amount: 2000 }, { amount: ['Give amount, or min_amount and max_amount, not both.'] }],
      [{ name: 'x', min_amount: 100 }, { max_amount: ['This field is required.'] }],
      [{ name: 'x', max_amount: 100 }, { min_amount: ['This field is required.'] }],
      [{ name: 'x', min_amount: 5000, max_amount: 1000 }, { max_amount: ['Ensure this value is greater than or equal to min_amount.'] }],
      [{ name: 'x', amount: 9 }, { amount: ['Amount should be at least 10 paisa.'] }],
      [{ name: 'x', amount: 10_000_000_001 }, { amount: ['Ensure this value is less than or equal to 10000000000.'] }],
      [{ name: ' ', amount: 'ten' }, { name: ['This field may not be blank.'], amount: ['A valid integer is required.'] }],
      [{ name: 'x', amount: 1000, expires_on: '2001-01-01' }, { expires_on: ['The expiry must be in the future.'] }],
      [
        { name: 'x', amount: 1000, expires_on: '2099-02-30' },
        { expires_on: ['Datetime has wrong format. Use one of these formats instead: YYYY-MM-DD, YYYY-MM-DDThh:mm[:ss[.uuuuuu]]±hh:mm.'] },
      ],
      [
        { name: 'x', amount: 1000, expires_on: '2099-01-01T10:00' },
        { expires_on: ['Datetime has wrong format. Use one of these formats instead: YYYY-MM-DD, YYYY-MM-DDThh:mm[:ss[.uuuuuu]]±hh:mm.'] },
      ],
      [{ name: 'x', amount: 1000, max_payments: 0 }, { max_payments: ['Ensure this value is greater than or equal to 1.'] }],
      [{ name: 'x', amount: 1000, ask: ['name', 'address'] }, { ask: { '1': ['"address" is not a valid choice.'] } }],
      [{ name: 'x', amount: 1000, ask: ['name', 'phone', 'email', 'name'] }, { ask: ['Ensure this field has no more than 3 elements.'] }],
      [{ name: 'x', amount: 1000, ask: ['name', 'name'] }, { ask: ['Ask for each of name, phone and email at most once.'] }],
      [{ name: 'x', amount: 1000, ask: 'name,mobile' }, { ask: { '1': ['"mobile" is not a valid choice.'] } }],
      [{ name: 'x', amount: 1000, ask: { name: true } }, { ask: ['Expected a list of items but got type "object".'] }],
      [[1, 2], { non_field_errors: ['Invalid data. Expected a dictionary, but got list.'] }],
    ];
    for (const [body, fields] of cases) {
      const answer = await links.create(body as object);
      expect({ body, status: answer.status, answer: answer.body }).toStrictEqual({ body, status: 400, answer: { ...fields, error_key: 'validation_error' } });
    }
    const malformed = await links.create('{"name":', { 'content-type': 'application/json' });
    expect(malformed.status).toBe(400);
    expect(malformed.body.error_key).toBe('validation_error');
    const [{ n }] = await t.db.query<{ n: number }>('SELECT count(*)::int AS n FROM payment_links WHERE merchant_id = $1', [created.merchant.id]);
    expect(n).toBe(0);
  });

  it('is idempotent with an Idempotency-Key', async () => {
    const { links } = await shop();
    const first = await links.create({ name: 'Once', amount: 1000 }, { 'idempotency-key': 'link-once' });
    const again = await links.create({ name: 'Once', amount: 1000 }, { 'idempotency-key': 'link-once' });
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.body.idx).toBe(first.body.idx);
    expect((await links.create({ name: 'Other', amount: 1000 }, { 'idempotency-key': 'link-once' })).status).toBe(409);
  });
});

describe('reading, deactivating and activating', () => {
  it('lists newest first in the paginated shape, each environment its own', async () => {
    const { links, liveLinks } = await shop();
    const made = [];
    for (const name of ['One', 'Two', 'Three']) made.push((await links.create({ name, amount: 1000 })).body.idx);
    const page = await links.list('?page_size=2');
    expect(page.body).toMatchObject({ total_pages: 2, total_records: 3, previous: null, record_range: [1, 2], current_page: 1 });
    expect(page.body.next).toBe(`${PUBLIC_URL}/api/v2/payment-links/?page=2&page_size=2`);
    expect(page.body.records.map((r: { idx: string }) => r.idx)).toEqual([made[2], made[1]]);
    expect((await links.list('?page=2&page_size=2')).body.records.map((r: { idx: string }) => r.idx)).toEqual([made[0]]);
    expect(await links.list('?page=3&page_size=2')).toMatchObject({ status: 404, body: { detail: 'Invalid page.' } });
    expect(await links.list('?page=x')).toMatchObject({ status: 404, body: { detail: 'Invalid page.' } });
    expect((await liveLinks.list()).body).toMatchObject({ total_records: 0, records: [], record_range: [0, 0] });
  });

  it('deactivates and activates (each twice: nothing more changes), and the page answers 410 while it is off', async () => {
    const { links } = await shop();
    const { body: link } = await links.create({ name: 'Tea', amount: 1000 });
    for (let i = 0; i < 2; i++) expect((await links.deactivate(link.idx)).body).toMatchObject({ idx: link.idx, active: false, status: 'inactive' });
    const closed = await linkPayer(t.app).open(codeOf(link.url));
    expect(closed.status).toBe(410);
    expect(closed.body).toContain('has turned this payment link off');
    for (let i = 0; i < 2; i++) expect((await links.activate(link.idx)).body).toMatchObject({ active: true, status: 'active' });
    expect((await linkPayer(t.app).open(codeOf(link.url))).status).toBe(200);
  });

  it('another merchant’s link, or the other environment’s, is Not found, and nothing changes', async () => {
    const a = await shop();
    const b = await shop();
    const { body: link } = await a.links.create({ name: 'Tea', amount: 1000 });
    for (const intruder of [b.links, b.liveLinks, a.liveLinks]) {
      expect(await intruder.get(link.idx)).toMatchObject({ status: 404, body: NOT_FOUND });
      expect(await intruder.deactivate(link.idx)).toMatchObject({ status: 404, body: NOT_FOUND });
      expect(await intruder.activate(link.idx)).toMatchObject({ status: 404, body: NOT_FOUND });
      expect((await intruder.list()).body.total_records).toBe(0);
    }
    expect((await a.links.get(link.idx)).body).toMatchObject({ active: true });
    expect(await a.links.get('no-such-link')).toMatchObject({ status: 404, body: NOT_FOUND });
  });
});

describe('a payment through a link', () => {
  it('is an ordinary payment of the link’s merchant that names its link: lookup, list, refund, totals, webhook payload', async () => {
    const { created, links, api } = await shop();
    const { body: link } = await links.create({ name: 'Tuition', min_amount: 100000, max_amount: 1500000, ask: ['name', 'email'] });
    await setWebhookEndpoint(t.ctx, { merchantId: created.merchant.id, environment: 'test', url: 'https://hooks.example.com/momo' });
    const payer = linkPayer(t.app);
    const { answer, pidx } = await payer.start(codeOf(link.url), { amount: '1,500.50', name: 'Sita Sharma', email: 'sita@example.com' });
    expect(answer.status).toBe(303);
    expect(answer.location).toBe(`${PUBLIC_URL}/pay/?pidx=${pidx}`);
    const { done, receipt } = await payer.pay(pidx!);
    const callback = callbackParams(done.location!);
    expect(done.location!.startsWith(`${PUBLIC_URL}/l/${codeOf(link.url)}/paid?`)).toBe(true);
    expect(callback).toMatchObject({ pidx, status: 'Completed', amount: '150050', purchase_order_name: 'Tuition' });
    expect(receipt!.status).toBe(200);
    expect(receipt!.body).toContain('Payment complete');
    expect(receipt!.body).toContain(callback.transaction_id);

    expect((await api.lookup(pidx!)).body).toMatchObject({ pidx, status: 'Completed', total_amount: 150050 });
    const { body: list } = await api.transactions();
    expect(list.records).toHaveLength(1);
    expect(list.records[0]).toMatchObject({ idx: callback.transaction_id, pidx, amount: 150050, payment_link: link.idx, purchase_order_id: expect.stringMatching(new RegExp(`^${codeOf(link.url)}-`)) });
    const [payment] = await t.db.query<{ customer_info: unknown; payment_link: string }>('SELECT customer_info, payment_link FROM payments WHERE pidx = $1', [pidx]);
    expect(payment).toEqual({ customer_info: { name: 'Sita Sharma', email: 'sita@example.com' }, payment_link: link.idx });

    expect((await refund(t.app, created.test_secret_key, callback.transaction_id, { amount: 50 })).status).toBe(200);
    const refunded = (await api.transactions()).body.records;
    expect(refunded.map((r: { type: { name: string }; payment_link: string }) => [r.type.name, r.payment_link])).toEqual([
      ['Refund', link.idx],
      ['Wallet payment', link.idx],
    ]);
    expect((await links.get(link.idx)).body).toMatchObject({ payments_count: 1, payments_total: 150050, refunded_total: 50 });
    const hooks = await t.db.query<{ type: string; payload: Record<string, unknown> }>('SELECT type, payload FROM webhook_deliveries WHERE pidx = $1 ORDER BY id', [pidx]);
    expect(hooks.map((h) => [h.type, h.payload.payment_link, h.payload.status])).toEqual([
      ['payment.completed', link.idx, 'Completed'],
      ['refund.completed', link.idx, 'Partially refunded'],
    ]);
    expect((await verifyLedger(t.db)).filter((r) => !r.holds)).toEqual([]);
  });

  it('keeps the records of other payments as they were (no payment_link key)', async () => {
    const { api } = await shop();
    const { body } = await api.initiate();
    await linkPayer(t.app).pay(body.pidx);
    const { body: list } = await api.transactions();
    expect(Object.keys(list.records[0])).not.toContain('payment_link');
  });
});
