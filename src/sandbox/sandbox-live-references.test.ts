// A sandbox's simulator knows only sandbox payments. Fonepay's and eSewa's published test merchants
// let anyone sign a request for any reference, so a payer of a live payment could otherwise open
// the sandbox's page for their live attempt (it completes nothing: the live return needs the live
// key; but the sandbox must not know live payments). Driven as that payer would: the live hosted
// page's hand-off names the attempt, then its reference is posted to the sandbox.
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLI_ACTOR } from '../audit/audit-entry.js';
import { merchantApi, validInitiate } from '../../test/api-client.js';
import { formOf, handoffLink } from '../../test/provider-payer.js';
import { payerBrowser } from '../../test/portal-client.js';
import { newMerchant, startTestApp, type TestApp } from '../../test/test-app.js';
import { paymentPath } from '../payments/payment-url.js';
import { stepAction } from '../portal/checkout-address.js';
import { dataValidation } from '../protocols/fonepay/data-validation.js';
import { signFields } from '../protocols/esewa-epay/signature.js';
import { FONEPAY_TEST_MERCHANT } from '../providers/fonepay/test-merchant.js';
import { ESEWA_TEST_PAIR } from '../providers/esewa/test-pair.js';
import { setProvider } from '../providers/provider-setup.js';

let t: TestApp;
let live: ReturnType<typeof merchantApi>;

beforeAll(async () => {
  // A store of its own: providers' set-up is the whole store's.
  t = await startTestApp({ ownDb: true, config: { secretsKey: randomBytes(32) } });
  live = merchantApi(t.app, (await newMerchant(t.ctx)).live_secret_key);
  await setProvider(t.ctx, { actor: CLI_ACTOR, name: 'fonepay', environment: 'live', values: { base_url: 'https://clientapi.fonepay.example', merchant_code: 'LIVE01', secret_key: 'live-secret', username: 'live-user', password: 'live-password' } });
  await setProvider(t.ctx, { actor: CLI_ACTOR, name: 'esewa', environment: 'live', values: { form_url: 'https://epay.esewa.example/api/epay/main/v2/form', status_url: 'https://epay.esewa.example/api/epay/transaction/status/', product_code: 'LIVE01', secret_key: 'live-secret' } });
});
afterAll(() => t.close());

/** The live payment's attempt through `provider`, as its hand-off names it (Fonepay's link, eSewa's form). */
async function liveAttempt(provider: 'fonepay' | 'esewa', field: string): Promise<string> {
  const { body } = await live.initiate(validInitiate({ amount: 2500 }));
  const browser = payerBrowser(t.app);
  await browser.get(paymentPath(body.pidx));
  const handoff = await browser.post(stepAction('provider', body.pidx), { provider });
  expect(handoff.status, handoff.body.slice(0, 300)).toBe(200);
  const link = handoffLink(handoff.body);
  return link ? new URL(link).searchParams.get(field)! : formOf(handoff.body).fields[field];
}

describe('the sandbox and live payments', () => {
  it('Fonepay’s simulator refuses a web checkout and a QR for a live attempt’s PRN, signed with the published test key', async () => {
    const prn = await liveAttempt('fonepay', 'PRN');
    const { merchant_code: PID, secret_key, username, password } = FONEPAY_TEST_MERCHANT;
    const request = { PID, MD: 'P', PRN: prn, AMT: '25', CRN: 'NPR', DT: '11/28/2026', R1: 'Order', R2: 'Shop', RU: 'https://attacker.example/back' };
    const DV = dataValidation(secret_key, Object.values(request));
    const checkout = await t.app.inject({ method: 'GET', url: `/sandbox/fonepay/api/merchantRequest?${new URLSearchParams({ ...request, DV })}` });
    expect(checkout.statusCode).toBe(400);
    expect(checkout.body).toContain('Invalid PRN');
    const qr = { amount: '25', prn, merchantCode: PID, remarks1: 'Order', remarks2: 'Shop' };
    const download = await t.app.inject({
      method: 'POST',
      url: '/sandbox/fonepay/api/merchant/merchantDetailsForThirdParty/thirdPartyDynamicQrDownload',
      payload: { ...qr, dataValidation: dataValidation(secret_key, Object.values(qr)), username, password },
    });
    expect(download.json()).toMatchObject({ message: 'Invalid PRN' });
    expect(await t.db.query('SELECT 1 FROM provider_simulations WHERE reference = $1', [prn])).toEqual([]);
  });

  it('eSewa’s simulator refuses a form for a live attempt’s transaction_uuid, signed with the published test pair', async () => {
    const uuid = await liveAttempt('esewa', 'transaction_uuid');
    const fields = { amount: '25', tax_amount: '0', total_amount: '25', transaction_uuid: uuid, product_code: ESEWA_TEST_PAIR.product_code, product_service_charge: '0', product_delivery_charge: '0', success_url: 'https://attacker.example/ok', failure_url: 'https://attacker.example/no', signed_field_names: 'total_amount,transaction_uuid,product_code' };
    const posted = await t.app.inject({ method: 'POST', url: '/sandbox/esewa/api/epay/main/v2/form', payload: { ...fields, signature: signFields(ESEWA_TEST_PAIR.secret_key, fields, fields.signed_field_names.split(',')) } });
    expect(posted.statusCode).toBe(400);
    expect(posted.json()).toMatchObject({ error_message: 'Invalid transaction_uuid.' });
    expect(await t.db.query('SELECT 1 FROM provider_simulations WHERE reference = $1', [uuid])).toEqual([]);
  });
});
