import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { merchantApi, validInitiate } from '../../test/api-client.js';
import { callbackParams, payerBrowser } from '../../test/portal-client.js';
import { newMerchant, startTestApp, type TestApp } from '../../test/test-app.js';
import { verifyLedger } from '../ledger/verify-ledger.js';
import { descriptorOf, providerNames } from '../providers/registry.js';

let t: TestApp;
let api: ReturnType<typeof merchantApi>;

beforeAll(async () => {
  t = await startTestApp();
  api = merchantApi(t.app, (await newMerchant(t.ctx, { fee_bps: 250 })).test_secret_key);
});
afterAll(() => t.close());

/** The form actions of a hosted page, in order, as a browser reads them. */
const formActions = (body: string) => [...body.matchAll(/<form method="post" action="([^"]+)"/g)].map((m) => m[1].replaceAll('&amp;', '&'));
const attemptOf = (body: string) => /name="attempt" value="([^"]+)"/.exec(body)![1];

async function expectLedgerConsistent() {
  const broken = (await verifyLedger(t.db)).filter((r) => !r.holds);
  expect(broken).toEqual([]);
}

describe('the hosted payment page', () => {
  it('pays at payment_url (the payment in its query) and redirects to return_url with every callback parameter', async () => {
    const { body: initiated } = await api.initiate(validInitiate({ amount: 123456, purchase_order_name: 'Tea' }));
    const paymentUrl = new URL(initiated.payment_url);
    expect(initiated.payment_url).toBe(`http://bhuktani.test/pay/?pidx=${initiated.pidx}`);
    expect(paymentUrl.searchParams.get('pidx')).toBe(initiated.pidx);
    const browser = payerBrowser(t.app);
    const page = await browser.get(`${paymentUrl.pathname}${paymentUrl.search}`);
    expect(page.status).toBe(200);
    expect(page.body).toContain('Rs. 1,234.56');
    expect(page.body).toContain('TEST MODE');
    // Every step stays at the addresses of that shape (the providers' buttons first).
    // A button per registered provider, and one more for each that also issues a QR.
    const providerButtons = providerNames.length + providerNames.filter((name) => descriptorOf(name).qr).length;
    expect(formActions(page.body)).toEqual([...Array(providerButtons).fill(`/pay/provider?pidx=${initiated.pidx}`), `/pay/wallet?pidx=${initiated.pidx}`, `/pay/cancel?pidx=${initiated.pidx}`]);
    const walletPosted = await browser.post(formActions(page.body)[providerButtons], { mobile: '9800000001', mpin: '1111' });
    expect(walletPosted.status).toBe(303);
    expect(walletPosted.location).toMatch(new RegExp(`^/pay/\\?pidx=${initiated.pidx}&attempt=[\\w-]+$`));
    const otpPage = await browser.get(walletPosted.location!);
    expect(otpPage.body).toContain('name="otp"');
    expect(formActions(otpPage.body)).toEqual([`/pay/confirm?pidx=${initiated.pidx}`, `/pay/cancel?pidx=${initiated.pidx}`]);
    const done = await browser.post(formActions(otpPage.body)[0], { attempt: attemptOf(otpPage.body), otp: '987654' });
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
    expect(params.txnId).toBe(params.transaction_id);
    const lookup = await api.lookup(initiated.pidx);
    expect(lookup.status).toBe(200);
    expect(lookup.body).toMatchObject({ status: 'Completed', transaction_id: params.transaction_id, fee: 3086, refunded: false });
    await expectLedgerConsistent();
  });

  it('pays at the address given out before (/pay/<pidx>), each step at its path', async () => {
    const { body: initiated } = await api.initiate(validInitiate({ amount: 4321 }));
    const browser = payerBrowser(t.app);
    expect((await browser.get(`/pay/${initiated.pidx}`)).status).toBe(200);
    const walletPosted = await browser.post(`/pay/${initiated.pidx}/wallet`, { mobile: '9800000001', mpin: '1111' });
    expect(walletPosted.status).toBe(303);
    const token = new URL(walletPosted.location!, 'http://x.invalid').searchParams.get('attempt')!;
    const otpPage = await browser.get(`/pay/${initiated.pidx}/otp/${token}`);
    expect(otpPage.status).toBe(200);
    expect(otpPage.body).toContain('name="otp"');
    const done = await browser.post(`/pay/${initiated.pidx}/confirm`, { attempt: token, otp: '987654' });
    expect(done.status).toBe(303);
    const params = callbackParams(done.location!);
    expect(params).toMatchObject({ pidx: initiated.pidx, status: 'Completed', amount: '4321' });
    expect(params.txnId).toBe(params.transaction_id);
    expect((await api.lookup(initiated.pidx)).body).toMatchObject({ status: 'Completed', transaction_id: params.transaction_id });
    await expectLedgerConsistent();
  });

  it('answers a missing, empty, repeated, overlong or unknown pidx in the query with its not-found page', async () => {
    const { body: initiated } = await api.initiate();
    const pidx = initiated.pidx;
    const queries = ['', '?', '?pidx=', `?pidx=${pidx}&pidx=${pidx}`, `?pidx[]=${pidx}`, `?pidx=${'a'.repeat(65)}`, `?pidx=${'a'.repeat(8000)}`, '?pidx=no-such-payment', '?pidx=%3Cscript%3E', `?PIDX=${pidx}`];
    for (const query of queries) {
      for (const [method, url] of [['GET', `/pay/${query}`], ['GET', `/pay${query}`], ['POST', `/pay/wallet${query}`], ['POST', `/pay/confirm${query}`], ['POST', `/pay/cancel${query}`]] as const) {
        const page = await t.app.inject({ method, url, headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: method === 'POST' ? 'mobile=9800000001&mpin=1111' : undefined });
        expect([url.slice(0, 80), page.statusCode], 'status').toEqual([url.slice(0, 80), 404]);
        expect(page.headers['content-type']).toMatch(/^text\/html/);
        expect(page.body).toContain('Payment not found');
      }
    }
    expect((await api.lookup(pidx)).body.status).toBe('Initiated');
  });

  it('cancels: User canceled in the callback and 400 from lookup', async () => {
    const { body: initiated } = await api.initiate();
    const browser = payerBrowser(t.app);
    await browser.open(initiated.pidx);
    const done = await browser.cancel(initiated.pidx);
    expect(done.status).toBe(303);
    expect(callbackParams(done.location!)).toMatchObject({ status: 'User canceled', transaction_id: '', tidx: '', txnId: '', mobile: '' });
    const lookup = await api.lookup(initiated.pidx);
    expect(lookup.status).toBe(400);
    expect(lookup.body).toMatchObject({ status: 'User canceled', transaction_id: null, refunded: false, total_amount: 1000 });
  });

  it('rejects a post without the CSRF token, at either address', async () => {
    const { body: initiated } = await api.initiate();
    for (const url of [`/pay/cancel?pidx=${initiated.pidx}`, `/pay/${initiated.pidx}/cancel`]) {
      const response = await t.app.inject({ method: 'POST', url, headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: 'csrf_token=forged' });
      expect(response.statusCode).toBe(403);
      expect(response.body).toContain('Form expired');
    }
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
