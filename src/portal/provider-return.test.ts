// Back on the hosted page from a provider's page, unpaid, as a payer without JavaScript comes back:
// told which provider the payment was not completed on, in their language, as news rather than an
// error (the payer may have canceled there themselves); and the provider's sandbox page writes the
// amount as the hosted page does, in lakhs.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { merchantApi, validInitiate } from '../../test/api-client.js';
import { payerBrowser } from '../../test/portal-client.js';
import { providerPayer } from '../../test/provider-payer.js';
import { newMerchant, startTestApp, type TestApp } from '../../test/test-app.js';
import { ne } from '../language/ne.js';
import type { ProviderName } from '../providers/registry.js';

let t: TestApp;
let api: ReturnType<typeof merchantApi>;

beforeAll(async () => {
  // A store of its own: provider health and set-up are the whole store's.
  t = await startTestApp({ ownDb: true });
  api = merchantApi(t.app, (await newMerchant(t.ctx)).test_secret_key);
});
afterAll(() => t.close());

const initiate = async () => (await api.initiate(validInitiate({ amount: 12_345_650 }))).body.pidx as string;

describe.each([
  ['esewa', 'eSewa'],
  ['connectips', 'connectIPS'],
] as [ProviderName, string][])('canceled on %s’s sandbox page', (name, label) => {
  it('its page writes the amount in lakhs; back on the hosted page, the provider is named, in a note, not an error', async () => {
    const payer = providerPayer(t.app);
    const pidx = await initiate();
    const simulator = await payer.choose(pidx, name);
    expect(simulator.body).toContain('<p class="amount">Rs. 1,23,456.50</p>');
    const back = await payer.back(await payer.pick(simulator, 'canceled'));
    expect(back.status).toBe(303);
    const page = await payer.browser.get(back.location!);
    expect(page.body).toContain(`<p class="note" role="status">Back from ${label}: the payment was not completed there, and you have not been charged. Choose a way to pay.</p>`);
    expect(page.body).not.toContain('role="alert"');

    const nepali = await payerBrowser(t.app, { headers: { 'accept-language': 'ne-NP' } }).get(back.location!);
    expect(nepali.body).toContain(`<p class="note" role="status">${ne.providers.notPaidThere(label)}</p>`);
  });
});
