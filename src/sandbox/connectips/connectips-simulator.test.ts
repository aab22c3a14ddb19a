// The connectIPS simulator against NCHL's own published examples (fixtures/nchl-gateway.ts), not
// against the connector: NCHL's example form, for the sandbox's merchant and signed over NCHL's
// message, goes through; the payer comes back with only TXNID; validatetxn takes NCHL's example
// request and answers with the fields and types of NCHL's example answer.
import { createPrivateKey, sign, type KeyObject } from 'node:crypto';
import forge from 'node-forge';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { providerPayer } from '../../../test/provider-payer.js';
import { startTestApp, type TestApp } from '../../../test/test-app.js';
import { sandboxSetup, type ProviderSetup } from '../../providers/provider-setup.js';
import { LOGIN_FORM, LOGIN_PAGE, REDIRECTION, VALIDATION } from '../../providers/connectips/fixtures/nchl-gateway.js';

let t: TestApp;
let merchant: ProviderSetup;
let privateKey: KeyObject;
beforeAll(async () => {
  t = await startTestApp();
  merchant = await sandboxSetup(t.ctx, 'connectips');
  // The sandbox merchant's key, read from its PFX as a merchant's own code would.
  const p12 = forge.pkcs12.pkcs12FromAsn1(forge.asn1.fromDer(forge.util.createBuffer(Buffer.from(merchant.credentials.pfx, 'base64').toString('binary'))), '');
  const bag = p12.getBags({ bagType: forge.pki.oids.pkcs8ShroudedKeyBag })[forge.pki.oids.pkcs8ShroudedKeyBag]![0];
  privateKey = createPrivateKey(forge.pki.privateKeyToPem(bag.key!));
});
afterAll(() => t.close());

const token = (message: string) => sign('sha256', Buffer.from(message, 'utf8'), privateKey).toString('base64');
const nchlLoginMessage = (fields: Record<string, string>) =>
  [...LOGIN_PAGE.parameters.filter((p) => p.name !== 'TOKEN').map((p) => `${p.name}=${fields[p.name]}`), 'TOKEN=TOKEN'].join(',');

/** NCHL's example form, for the sandbox's merchant and a TXNID of its own. */
function exampleForm(txnId: string): Record<string, string> {
  return { ...Object.fromEntries(LOGIN_FORM.fields), MERCHANTID: merchant.settings.merchant_id, APPID: merchant.settings.app_id, TXNID: txnId };
}

const postForm = (fields: Record<string, string>) =>
  t.app.inject({ method: 'POST', url: `/sandbox/connectips${LOGIN_PAGE.path}`, headers: { 'content-type': LOGIN_PAGE.contentType }, payload: new URLSearchParams(fields).toString() });

const validate = (body: Record<string, unknown>, password = merchant.credentials.password) =>
  t.app.inject({
    method: 'POST',
    url: `/sandbox/connectips${VALIDATION.path}`,
    headers: { authorization: `Basic ${Buffer.from(`${merchant.settings.app_id}:${password}`).toString('base64')}`, 'content-type': 'application/json' },
    payload: JSON.stringify(body),
  });

/** NCHL's example validation request, for the sandbox's merchant and `txnId`, its token over NCHL's format. */
function exampleValidation(txnId: string) {
  const request = { ...VALIDATION.request, merchantId: Number(merchant.settings.merchant_id), appId: merchant.settings.app_id, referenceId: txnId };
  return { ...request, token: token(`MERCHANTID=${request.merchantId},APPID=${request.appId},REFERENCEID=${request.referenceId},TXNAMT=${request.txnAmt}`) };
}

describe('the connectIPS simulator', () => {
  it('takes NCHL’s example form signed over NCHL’s message, sends the payer back with TXNID only, and validates as NCHL’s example answers', async () => {
    const txnId = `txn-${Date.now()}`;
    const fields = exampleForm(txnId);
    const posted = await postForm({ ...fields, TOKEN: token(nchlLoginMessage(fields)) });
    expect(posted.statusCode, posted.body).toBe(302);

    const payer = providerPayer(t.app);
    const back = new URL(await payer.pick(await payer.browser.get(posted.headers.location as string), 'paid'));
    expect([...back.searchParams.keys()]).toEqual([...new URL(REDIRECTION.success).searchParams.keys()]);
    expect(back.searchParams.get('TXNID')).toBe(txnId);
    expect(back.pathname.endsWith('/success')).toBe(true);

    const answer = await validate(exampleValidation(txnId));
    expect(answer.statusCode).toBe(200);
    const body = answer.json();
    expect(Object.keys(body)).toEqual(Object.keys(VALIDATION.answer));
    expect(body).toEqual({ ...VALIDATION.answer, merchantId: Number(merchant.settings.merchant_id), appId: merchant.settings.app_id, referenceId: txnId });
  });

  it('refuses the form when its TOKEN is over the same fields in another order', async () => {
    const fields = exampleForm(`txn-${Date.now()}`);
    const reordered = Object.entries(fields).reverse().map(([n, v]) => `${n}=${v}`).join(',') + ',TOKEN=TOKEN';
    expect((await postForm({ ...fields, TOKEN: token(reordered) })).statusCode).toBe(400);
  });

  it('refuses validatetxn with another password, and a token over another message', async () => {
    const txnId = `txn-${Date.now()}`;
    expect((await validate(exampleValidation(txnId), 'not the password')).statusCode).toBe(401);
    const answer = await validate({ ...exampleValidation(txnId), token: token(`MERCHANTID=${merchant.settings.merchant_id},APPID=${merchant.settings.app_id},TXNAMT=500,REFERENCEID=${txnId}`) });
    expect(answer.json()).toMatchObject({ status: 'ERROR' });
  });
});
