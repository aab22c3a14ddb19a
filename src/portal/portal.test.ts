import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { merchantApi, validInitiate } from '../../test/api-client.js';
import { callbackParams, payerBrowser } from '../../test/portal-client.js';
import { newMerchant, startTestApp, type TestApp } from '../../test/test-app.js';
import { verifyLedger } from '../ledger/verify-ledger.js';

let t: TestApp;
let api: ReturnType<typeof merchantApi>;

beforeAll(async () => {
  t = await startTestApp();
  api = merchantApi(t.app, (await newMerchant(t.ctx, { fee_bps: 250 })).test_secret_key);
});
afterAll(() => t.close());

async function expectLedgerConsistent() {
  const broken = (await verifyLedger(t.db)).filter((r) => !r.holds);
  expect(broken).toEqual([]);
}

describe('the hosted payment page', () => {
  it('pays with a sandbox wallet and redirects to return_url with every callback parameter', async () => {
    const { body: initiated } = await api.initiate(validInitiate({ amount: 123456, purchase_order_name: 'Tea' }));
    const browser = payerBrowser(t.app);
    const page = await browser.open(initiated.pidx);
    expect(page.status).toBe(200);
    expect(page.body).toContain('Rs. 1,234.56');
    expect(page.body).toContain('TEST MODE');
    const done = await browser.pay(initiated.pidx);
    expect(done.status).toBe(303);
    expect(done.location!.startsWith('https://shop.example.com/return?cart=7&')).toBe(true);
    const params = callbackParams(done.location!);
    expect(params).toMatchObject({
      pidx: initiated.pidx,
      status: 'Completed',
      amount: '123456',
      total_amount: '123456',
      mobile: '98XXXXXXX1',
      purchase_order_name: 'Tea',
      cart: '7',
    });
    expect(params.transaction_id).toMatch(/^[\w-]{22}$/);
    expect(params.tidx).toBe(params.transaction_id);
    const lookup = await api.lookup(initiated.pidx);
    expect(lookup.status).toBe(200);
    expect(lookup.body).toMatchObject({ status: 'Completed', transaction_id: params.transaction_id, fee: 3086, refunded: false });
    await expectLedgerConsistent();
  });

  it('cancels: User canceled in the callback and 400 from lookup', async () => {
    const { body: initiated } = await api.initiate();
    const browser = payerBrowser(t.app);
    await browser.open(initiated.pidx);
    const done = await browser.cancel(initiated.pidx);
    expect(done.status).toBe(303);
    expect(callbackParams(done.location!)).toMatchObject({ status: 'User canceled', transaction_id: '', tidx: '', mobile: '' });
    const lookup = await api.lookup(initiated.pidx);
    expect(lookup.status).toBe(400);
    expect(lookup.body).toMatchObject({ status: 'User canceled', transaction_id: null, refunded: false, total_amount: 1000 });
  });

  it('rejects a post without the CSRF token', async () => {
    const { body: initiated } = await api.initiate();
    const response = await t.app.inject({
      method: 'POST',
      url: `/pay/${initiated.pidx}/cancel`,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'csrf_token=forged',
    });
    expect(response.statusCode).toBe(403);
    expect((await api.lookup(initiated.pidx)).body.status).toBe('Initiated');
  });

  it('escapes what the merchant sent', async () => {
    const { body: initiated } = await api.initiate(validInitiate({ purchase_order_name: '<script>alert(1)</script>' }));
    const page = await payerBrowser(t.app).open(initiated.pidx);
    expect(page.body).not.toContain('<script>alert(1)</script>');
    expect(page.body).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
  });
});

describe('racing payments', () => {
  it('20 confirms of one payment complete it once, with one journal and one debit', async () => {
    const { body: initiated } = await api.initiate(validInitiate({ amount: 5000 }));
    const browser = payerBrowser(t.app);
    await browser.open(initiated.pidx);
    await browser.wallet(initiated.pidx, '9800000002', '1111');
    const { cookie, ...fields } = browser.confirmFields('987654');
    const responses = await Promise.all(
      Array.from({ length: 20 }, () =>
        t.app.inject({
          method: 'POST',
          url: `/pay/${initiated.pidx}/confirm`,
          headers: { 'content-type': 'application/x-www-form-urlencoded', cookie },
          payload: new URLSearchParams(fields).toString(),
        }),
      ),
    );
    const redirects = responses.filter((r) => r.statusCode === 303).map((r) => callbackParams(r.headers.location as string));
    expect(redirects.length).toBe(20);
    expect(new Set(redirects.map((p) => p.transaction_id)).size).toBe(1);
    const journals = await t.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM journals WHERE pidx = $1 AND kind = 'payment'`, [initiated.pidx]);
    expect(journals[0].n).toBe(1);
    const debits = await t.db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM postings p JOIN journals j ON j.id = p.journal_id WHERE j.pidx = $1 AND p.amount < 0`,
      [initiated.pidx],
    );
    expect(debits[0].n).toBe(1);
    await expectLedgerConsistent();
  });
});
