// Paying with Fonepay in the sandbox, as a payer does it over HTTP: the hosted page's `Fonepay` (the
// web checkout) and `Fonepay QR`, against the simulator, and the hostile returns of either: a DV that
// does not hold, another attempt's signed return, answers that never come. The payment completes only
// on Fonepay's own server-to-server answer, at most once; the list names it `Fonepay payment`.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyLedger } from '../../ledger/verify-ledger.js';
import { paymentPath } from '../../payments/payment-url.js';
import { stepAction } from '../../portal/checkout-address.js';
import { merchantApi, validInitiate } from '../../../test/api-client.js';
import { callbackParams } from '../../../test/portal-client.js';
import { handoffLink, providerPayer } from '../../../test/provider-payer.js';
import { newMerchant, startTestApp, type TestApp } from '../../../test/test-app.js';
import type { ProviderName } from '../registry.js';

const FONEPAY = 'fonepay' as ProviderName;
let t: TestApp;
let api: ReturnType<typeof merchantApi>;

beforeAll(async () => {
  // A store of its own: provider health and set-up are the whole store's.
  t = await startTestApp({ ownDb: true, config: { providerTimeoutMs: 300, providerReconcileIntervalSeconds: 1, providerReconcileLimit: 4 } });
  api = merchantApi(t.app, (await newMerchant(t.ctx, { name: 'Tea House' })).test_secret_key);
});
afterAll(() => t.close());

async function initiate(amount = 1550) {
  const { body } = await api.initiate(validInitiate({ amount }));
  return body.pidx as string;
}
const local = (url: string) => url.replace(t.ctx.config.publicUrl, '');
const statusOf = async (pidx: string) => (await api.lookup(pidx)).body.status;

describe('the Fonepay web checkout', () => {
  it('is a button on the hosted page, before `Fonepay QR`', async () => {
    const page = await providerPayer(t.app).browser.open(await initiate());
    const buttons = [...page.body.matchAll(/<button type="submit" class="provider[^"]*">([^<]+)<\/button>/g)].map((m) => m[1]);
    expect(buttons.indexOf('Fonepay')).toBeGreaterThan(-1);
    expect(buttons.indexOf('Fonepay')).toBeLessThan(buttons.indexOf('Fonepay QR'));
  });

  it('completes once verificationMerchant says paid; the list says Fonepay payment', async () => {
    const pidx = await initiate(1550);
    const back = await providerPayer(t.app).pay(pidx, FONEPAY, 'paid');
    const callback = callbackParams(back.location!);
    expect(callback).toMatchObject({ pidx, status: 'Completed', amount: '1550' });
    const lookup = await api.lookup(pidx);
    expect(lookup.body).toMatchObject({ status: 'Completed', transaction_id: callback.transaction_id });
    expect((await api.transactions({ purchase_order_id: lookup.body.purchase_order_id })).body.records[0].type.name).toBe('Fonepay payment');
    expect((await verifyLedger(t.db)).filter((r) => !r.holds)).toEqual([]);
  });

  it('declined: back on the hosted page, told so, the payment payable', async () => {
    const pidx = await initiate();
    const back = await providerPayer(t.app).pay(pidx, FONEPAY, 'canceled');
    expect(back.location).toBe(`${paymentPath(pidx)}&notice=provider_not_paid`);
    expect(await statusOf(pidx)).toBe('Initiated');
  });

  /** The return Fonepay signed for a paid attempt of a new payment, and the attempt's address. */
  async function paidReturn() {
    const pidx = await initiate();
    const payer = providerPayer(t.app);
    const returnUrl = await payer.pick(await payer.choose(pidx, FONEPAY), 'paid');
    return { pidx, payer, returnUrl: new URL(returnUrl) };
  }

  it('a return whose DV does not hold, or whose amount, trace id or merchant was changed under it, completes nothing', async () => {
    const { pidx, payer, returnUrl } = await paidReturn();
    for (const [name, value] of [['DV', 'AB'.repeat(64)], ['R_AMT', '1.00'], ['UID', '12345'], ['PID', 'NBQM']] as const) {
      const forged = new URL(returnUrl);
      forged.searchParams.set(name, value);
      const back = await payer.back(forged.toString());
      expect(back.location ?? '').not.toContain('status=Completed');
      expect(await statusOf(pidx)).toBe('Initiated');
    }
    // The genuine return still completes it, at the attempt's next turn (each return above asked
    // Fonepay, or found the last question two seconds young).
    t.clock.advance(2);
    expect(callbackParams((await payer.back(returnUrl.toString())).location!)).toMatchObject({ pidx, status: 'Completed' });
  });

  it('another attempt’s signed return, replayed at this attempt’s address, finds nothing', async () => {
    const one = await paidReturn();
    const other = await paidReturn();
    const replayed = new URL(other.returnUrl);
    replayed.pathname = one.returnUrl.pathname;
    const back = await one.payer.back(replayed.toString());
    expect(back.status).toBe(404);
    expect(await statusOf(one.pidx)).toBe('Initiated');
    expect(await statusOf(other.pidx)).toBe('Initiated');
  });

  it('a verification that never answers holds the payment Pending, and completes nothing', async () => {
    const pidx = await initiate();
    const back = await providerPayer(t.app).pay(pidx, FONEPAY, 'never_answers');
    expect(callbackParams(back.location!)).toMatchObject({ pidx, status: 'Pending' });
    expect(await statusOf(pidx)).toBe('Pending');
  });
});

describe('the Fonepay QR', () => {
  /** Presses `Fonepay QR`: the QR page it lands on, and its attempt. */
  async function chooseQr(pidx: string) {
    const payer = providerPayer(t.app);
    await payer.browser.open(pidx);
    const chosen = await payer.browser.post(stepAction('provider', pidx), { provider: 'fonepay', way: 'qr' });
    const link = chosen.location ?? handoffLink(chosen.body);
    expect(link, `${chosen.status} ${chosen.body.slice(0, 3000)}`).toMatch(/^\/pay\/qr\/\w+$/);
    const page = await payer.browser.get(link!);
    expect(page.status).toBe(200);
    const bankApp = /href="([^"]+\/sandbox\/fonepay\/bank-app\?qr=[^"]+)"/.exec(page.body)![1].replaceAll('&amp;', '&');
    return { payer, page, qrPage: link!, bankApp: local(bankApp) };
  }
  const waitAnswer = async (qrPage: string) => {
    t.clock.advance(3);
    return JSON.parse((await t.app.inject({ method: 'GET', url: `${qrPage}/wait` })).body) as { next?: string; waiting?: true };
  };
  /** The bank app pays (or declines) the QR, as a second device would. */
  async function bankApp(url: string, outcome: string) {
    const app = providerPayer(t.app).browser;
    const page = await app.get(url);
    const form = [...page.body.matchAll(/<form method="post"[\s\S]*?<\/form>/g)].map((m) => m[0]).find((f) => f.includes(`value="${outcome}"`))!;
    const fields = Object.fromEntries([...form.matchAll(/name="([^"]+)" value="([^"]*)"/g)].map(([, n, v]) => [n, v.replaceAll('&amp;', '&')]));
    return app.post('/sandbox/fonepay/bank-app', fields);
  }

  it('shows Fonepay’s QR with the amount and the business; once the bank app pays, the wait names the way on to the merchant', async () => {
    const pidx = await initiate(45050);
    const { payer, page, qrPage, bankApp: url } = await chooseQr(pidx);
    expect(page.body).toContain('<svg');
    expect(page.body).toContain('Rs. 450.50');
    expect(page.body).toContain('Tea House');
    expect(await waitAnswer(qrPage)).toEqual({ waiting: true });
    expect((await bankApp(url, 'paid')).body).toContain('You paid Rs. 450.50');
    // Straight on to the merchant's return_url, signed, as the provider's return address would send the payer.
    const { next } = await waitAnswer(qrPage);
    expect(next).toMatch(/^https:\/\/shop\.example\.com\/return\?cart=7&/);
    expect(callbackParams(next!)).toMatchObject({ pidx, status: 'Completed', amount: '45050', cart: '7' });
    expect(await statusOf(pidx)).toBe('Completed');
  });

  it('without script, the page’s button asks: not paid yet, then on once paid', async () => {
    const pidx = await initiate();
    const { payer, qrPage, bankApp: url } = await chooseQr(pidx);
    t.clock.advance(3);
    const asked = await payer.browser.get(`${qrPage}?ask=1`);
    expect(asked.status).toBe(200);
    expect(asked.body).toContain('Not paid yet');
    await bankApp(url, 'paid');
    t.clock.advance(3);
    const after = await payer.browser.get(`${qrPage}?ask=1`);
    expect(after.status).toBe(303);
    expect(after.location).toMatch(/^https:\/\/shop\.example\.com\/return\?cart=7&/);
    expect(callbackParams(after.location!)).toMatchObject({ pidx, status: 'Completed' });
  });

  it('declined in the bank app: on to the hosted page, told so, payable', async () => {
    const pidx = await initiate();
    const { payer, qrPage, bankApp: url } = await chooseQr(pidx);
    await bankApp(url, 'canceled');
    const { next } = await waitAnswer(qrPage);
    const back = await payer.browser.get(next!);
    expect(back.location).toBe(`${paymentPath(pidx)}&notice=provider_not_paid`);
    expect(await statusOf(pidx)).toBe('Initiated');
  });

  it('a status check that never answers: the page keeps waiting, and nothing completes', async () => {
    const pidx = await initiate();
    const { qrPage, bankApp: url } = await chooseQr(pidx);
    await bankApp(url, 'never_answers');
    expect(await waitAnswer(qrPage)).toEqual({ waiting: true });
    expect(await statusOf(pidx)).toBe('Initiated');
  });

  it('a QR page of no attempt, or of a web checkout, is not found', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/pay/qr/NoSuchAttempt1' })).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'GET', url: '/pay/qr/%3Cscript%3E/wait' })).statusCode).toBe(404);
    // A web checkout's attempt: no QR page, and its wait takes no turn from the reconciliation job.
    const pidx = await initiate();
    const payer = providerPayer(t.app);
    await payer.browser.open(pidx);
    await payer.browser.post(stepAction('provider', pidx), { provider: 'fonepay' });
    const [attempt] = await t.db.query<{ idx: string }>('SELECT idx FROM provider_attempts WHERE pidx = $1', [pidx]);
    expect((await t.app.inject({ method: 'GET', url: `/pay/qr/${attempt.idx}` })).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'GET', url: `/pay/qr/${attempt.idx}/wait` })).statusCode).toBe(404);
    const [after] = await t.db.query<{ lease_until: Date | null }>('SELECT lease_until FROM provider_attempts WHERE idx = $1', [attempt.idx]);
    expect(after.lease_until === null || after.lease_until <= t.clock.now()).toBe(true);
  });
});
