// An approved merchant's settlement bank account: a merchant made by the operator (the
// function `bhuktani merchant create` calls) has its owner's e-mail confirmed, adds its bank account
// on the Business page (step-up, the owner told, the team's log), and is paid out live; a merchant
// not yet approved cannot change the account it applied with.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { merchantApi, validInitiate } from '../../test/api-client.js';
import { merchantBrowser, pageText } from '../../test/dashboard-client.js';
import { merchantIn } from '../../test/merchant-approval.js';
import { operatorWallet, payerBrowser, payWithLiveWallet } from '../../test/portal-client.js';
import { startTestApp, type TestApp } from '../../test/test-app.js';
import { findBankAccount } from '../merchants/bank-account-store.js';
import { createMerchant } from '../merchants/create-merchant.js';
import { NO_BANK_ACCOUNT } from '../settlements/request-payout.js';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

const PASSWORD = 'correct horse battery';
const ACCOUNT = { bank_name: 'Nabil Bank', branch: 'Thamel', account_name: 'Tea House Pvt. Ltd.', account_number: '0012-3456-78901' };

let counter = 0;
async function operatorMade() {
  counter += 1;
  const email = `operator-made-${process.pid}-${Date.now()}-${counter}@example.com`;
  const created = await createMerchant(t.ctx, { name: `Tea House ${counter}`, email, password: PASSWORD });
  const browser = merchantBrowser(t.app);
  expect((await browser.logIn(email, PASSWORD)).location).toBe('/dashboard');
  return { created, browser, email };
}

/** The e-mails the app wrote to the log for `to` (no SMTP_URL in tests). */
function mailsTo(to: string): { subject: string; text: string }[] {
  return t.logs
    .filter((line) => line.includes('"mail"'))
    .map((line) => JSON.parse(line).mail as { to: string; subject: string; text: string })
    .filter((mail) => mail.to === to);
}

const settlementsApi = (key: string, payload: object = {}) =>
  t.app.inject({ method: 'POST', url: '/api/v2/settlements/', headers: { authorization: `Key ${key}` }, payload }).then((r) => ({ status: r.statusCode, body: r.json() }));

describe('an approved merchant’s bank account', () => {
  it('an operator-made merchant, its owner confirmed, adds its bank account with step-up and is paid out live', async () => {
    const { created, browser, email } = await operatorMade();
    await browser.useEnvironment('live');
    expect((await browser.get('/dashboard')).body).not.toContain('data-testid="verify-email"');

    // No account yet: the API points to the form, which exists.
    expect(await settlementsApi(created.live_secret_key)).toEqual({ status: 400, body: { detail: NO_BANK_ACCOUNT, error_key: 'validation_error' } });
    expect(NO_BANK_ACCOUNT).toContain('/dashboard/business');
    const page = await browser.get('/dashboard/business');
    expect(page.body).toContain('<form method="post" action="/dashboard/business/bank-account"');
    expect(pageText(page.body)).toContain('No bank account yet');
    expect((await browser.get('/dashboard/settlements')).body).toContain('<a href="/dashboard/business#bank-account">Add it</a>');

    // After five minutes the change asks the password again; nothing is saved until it is given.
    t.clock.advance(6 * 60);
    expect(pageText((await browser.get('/dashboard/business')).body)).toContain('Your password');
    expect((await browser.post('/dashboard/business/bank-account', ACCOUNT)).status).toBe(401);
    const wrong = await browser.post('/dashboard/business/bank-account', { ...ACCOUNT, confirm_identity: 'not my password' });
    expect([wrong.status, pageText(wrong.body)]).toEqual([401, expect.stringContaining('That is not your password.')]);
    expect(await findBankAccount(t.db, created.merchant.id)).toBeUndefined();
    const saved = await browser.post('/dashboard/business/bank-account', { ...ACCOUNT, confirm_identity: PASSWORD });
    expect([saved.status, saved.location]).toEqual([303, '/dashboard/business?done=bank#bank-account']);
    expect(await findBankAccount(t.db, created.merchant.id)).toMatchObject({ bankName: 'Nabil Bank', branch: 'Thamel', accountName: 'Tea House Pvt. Ltd.', accountNumber: '0012345678901' });
    const after = await browser.get('/dashboard/business?done=bank');
    expect(pageText(after.body)).toContain('Bank account saved.');
    expect(pageText(after.body)).toContain('Payouts go to Nabil Bank, Thamel · Tea House Pvt. Ltd. · ••••8901.');
    expect(after.body).not.toContain('0012345678901');

    // The owner is told (the number masked), and the team's log shows who did it.
    const [notice] = mailsTo(email).filter((mail) => mail.subject.startsWith('The settlement bank account was changed'));
    expect(notice.text).toContain('Payouts go to Tea House Pvt. Ltd., Nabil Bank (Thamel), account ••••8901.');
    expect(notice.text).not.toContain('0012345678901');
    expect(pageText((await browser.get('/dashboard/team')).body)).toContain(`${email} set the settlement bank account (Nabil Bank, Thamel · Tea House Pvt. Ltd. · ••••8901)`);

    // Live money now goes out: by the API and from the dashboard (the owner's e-mail counts as confirmed).
    const payer = await operatorWallet(t.ctx, { balance: 20_000 });
    for (let i = 0; i < 2; i++) {
      const { body } = await merchantApi(t.app, created.live_secret_key).initiate(validInitiate({ amount: 10_000 }));
      expect((await payWithLiveWallet(payerBrowser(t.app), t.sentOtps, body.pidx, payer)).status).toBe(303);
    }
    const payout = await settlementsApi(created.live_secret_key, { amount: 5_000 });
    expect(payout).toMatchObject({ status: 201, body: { bank_account: { bank_name: 'Nabil Bank', account_number: '••••8901' } } });
    await browser.get('/dashboard/settlements');
    const requested = await browser.post('/dashboard/settlements/payouts', { payout: 'all' });
    expect([requested.status, requested.location]).toEqual([303, '/dashboard/settlements?done=requested']);
  });

  it('a change names every bad field and saves nothing; a payout on its way keeps the account it was requested with', async () => {
    const { created, browser } = await operatorMade();
    await browser.get('/dashboard/business');
    expect((await browser.post('/dashboard/business/bank-account', ACCOUNT)).status).toBe(303);
    const payer = await operatorWallet(t.ctx, { balance: 10_000 });
    const { body } = await merchantApi(t.app, created.live_secret_key).initiate(validInitiate({ amount: 10_000 }));
    await payWithLiveWallet(payerBrowser(t.app), t.sentOtps, body.pidx, payer);
    const onItsWay = await settlementsApi(created.live_secret_key);
    expect(onItsWay.status).toBe(201);

    await browser.get('/dashboard/business');
    const bad = await browser.post('/dashboard/business/bank-account', { bank_name: '', branch: 'New Road', account_name: '<b>Tea</b>', account_number: '12ab' });
    expect(bad.status).toBe(400);
    expect(pageText(bad.body)).toContain('Enter the account number: 6 to 20 digits.');
    expect(bad.body).toContain('value="&lt;b&gt;Tea&lt;/b&gt;"');
    expect(await findBankAccount(t.db, created.merchant.id)).toMatchObject({ accountNumber: '0012345678901' });

    expect((await browser.post('/dashboard/business/bank-account', { ...ACCOUNT, bank_name: 'Nepal Bank', account_number: '9876543210' })).status).toBe(303);
    expect((await browser.get('/dashboard/settlements')).body).toContain('<a href="/dashboard/business#bank-account">Change it</a>');
    const kept = await t.app.inject({ method: 'GET', url: `/api/v2/settlements/${onItsWay.body.idx}/`, headers: { authorization: `Key ${created.live_secret_key}` } });
    expect(kept.json().bank_account).toMatchObject({ bank_name: 'Nabil Bank', account_number: '••••8901' });
  });

  it('a merchant not approved changes the account only by applying: the form is not shown and a post is refused', async () => {
    for (const [status, message] of [
      ['applied', 'Your bank account is part of your application to go live: it can be changed here once your business is approved.'],
      ['suspended', 'Your merchant account is suspended; contact support.'],
    ] as const) {
      const created = await merchantIn(t.ctx, status);
      const before = await findBankAccount(t.db, created.merchant.id);
      const browser = merchantBrowser(t.app);
      await browser.logIn(created.owner.email, PASSWORD);
      const page = await browser.get('/dashboard/business');
      expect(page.body).not.toContain('action="/dashboard/business/bank-account"');
      const refused = await browser.post('/dashboard/business/bank-account', { ...ACCOUNT, confirm_identity: PASSWORD });
      expect([refused.status, pageText(refused.body)]).toEqual([409, expect.stringContaining(message)]);
      expect(await findBankAccount(t.db, created.merchant.id)).toEqual(before);
    }
  });
});
