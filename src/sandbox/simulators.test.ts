// Every provider has its simulator, and a provider with a QR way has its sandbox bank app where its
// descriptor says (qr.sandboxBankApp): the test environment's QR page links there, and it pays.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { merchantApi, validInitiate } from '../../test/api-client.js';
import { payerBrowser } from '../../test/portal-client.js';
import { newMerchant, startTestApp, type TestApp } from '../../test/test-app.js';
import { paymentPath } from '../payments/payment-url.js';
import { stepAction } from '../portal/checkout-address.js';
import { descriptorOf, providerNames } from '../providers/registry.js';
import { qrMessageOf } from '../providers/connectors.js';
import { simulators } from './simulators.js';

let t: TestApp;
let api: ReturnType<typeof merchantApi>;

beforeAll(async () => {
  t = await startTestApp();
  api = merchantApi(t.app, (await newMerchant(t.ctx)).test_secret_key);
});
afterAll(() => t.close());

const withQr = providerNames.filter((name) => descriptorOf(name).qr);

describe('the sandbox’s simulators', () => {
  it('has one for every provider', () => {
    expect(Object.keys(simulators).sort()).toEqual([...providerNames].sort());
  });

  it.each(withQr)('%s: the QR page links to its bank app at the descriptor’s address, which pays the QR', async (name) => {
    const { body } = await api.initiate(validInitiate({ amount: 2500 }));
    const browser = payerBrowser(t.app);
    await browser.get(paymentPath(body.pidx));
    const chosen = await browser.post(stepAction('provider', body.pidx), { provider: name, way: 'qr' });
    expect(chosen.status).toBe(303);
    const page = await browser.get(chosen.location!);
    const [attempt] = await t.db.query<{ idx: string; provider_reference: unknown }>('SELECT idx, provider_reference FROM provider_attempts WHERE pidx = $1', [body.pidx]);
    const bankApp = descriptorOf(name).qr!.sandboxBankApp(qrMessageOf(name, attempt.provider_reference)!);
    expect(page.body).toContain(`${t.ctx.config.publicUrl}${bankApp}`.replaceAll('&', '&amp;'));
    const app = await browser.get(bankApp);
    expect(app.status).toBe(200);
    expect(app.body).toContain('name="outcome" value="paid"');
  });
});
