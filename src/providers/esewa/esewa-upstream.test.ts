// The eSewa connector against a second Bhuktani process as its upstream: a
// Bhuktani speaks eSewa's ePay v2 exactly as eSewa does (its door). The payer
// picks eSewa downstream, the browser posts the signed form to the upstream, pays there with eSewa's
// sandbox payer, and comes back with the signed data; downstream completes only on the upstream's
// status check.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLI_ACTOR } from '../../audit/audit-entry.js';
import { verifyLedger } from '../../ledger/verify-ledger.js';
import { paymentPath } from '../../payments/payment-url.js';
import { stepAction } from '../../portal/checkout-address.js';
import { merchantApi, validInitiate } from '../../../test/api-client.js';
import { callbackParams, payerBrowser } from '../../../test/portal-client.js';
import { formOf, handoffLink } from '../../../test/provider-payer.js';
import type { ServerProcess } from '../../../test/reliability/server-process.js';
import { payUpstream, startUpstreamBhuktani } from '../../../test/upstream-payer.js';
import { newMerchant, startTestApp, type TestApp } from '../../../test/test-app.js';
import { setProvider } from '../provider-setup.js';

const PROCESS_TIMEOUT = 120_000;
const ESEWA_PAYER = { mobile: '9806800001', mpin: '1122', otp: '123456' };
let second: Awaited<ReturnType<typeof startUpstreamBhuktani>>;
let upstream: ServerProcess;
let t: TestApp;
let api: ReturnType<typeof merchantApi>;

beforeAll(async () => {
  second = await startUpstreamBhuktani('bhuktani-esewa-upstream-');
  upstream = second.server;
  const { product_code, secret_key } = second.merchant.esewa.test;
  t = await startTestApp({ ownDb: true, config: { providerTimeoutMs: 5000 } });
  await setProvider(t.ctx, {
    actor: CLI_ACTOR,
    name: 'esewa',
    environment: 'test',
    values: { form_url: `${upstream.base}/api/epay/main/v2/form`, status_url: `${upstream.base}/api/epay/transaction/status/`, product_code, secret_key },
  });
  api = merchantApi(t.app, (await newMerchant(t.ctx)).test_secret_key);
}, PROCESS_TIMEOUT);
afterAll(async () => {
  await second?.stop();
  await t?.close();
});

const local = (url: string) => url.replace(t.ctx.config.publicUrl, '');

/** The payer presses eSewa downstream; its browser posts the signed form to the upstream: the hosted page it lands on. */
async function chooseEsewa(pidx: string) {
  const browser = payerBrowser(t.app);
  await browser.get(paymentPath(pidx));
  const chosen = await browser.post(stepAction('provider', pidx), { provider: 'esewa' });
  expect(chosen.status).toBe(200);
  const { action, fields } = formOf(chosen.body);
  expect(action).toBe(`${upstream.base}/api/epay/main/v2/form`);
  const posted = await fetch(action, { method: 'POST', redirect: 'manual', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(fields).toString() });
  expect(posted.status, await posted.clone().text()).toBe(302);
  return { browser, hostedPage: new URL(posted.headers.get('location')!, upstream.base).toString() };
}

describe('eSewa, with a second Bhuktani as the upstream', () => {
  it(
    'pays on the upstream’s page and completes downstream on its status check',
    async () => {
      const { body } = await api.initiate(validInitiate({ amount: 1050 }));
      const { browser, hostedPage } = await chooseEsewa(body.pidx);
      const returnUrl = await payUpstream(hostedPage, 'pay', ESEWA_PAYER);
      expect(returnUrl).toMatch(new RegExp(`^${t.ctx.config.publicUrl}/pay/return/esewa/\\w+/success\\?data=`));
      const back = await browser.get(local(returnUrl));
      expect(callbackParams(handoffLink(back.body)!)).toMatchObject({ pidx: body.pidx, status: 'Completed', amount: '1050' });
      const lookup = await api.lookup(body.pidx);
      expect(lookup.body.status).toBe('Completed');
      expect((await api.transactions({ purchase_order_id: lookup.body.purchase_order_id })).body.records[0].type.name).toBe('eSewa payment');
      expect((await verifyLedger(t.db)).filter((r) => !r.holds)).toEqual([]);
    },
    PROCESS_TIMEOUT,
  );

  it(
    'leaves the payment payable when the payer cancels upstream',
    async () => {
      const { body } = await api.initiate(validInitiate());
      const { browser, hostedPage } = await chooseEsewa(body.pidx);
      const back = await browser.get(local(await payUpstream(hostedPage, 'cancel')));
      expect(back.location).toBe(`${paymentPath(body.pidx)}&notice=provider_not_paid`);
      expect((await api.lookup(body.pidx)).body.status).toBe('Initiated');
    },
    PROCESS_TIMEOUT,
  );
});
