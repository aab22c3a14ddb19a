// The connectIPS connector against NCHL's UAT (`npm run test:sandbox`), when the merchant's UAT
// credentials NCHL issued are in the environment: CONNECTIPS_SANDBOX_MERCHANT_ID, _APP_ID, _APP_NAME,
// _PASSWORD and _PFX_FILE (the CREDITOR.pfx; _PFX_PASSPHRASE if it has one); _GATEWAY_URL (the
// login page's root) and _API_URL (the validation's) default to https://uat.connectips.com. Skipped otherwise. Nobody pays: NCHL must take the signed form, and its
// validation (basic authentication and a signed token) must answer that the transaction is not paid.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { attemptToStart } from '../../../test/connector-harness.js';
import { networkTransport } from '../provider-http.js';
import { connectipsConnector } from './connectips-connector.js';

const env = process.env;
const UAT = 'https://uat.connectips.com';
const given = ['MERCHANT_ID', 'APP_ID', 'APP_NAME', 'PASSWORD', 'PFX_FILE'].every((name) => env[`CONNECTIPS_SANDBOX_${name}`]);

describe.skipIf(!given)('NCHL’s connectIPS UAT', () => {
  const connector = connectipsConnector(
    {
      name: 'connectips',
      environment: 'test',
      enabled: true,
      sandbox: false,
      settings: { gateway_url: env.CONNECTIPS_SANDBOX_GATEWAY_URL ?? UAT, api_url: env.CONNECTIPS_SANDBOX_API_URL ?? UAT, merchant_id: env.CONNECTIPS_SANDBOX_MERCHANT_ID!, app_id: env.CONNECTIPS_SANDBOX_APP_ID!, app_name: env.CONNECTIPS_SANDBOX_APP_NAME! },
      credentials: { password: env.CONNECTIPS_SANDBOX_PASSWORD!, pfx: given ? readFileSync(env.CONNECTIPS_SANDBOX_PFX_FILE!).toString('base64') : '', key_passphrase: env.CONNECTIPS_SANDBOX_PFX_PASSPHRASE ?? '' },
    },
    networkTransport(30_000),
  );
  // TXNID: at most 20 characters, new for every post.
  const attempt = attemptToStart({ idx: `BHK${Date.now()}`, amount: 1000, orderName: 'Bhuktani sandbox test', merchantName: 'Bhuktani' });

  it('takes the signed form the payer’s browser posts', async () => {
    const { redirect } = await connector.start(attempt);
    if (redirect.method !== 'POST') throw new Error('connectIPS’s form is posted');
    const answer = await fetch(redirect.url, { method: 'POST', redirect: 'manual', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(redirect.fields).toString() });
    expect(answer.status, (await answer.text()).slice(0, 300)).toBeLessThan(400);
  });

  it('its validation takes the credentials and the token, and says the transaction is not paid', async () => {
    expect(await connector.status(attempt)).toMatchObject({ kind: 'open' });
  });
});
