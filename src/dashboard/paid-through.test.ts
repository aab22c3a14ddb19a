// A merchant reads payments made through Fonepay on the dashboard: its web checkout and its QR told
// apart in the list (the API keeps one record type, `Fonepay payment`), and the payer column saying
// what is known, the customer the shop named and the way it was paid, where a provider names no payer.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { merchantApi, validInitiate } from '../../test/api-client.js';
import { merchantBrowser, pageText, type MerchantBrowser } from '../../test/dashboard-client.js';
import { providerPayer } from '../../test/provider-payer.js';
import { bankAppPicks, onQrPage } from '../../test/qr-payer.js';
import { startTestApp, type TestApp } from '../../test/test-app.js';
import type { ProviderName } from '../providers/registry.js';

let t: TestApp;
let merchant: MerchantBrowser;
let api: ReturnType<typeof merchantApi>;

beforeAll(async () => {
  // A store of its own: provider set-up is the whole store's.
  t = await startTestApp({ ownDb: true });
  merchant = merchantBrowser(t.app);
  api = merchantApi(t.app, (await merchant.signUp()).keys.test);
});
afterAll(() => t.close());

async function initiate(overrides: Record<string, unknown> = {}) {
  return (await api.initiate(validInitiate(overrides))).body.pidx as string;
}

/** Paid by scanning Fonepay's QR: the bank app pays, the payer's page asks and goes on to the shop. */
async function paidByQr(pidx: string) {
  const { browser, qrPage, page } = await onQrPage(t.app, pidx);
  await bankAppPicks(t.app, t.ctx.config.publicUrl, page, 'paid');
  t.clock.advance(3);
  expect((await browser.get(`${qrPage}?ask=1`)).status).toBe(303);
  expect((await api.lookup(pidx)).body.status).toBe('Completed');
}

/** The cells of the list's row of `pidx`'s payment record, by their label. */
function rowOf(body: string, pidx: string): Record<string, string> {
  const row = new RegExp(`<tr data-idx="[^"]+" data-pidx="${pidx}">([\\s\\S]*?)</tr>`).exec(body);
  expect(row, `no row of ${pidx}`).not.toBeNull();
  return Object.fromEntries([...row![1].matchAll(/<td data-label="([^"]+)"[^>]*>([\s\S]*?)<\/td>/g)].map(([, label, cell]) => [label, pageText(cell)]));
}

describe('payments through Fonepay on the dashboard', () => {
  it('tells the web checkout from the QR, and says who paid as far as it is known', async () => {
    const web = await initiate();
    expect((await providerPayer(t.app).pay(web, 'fonepay' as ProviderName, 'paid')).location).toMatch(/status=Completed/);
    const qr = await initiate();
    await paidByQr(qr);
    const named = await initiate({ customer_info: { name: 'Sita <Sharma>', phone: '9800000002' } });
    await paidByQr(named);

    const list = await merchant.get('/dashboard/transactions');
    expect(rowOf(list.body, web)).toMatchObject({ Type: 'Fonepay payment', Payer: 'Paid with Fonepay' });
    expect(rowOf(list.body, qr)).toMatchObject({ Type: 'Fonepay QR payment', Payer: 'Paid with Fonepay QR' });
    // The way on a line of its own, under the customer.
    expect(rowOf(list.body, named)).toMatchObject({ Type: 'Fonepay QR payment', Payer: expect.stringMatching(/^Sita <Sharma> 9800000002\s*Customer · paid with Fonepay QR$/) });
    expect(list.body).toContain('Sita &lt;Sharma&gt;');
    // The home page's latest records say the same.
    expect(rowOf((await merchant.get('/dashboard')).body, named)).toMatchObject({ Type: 'Fonepay QR payment' });
    // The API's records keep the contract's one type per provider.
    const types = (await api.transactions()).body.records.map((r: { pidx: string; type: { name: string } }) => [r.pidx, r.type.name]);
    expect(Object.fromEntries(types)).toMatchObject({ [web]: 'Fonepay payment', [qr]: 'Fonepay payment', [named]: 'Fonepay payment' });
  });

  it('the payment’s page says how it was paid, not that it is unpaid', async () => {
    const pidx = await initiate({ customer_info: { name: 'Ram Thapa' } });
    await paidByQr(pidx);
    const page = pageText((await merchant.get(`/dashboard/payments/${pidx}`)).body);
    expect(page).toContain('Customer Ram Thapa');
    expect(page).toContain('Paid with Fonepay QR');
    expect(page).not.toContain('not paid yet');
  });
});
