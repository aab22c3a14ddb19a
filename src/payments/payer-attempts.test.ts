// What a payer can get wrong on the hosted page: wrong MPINs and the wallet
// lock, wrong and stale OTPs, a wallet without the money, and links that can no longer be paid.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { merchantApi, validInitiate } from '../../test/api-client.js';
import {
  callbackParams,
  operatorWallet,
  otpSentFor,
  payerBrowser,
  payWithLiveWallet,
  walletBalanceOf,
  type TestWallet,
} from '../../test/portal-client.js';
import { newMerchant, startTestApp, type TestApp } from '../../test/test-app.js';
import { verifyLedger } from '../ledger/verify-ledger.js';

let t: TestApp;
let testApi: ReturnType<typeof merchantApi>;
let liveApi: ReturnType<typeof merchantApi>;

beforeAll(async () => {
  t = await startTestApp();
  const merchant = await newMerchant(t.ctx);
  testApi = merchantApi(t.app, merchant.test_secret_key);
  liveApi = merchantApi(t.app, merchant.live_secret_key);
});
afterAll(() => t.close());
afterEach(async () => {
  expect((await verifyLedger(t.db)).filter((r) => !r.holds)).toEqual([]);
});

async function initiate(api: ReturnType<typeof merchantApi>, overrides: Record<string, unknown> = {}): Promise<string> {
  const { status, body } = await api.initiate(validInitiate(overrides));
  expect(status).toBe(200);
  return body.pidx;
}

async function paymentJournals(pidx: string): Promise<number> {
  const [row] = await t.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM journals WHERE pidx = $1`, [pidx]);
  return row.n;
}

const WALLET_STEP = 'name="mpin"';
const OTP_STEP = 'name="otp"';

describe('wrong MPIN', () => {
  it('shows the attempts left and stays on the wallet step', async () => {
    const pidx = await initiate(testApi);
    const browser = payerBrowser(t.app);
    await browser.open(pidx);
    const first = await browser.wallet(pidx, '9800000001', '0000');
    expect(first.status).toBe(400);
    expect(first.body).toContain('Wrong MPIN. 4 attempts left.');
    expect(first.body).toContain(WALLET_STEP);
    expect(first.body).toContain('value="9800000001"');
    const second = await browser.wallet(pidx, '9800000001', '1234');
    expect(second.body).toContain('Wrong MPIN. 3 attempts left.');
    expect((await testApi.lookup(pidx)).body.status).toBe('Initiated');
  });

  it('five wrong MPINs lock a live wallet for 15 minutes, for every payment, even with the right MPIN', async () => {
    const payer = await operatorWallet(t.ctx, { balance: 100_000, mpin: '4321' });
    const pidx = await initiate(liveApi, { amount: 2500 });
    const browser = payerBrowser(t.app);
    await browser.open(pidx);
    for (const left of [4, 3, 2]) {
      expect((await browser.wallet(pidx, payer.mobile, '1111')).body).toContain(`Wrong MPIN. ${left} attempts left.`);
    }
    expect((await browser.wallet(pidx, payer.mobile, '1111')).body).toContain('Wrong MPIN. 1 attempt left.');
    const fifth = await browser.wallet(pidx, payer.mobile, '1111');
    expect(fifth.status).toBe(400);
    expect(fifth.body).toContain('This wallet is locked after too many wrong MPINs. Try again in 15 minutes.');
    expect(fifth.body).not.toContain(OTP_STEP);

    const right = await browser.wallet(pidx, payer.mobile, payer.mpin);
    expect(right.status).toBe(400);
    expect(right.body).toMatch(/locked/);
    expect(right.body).not.toContain(OTP_STEP);

    // The lock is the wallet's, not the payment's.
    const other = await initiate(liveApi, { amount: 700 });
    const otherBrowser = payerBrowser(t.app);
    await otherBrowser.open(other);
    expect((await otherBrowser.wallet(other, payer.mobile, payer.mpin)).body).toMatch(/locked/);
    expect(t.sentOtps.filter((m) => m.mobile === payer.mobile)).toEqual([]);

    t.clock.advance(14 * 60);
    expect((await browser.wallet(pidx, payer.mobile, payer.mpin)).body).toMatch(/Try again in 1 minutes?\./);

    t.clock.advance(60 + 1);
    const done = await payWithLiveWallet(browser, t.sentOtps, pidx, payer);
    expect(done.status).toBe(303);
    expect(callbackParams(done.location!)).toMatchObject({ status: 'Completed', amount: '2500' });
    expect(await walletBalanceOf(t.ctx, payer.wallet)).toBe(100_000 - 2500);
  });

  it('after the lock ends the count starts again', async () => {
    const payer = await operatorWallet(t.ctx, { balance: 5000 });
    const pidx = await initiate(liveApi);
    const browser = payerBrowser(t.app);
    await browser.open(pidx);
    for (let i = 0; i < 5; i++) await browser.wallet(pidx, payer.mobile, '0000');
    t.clock.advance(15 * 60 + 1);
    expect((await browser.wallet(pidx, payer.mobile, '0000')).body).toContain('Wrong MPIN. 4 attempts left.');
  });

  it('a right MPIN clears the count', async () => {
    const payer = await operatorWallet(t.ctx, { balance: 5000 });
    const pidx = await initiate(liveApi);
    const browser = payerBrowser(t.app);
    await browser.open(pidx);
    for (let i = 0; i < 4; i++) await browser.wallet(pidx, payer.mobile, '0000');
    expect((await browser.wallet(pidx, payer.mobile, payer.mpin)).body).toContain(OTP_STEP);
    await browser.open(pidx);
    expect((await browser.wallet(pidx, payer.mobile, '0000')).body).toContain('Wrong MPIN. 4 attempts left.');
  });

  it('five wrong MPINs on a sandbox wallet lock it only for that payment', async () => {
    const locked = await initiate(testApi);
    const browser = payerBrowser(t.app);
    await browser.open(locked);
    for (let i = 0; i < 4; i++) await browser.wallet(locked, '9800000004', '2222');
    expect((await browser.wallet(locked, '9800000004', '2222')).body).toContain('This wallet is locked after too many wrong MPINs. Try again in 15 minutes.');
    expect((await browser.wallet(locked, '9800000004', '1111')).body).toMatch(/locked/);

    const other = await initiate(testApi);
    const done = await payerBrowser(t.app).pay(other, '9800000004');
    expect(done.status).toBe(303);
    expect(callbackParams(done.location!).status).toBe('Completed');
    expect((await testApi.lookup(locked)).body.status).toBe('Initiated');
  });

  it('an unknown wallet and malformed input are refused without counting', async () => {
    const pidx = await initiate(testApi);
    const browser = payerBrowser(t.app);
    await browser.open(pidx);
    const unknown = await browser.wallet(pidx, '9712345678', '1111');
    expect(unknown.status).toBe(400);
    expect(unknown.body).toContain('No wallet is registered with this mobile number.');
    const malformed = await browser.wallet(pidx, '12345', '11');
    expect(malformed.status).toBe(400);
    expect(malformed.body).toContain('Enter your 10-digit mobile number and your 4-digit MPIN.');
  });

  it('a live wallet is unknown to a test payment and a sandbox wallet to a live payment', async () => {
    const payer = await operatorWallet(t.ctx, { balance: 5000 });
    const testPidx = await initiate(testApi);
    const testBrowser = payerBrowser(t.app);
    await testBrowser.open(testPidx);
    expect((await testBrowser.wallet(testPidx, payer.mobile, payer.mpin)).body).toContain('No wallet is registered with this mobile number.');
    const livePidx = await initiate(liveApi);
    const liveBrowser = payerBrowser(t.app);
    await liveBrowser.open(livePidx);
    expect((await liveBrowser.wallet(livePidx, '9800000001', '1111')).body).toContain('No wallet is registered with this mobile number.');
  });
});

describe('OTP', () => {
  it('a wrong OTP shows the attempts left; three end the attempt and send the payer back to the wallet step', async () => {
    const pidx = await initiate(testApi);
    const browser = payerBrowser(t.app);
    await browser.open(pidx);
    expect((await browser.wallet(pidx, '9800000002', '1111')).body).toContain(OTP_STEP);

    const first = await browser.otp(pidx, '111111');
    expect(first.status).toBe(400);
    expect(first.body).toContain('Wrong OTP. 2 attempts left.');
    expect(first.body).toContain(OTP_STEP);
    expect((await browser.otp(pidx, '222222')).body).toContain('Wrong OTP. 1 attempt left.');
    const third = await browser.otp(pidx, '333333');
    expect(third.status).toBe(400);
    expect(third.body).toContain('Too many wrong OTPs. Start again with your mobile number and MPIN.');
    expect(third.body).toContain(WALLET_STEP);
    expect(third.body).not.toContain(OTP_STEP);

    // The ended attempt stays ended, even with the right OTP.
    const late = await browser.otp(pidx, '987654');
    expect(late.status).toBe(400);
    expect(late.body).toContain(WALLET_STEP);
    expect((await testApi.lookup(pidx)).body.status).toBe('Initiated');
    expect(await paymentJournals(pidx)).toBe(0);

    // A new attempt (MPIN again, a new OTP) pays.
    const done = await browser.pay(pidx, '9800000002');
    expect(done.status).toBe(303);
    expect(callbackParams(done.location!).status).toBe('Completed');
  });

  it('the right OTP posted twice at once (a double click) pays once, and both answers return to the shop as Completed', async () => {
    const payer = await operatorWallet(t.ctx, { balance: 10_000 });
    const pidx = await initiate(liveApi, { amount: 2500 });
    const browser = payerBrowser(t.app);
    await browser.open(pidx);
    await browser.wallet(pidx, payer.mobile, payer.mpin);
    const otp = otpSentFor(t.sentOtps, pidx);
    const answers = await Promise.all([browser.otp(pidx, otp), browser.otp(pidx, otp)]);
    for (const answer of answers) {
      expect(answer.status).toBe(303);
      expect(callbackParams(answer.location!).status).toBe('Completed');
    }
    expect(callbackParams(answers[0].location!).transaction_id).toBe(callbackParams(answers[1].location!).transaction_id);
    expect(await paymentJournals(pidx)).toBe(1);
    expect(await walletBalanceOf(t.ctx, payer.wallet)).toBe(10_000 - 2500);
  });

  it('OTPs sent all at once: three wrong ones end the attempt, and the right one cannot pay after that', async () => {
    const pidx = await initiate(testApi);
    const browser = payerBrowser(t.app);
    await browser.open(pidx);
    await browser.wallet(pidx, '9800000002', '1111');
    const { cookie, ...fields } = browser.confirmFields('');
    const guess = (otp: string) =>
      t.app.inject({
        method: 'POST',
        url: `/pay/${pidx}/confirm`,
        headers: { 'content-type': 'application/x-www-form-urlencoded', cookie },
        payload: new URLSearchParams({ ...fields, otp }).toString(),
      });
    const responses = await Promise.all([...['000001', '000002', '000003', '000004', '000005'].map(guess), guess('987654')]);

    const [attempt] = await t.db.query<{ otp_failures: number; ended: boolean }>('SELECT otp_failures, ended FROM payment_attempts WHERE token = $1', [fields.attempt]);
    const { body } = await testApi.lookup(pidx);
    const bodies = responses.map((r) => r.body);
    if (body.status === 'Completed') {
      // The right OTP came in time: fewer than three wrong ones had been counted.
      expect(attempt.otp_failures).toBeLessThan(3);
      expect(responses.at(-1)!.statusCode).toBe(303);
    } else {
      expect(body.status).toBe('Initiated');
      expect(attempt).toEqual({ otp_failures: 3, ended: true });
      expect(responses.every((r) => r.statusCode === 400)).toBe(true);
    }
    expect(bodies.filter((b) => b.includes('Wrong OTP. 2 attempts left.')).length).toBeLessThanOrEqual(1);
    expect(bodies.filter((b) => b.includes('Wrong OTP. 1 attempt left.')).length).toBeLessThanOrEqual(1);
  });

  it('the OTP page of an ended attempt sends the payer back to the payment page', async () => {
    const pidx = await initiate(testApi);
    const browser = payerBrowser(t.app);
    await browser.open(pidx);
    const response = await browser.post(`/pay/${pidx}/wallet`, { mobile: '9800000003', mpin: '1111' });
    expect(response.status).toBe(303);
    const otpPage = response.location!;
    expect(otpPage).toMatch(new RegExp(`^/pay/\\?pidx=${pidx}&attempt=[\\w-]+$`));
    await browser.get(otpPage);
    for (const otp of ['000001', '000002', '000003']) await browser.otp(pidx, otp);
    // At the OTP page's address, and at the one given out before.
    const token = new URL(otpPage, 'http://x.invalid').searchParams.get('attempt');
    for (const url of [otpPage, `/pay/${pidx}/otp/${token}`]) {
      const again = await browser.get(url);
      expect(again.status).toBe(303);
      expect(again.location).toBe(`/pay/?pidx=${pidx}`);
    }
  });

  it('an OTP is refused after 5 minutes and accepted just before', async () => {
    const stale = await initiate(testApi);
    const browser = payerBrowser(t.app);
    await browser.open(stale);
    await browser.wallet(stale, '9800000003', '1111');
    t.clock.advance(5 * 60);
    const refused = await browser.otp(stale, '987654');
    expect(refused.status).toBe(400);
    expect(refused.body).toContain('The OTP has expired. Start again to get a new one.');
    expect(refused.body).toContain(WALLET_STEP);
    expect((await testApi.lookup(stale)).body.status).toBe('Initiated');

    const fresh = await initiate(testApi);
    const other = payerBrowser(t.app);
    await other.open(fresh);
    await other.wallet(fresh, '9800000003', '1111');
    t.clock.advance(5 * 60 - 1);
    const paid = await other.otp(fresh, '987654');
    expect(paid.status).toBe(303);
    expect(callbackParams(paid.location!).status).toBe('Completed');
  });

  it('a live wallet gets a random 6-digit OTP through the OTP sender; the sandbox OTP does not work for it', async () => {
    const payer = await operatorWallet(t.ctx, { balance: 50_000 });
    const pidx = await initiate(liveApi, { amount: 1500 });
    const browser = payerBrowser(t.app);
    await browser.open(pidx);
    let step = await browser.wallet(pidx, payer.mobile, payer.mpin);
    // One time in a million the random OTP is the sandbox one; ask for another then.
    while (otpSentFor(t.sentOtps, pidx) === '987654') step = await browser.wallet(pidx, payer.mobile, payer.mpin);
    expect(step.status).toBe(200);
    expect(step.body).toContain(OTP_STEP);
    expect(step.body).toContain(`We sent a 6-digit code to 97XXXXXXX${payer.mobile.at(-1)}.`);

    const sent = t.sentOtps.at(-1)!;
    expect(sent).toEqual({
      mobile: payer.mobile,
      pidx,
      otp: expect.stringMatching(/^\d{6}$/),
      message: expect.stringMatching(/^Rs\. 15\.00 to Shop [\w-]+: your OTP is \d{6}\. Valid 5 minutes; never share it\.$/),
      expiresAt: new Date(t.clock.now().getTime() + 5 * 60 * 1000),
    });
    expect(sent.message).toContain(sent.otp);
    expect(step.body).not.toContain(sent.otp);

    const sandboxOtp = await browser.otp(pidx, '987654');
    expect(sandboxOtp.status).toBe(400);
    expect(sandboxOtp.body).toContain('Wrong OTP. 2 attempts left.');

    const done = await browser.otp(pidx, sent.otp);
    expect(done.status).toBe(303);
    const params = callbackParams(done.location!);
    expect(params).toMatchObject({ status: 'Completed', amount: '1500', mobile: `97XXXXXXX${payer.mobile.at(-1)}` });
    const lookup = await liveApi.lookup(pidx);
    expect(lookup.status).toBe(200);
    expect(lookup.body).toMatchObject({ status: 'Completed', transaction_id: params.transaction_id, fee: 45 });
    expect(await walletBalanceOf(t.ctx, payer.wallet)).toBe(50_000 - 1500);
  });

  it('every attempt sends a new OTP; the older one no longer works', async () => {
    const payer = await operatorWallet(t.ctx, { balance: 50_000 });
    const pidx = await initiate(liveApi);
    const first = payerBrowser(t.app);
    await first.open(pidx);
    await first.wallet(pidx, payer.mobile, payer.mpin);
    const oldOtp = otpSentFor(t.sentOtps, pidx);
    const second = payerBrowser(t.app);
    await second.open(pidx);
    await second.wallet(pidx, payer.mobile, payer.mpin);
    const newOtp = otpSentFor(t.sentOtps, pidx);
    if (newOtp !== oldOtp) expect((await second.otp(pidx, oldOtp)).body).toContain('Wrong OTP. 2 attempts left.');
    const done = await second.otp(pidx, newOtp);
    expect(done.status).toBe(303);
    expect(callbackParams(done.location!).status).toBe('Completed');
  });
});

describe('balance', () => {
  let poor: TestWallet;
  let rich: TestWallet;

  beforeAll(async () => {
    poor = await operatorWallet(t.ctx, { balance: 999 });
    rich = await operatorWallet(t.ctx, { balance: 10_000 });
  });

  it('a live wallet without the amount is refused; the payer then pays with another wallet', async () => {
    const pidx = await initiate(liveApi, { amount: 1000 });
    const browser = payerBrowser(t.app);
    await browser.open(pidx);
    const refused = await browser.wallet(pidx, poor.mobile, poor.mpin);
    expect(refused.status).toBe(400);
    expect(refused.body).toContain('This wallet does not have enough balance. Try another wallet.');
    expect(refused.body).toContain(WALLET_STEP);
    expect(t.sentOtps.filter((m) => m.pidx === pidx)).toEqual([]);

    const done = await payWithLiveWallet(browser, t.sentOtps, pidx, rich);
    expect(done.status).toBe(303);
    expect(callbackParams(done.location!)).toMatchObject({ status: 'Completed', mobile: `97XXXXXXX${rich.mobile.at(-1)}` });
    expect(await walletBalanceOf(t.ctx, poor.wallet)).toBe(999);
    expect(await walletBalanceOf(t.ctx, rich.wallet)).toBe(9000);
  });

  it('a sandbox wallet never runs dry: a payment above its whole funding pays', async () => {
    const pidx = await initiate(testApi, { amount: 250_000_000 });
    const done = await payerBrowser(t.app).pay(pidx, '9800000003');
    expect(done.status).toBe(303);
    expect(callbackParams(done.location!)).toMatchObject({ status: 'Completed', amount: '250000000' });
  });

  it('a wallet with exactly the amount pays and ends at zero', async () => {
    const exact = await operatorWallet(t.ctx, { balance: 1234 });
    const pidx = await initiate(liveApi, { amount: 1234 });
    const done = await payWithLiveWallet(payerBrowser(t.app), t.sentOtps, pidx, exact);
    expect(done.status).toBe(303);
    expect(await walletBalanceOf(t.ctx, exact.wallet)).toBe(0);
  });
});

describe('links that cannot be paid', () => {
  it('an unknown pidx gives the not-found page', async () => {
    for (const url of ['/pay/no-such-payment', '/pay/%3Cscript%3E']) {
      const page = await t.app.inject({ method: 'GET', url });
      expect(page.statusCode).toBe(404);
      expect(page.headers['content-type']).toMatch(/^text\/html/);
      expect(page.body).toContain('Payment not found');
    }
    const post = await t.app.inject({ method: 'POST', url: '/pay/no-such-payment/wallet', headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: 'mobile=9800000001&mpin=1111' });
    expect(post.statusCode).toBe(404);
  });

  it('an expired link shows the expiry page with a link to website_url, and posting to it changes nothing', async () => {
    const pidx = await initiate(testApi, { website_url: 'https://shop.example.com/home' });
    const browser = payerBrowser(t.app);
    await browser.open(pidx);
    await browser.wallet(pidx, '9800000001', '1111');
    t.clock.advance(3601);

    const page = await browser.open(pidx);
    expect(page.status).toBe(410);
    expect(page.body).toContain('Payment expired');
    expect(page.body).toContain('href="https://shop.example.com/home"');
    expect(page.body).not.toContain(WALLET_STEP);

    const confirm = await browser.otp(pidx, '987654');
    expect(confirm.status).toBe(410);
    expect(confirm.body).toContain('Payment expired');
    const wallet = await browser.post(`/pay/${pidx}/wallet`, { mobile: '9800000001', mpin: '1111' });
    expect(wallet.status).toBe(410);
    const cancel = await browser.cancel(pidx);
    expect(cancel.status).toBe(410);

    const lookup = await testApi.lookup(pidx);
    expect(lookup.status).toBe(400);
    expect(lookup.body).toMatchObject({ status: 'Expired', transaction_id: null, refunded: false });
    expect(await paymentJournals(pidx)).toBe(0);
    const [row] = await t.db.query<{ status: string; transaction_id: string | null }>('SELECT status, transaction_id FROM payments WHERE pidx = $1', [pidx]);
    expect(row).toEqual({ status: 'Initiated', transaction_id: null });
  });

  it('a second pidx of an already-paid order cannot be paid and stays Initiated', async () => {
    const order = `order-${Math.random().toString(36).slice(2)}`;
    const first = await initiate(testApi, { purchase_order_id: order });
    const second = await initiate(testApi, { purchase_order_id: order });
    // The second payer opened the page and got as far as the OTP before the first one paid.
    const late = payerBrowser(t.app);
    await late.open(second);
    expect((await late.wallet(second, '9800000005', '1111')).body).toContain(OTP_STEP);

    const paid = await payerBrowser(t.app).pay(first);
    expect(paid.status).toBe(303);

    const confirm = await late.otp(second, '987654');
    expect(confirm.status).toBe(409);
    expect(confirm.body).toContain('already been paid');
    const wallet = await late.post(`/pay/${second}/wallet`, { mobile: '9800000005', mpin: '1111' });
    expect(wallet.status).toBe(409);
    expect(wallet.body).toContain('already been paid');
    const page = await payerBrowser(t.app).open(second);
    expect(page.status).toBe(409);
    expect(page.body).toContain('already been paid');

    const lookup = await testApi.lookup(second);
    expect(lookup.status).toBe(200);
    expect(lookup.body).toMatchObject({ status: 'Initiated', transaction_id: null });
    expect(await paymentJournals(second)).toBe(0);
    // A third pidx for the order can be opened, but not paid either.
    const third = await initiate(testApi, { purchase_order_id: order });
    expect((await payerBrowser(t.app).open(third)).status).toBe(409);
  });

  it('a paid payment shows its finished page with the way back to the merchant', async () => {
    const pidx = await initiate(testApi);
    const browser = payerBrowser(t.app);
    const done = await browser.pay(pidx);
    const page = await browser.open(pidx);
    expect(page.status).toBe(200);
    expect(page.body).toContain('This payment is complete.');
    expect(page.body).toContain(`href="${done.location!.replace(/&/g, '&amp;')}"`);
  });
});
