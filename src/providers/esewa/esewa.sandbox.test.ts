// The eSewa connector against eSewa's real UAT (`npm run test:sandbox`), when ESEWA_SANDBOX=1;
// skipped otherwise. eSewa publishes its test pair, so nothing else is needed: EPAYTEST and its key,
// the form at rc-epay.esewa.com.np and the status check at rc.esewa.com.np (ESEWA_SANDBOX_FORM_URL,
// ESEWA_SANDBOX_STATUS_URL, ESEWA_SANDBOX_PRODUCT_CODE and ESEWA_SANDBOX_SECRET_KEY override them).
// Nobody pays: eSewa must take the signed form, and its status check must say it is not paid.
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { attemptToStart } from '../../../test/connector-harness.js';
import { networkTransport } from '../provider-http.js';
import { esewaConnector } from './esewa-connector.js';
import { UAT } from './fixtures/epay-v2.js';

const env = process.env;

describe.skipIf(env.ESEWA_SANDBOX !== '1')('eSewa’s UAT', () => {
  const settings = {
    form_url: env.ESEWA_SANDBOX_FORM_URL ?? UAT.form_url,
    status_url: env.ESEWA_SANDBOX_STATUS_URL ?? UAT.status_url,
    product_code: env.ESEWA_SANDBOX_PRODUCT_CODE ?? UAT.product_code,
  };
  const connector = esewaConnector(
    { name: 'esewa', environment: 'test', enabled: true, sandbox: false, settings, credentials: { secret_key: env.ESEWA_SANDBOX_SECRET_KEY ?? UAT.secret_key } },
    networkTransport(30_000),
  );
  const attempt = () => attemptToStart({ idx: `bhuktani-${randomUUID().slice(0, 8)}`, amount: 1050 });

  it('takes the signed form the payer’s browser posts, and sends the payer to sign in', async () => {
    const { redirect } = await connector.start(attempt());
    if (redirect.method !== 'POST') throw new Error('eSewa’s form is posted');
    const answer = await fetch(redirect.url, { method: 'POST', redirect: 'manual', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(redirect.fields).toString() });
    const text = await answer.text();
    // A refused form is a 400 with eSewa's code (ES104: the signature); a taken one leads to eSewa's sign-in.
    expect(answer.status, text.slice(0, 300)).toBeLessThan(400);
    expect(text).not.toContain('ES104');
  });

  it('its status check says a payment nobody paid is not paid', async () => {
    expect(await connector.status(attempt())).toMatchObject({ kind: 'open' });
  });
});
