// Paying through a provider in headless Chromium (issue 26): the payer on the hosted page presses
// Khalti, pays on the upstream's page (a second Bhuktani, which speaks the v2 web checkout exactly as
// Khalti does) with its sandbox wallet, comes back, lands on the merchant's site; the merchant's lookup
// says Completed. And the sandbox's eSewa simulator, picked on its own page.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLI_ACTOR } from '../src/audit/audit-entry.js';
import { setProvider } from '../src/providers/provider-setup.js';
import { browserSuite, enterOtp, enterWallet, landOnMerchant, SANDBOX, startService, type Service } from './harness.js';

const suite = browserSuite({ merchantName: 'Himalayan Tea House', ownDb: true });
let upstream: Service;

beforeAll(async () => {
  upstream = await startService({ merchantName: 'Himalayan Tea House on Bhuktani' });
  await setProvider(suite.service.t.ctx, { actor: CLI_ACTOR, name: 'khalti', environment: 'test', values: { base_url: upstream.origin, secret_key: upstream.merchant.key } });
});
afterAll(() => upstream?.close());

const order = () => ({
  return_url: `${suite.shop.origin}/orders/return?cart=9`,
  website_url: `${suite.shop.origin}/`,
  amount: 45000,
  purchase_order_id: `order-${Date.now()}`,
  purchase_order_name: 'Ilam first flush',
});

describe('paying through a provider', () => {
  it('picks Khalti, pays on the upstream’s page, returns, and the lookup says Completed', async () => {
    const initiated = await suite.service.initiate(order());
    const { page } = await suite.person({}, [...suite.hosts(), upstream.origin]);
    await page.goto(initiated.payment_url);
    await page.getByRole('button', { name: 'Khalti', exact: true }).click();
    await page.waitForURL((url) => url.origin === upstream.origin);
    await enterWallet(page, SANDBOX.mobile, SANDBOX.mpin);
    await enterOtp(page, SANDBOX.otp);
    const params = await landOnMerchant(page, suite.shop);
    expect(params).toMatchObject({ pidx: initiated.pidx, status: 'Completed', amount: '45000', cart: '9' });
    const lookup = await suite.service.lookup(initiated.pidx);
    expect(lookup.body).toMatchObject({ status: 'Completed', transaction_id: params.transaction_id });
    expect(await upstream.brokenLedgerInvariants()).toEqual([]);
  });

  it('picks eSewa in the sandbox, chooses “Pay” on its simulator’s page, and is paid', async () => {
    const initiated = await suite.service.initiate(order());
    const { page } = await suite.person();
    await page.goto(initiated.payment_url);
    await page.getByRole('button', { name: 'eSewa', exact: true }).click();
    await page.getByRole('heading', { name: /eSewa payment/ }).waitFor();
    await page.getByRole('button', { name: 'Pay', exact: true }).click();
    const params = await landOnMerchant(page, suite.shop);
    expect(params).toMatchObject({ pidx: initiated.pidx, status: 'Completed' });
    expect((await suite.service.lookup(initiated.pidx)).body.status).toBe('Completed');
  });
});
