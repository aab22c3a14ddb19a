// The hosted page of a payment asked for through eSewa's form, in both languages: eSewa's parts of
// the total (amount, tax, service and delivery charges) in the payer's language, and the order, which
// eSewa's form names only by its transaction_uuid, said once under the business it is paid to.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { esewaForm, ESEWA_FORM, pidxOf, postForm, type EsewaPair } from '../../test/esewa-client.js';
import { pageText } from '../../test/dashboard-client.js';
import { payerBrowser } from '../../test/portal-client.js';
import { newMerchant, startTestApp, type TestApp } from '../../test/test-app.js';

let t: TestApp;
let pair: EsewaPair;

beforeAll(async () => {
  t = await startTestApp();
  pair = (await newMerchant(t.ctx, { name: 'Kathmandu Books' })).esewa.test;
});
afterAll(() => t.close());

async function esewaPage(headers: Record<string, string>) {
  const form = esewaForm(pair, { amount: '1000', tax_amount: '130', product_service_charge: '100', product_delivery_charge: '50', total_amount: '1280' });
  const posted = await postForm(t.app, ESEWA_FORM, form);
  expect(posted.status, posted.body).toBe(302);
  const page = await payerBrowser(t.app, { headers }).open(pidxOf(posted.location!));
  return { uuid: form.transaction_uuid, body: page.body, text: pageText(page.body) };
}

/** The labels of the breakdown's lines, its total left out. */
const breakdownRows = (body: string) => [...body.matchAll(/<tr><th scope="row">([^<]+)<\/th>/g)].map((m) => m[1]);

describe('the hosted page of an eSewa form’s payment', () => {
  it('in Nepali, names eSewa’s parts of the total in Nepali', async () => {
    const { body } = await esewaPage({ 'accept-language': 'ne-NP,ne;q=0.9' });
    expect(breakdownRows(body)).toEqual(['रकम', 'कर', 'सेवा शुल्क', 'ढुवानी शुल्क']);
  });

  it('in English, as eSewa names them', async () => {
    const { body } = await esewaPage({ 'accept-language': 'en' });
    expect(breakdownRows(body)).toEqual(['Amount', 'Tax', 'Service charge', 'Delivery charge']);
  });

  it('heads the page with the business, and says the transaction_uuid once, as the order', async () => {
    const { body, text, uuid } = await esewaPage({ 'accept-language': 'ne-NP' });
    expect(body).toContain('<h1 class="order"><strong>Kathmandu Books</strong> लाई भुक्तानी</h1>');
    expect(text.split(uuid)).toHaveLength(2);
    expect(text).toContain(`अर्डर ${uuid}`);
  });
});
