// The eSewa simulator against eSewa's own published examples (fixtures/epay-v2.ts), not against the
// connector: eSewa's published form goes through unchanged, the data it sends back has the shape and
// the amount style of eSewa's published data and verifies as eSewa's does, and its status check
// answers with the fields of eSewa's.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { providerPayer } from '../../../test/provider-payer.js';
import { startTestApp, type TestApp } from '../../../test/test-app.js';
import { REQUIRED_SIGNED_FIELDS, signedBy, signFields } from '../../protocols/esewa-epay/signature.js';
import { FORM, STATUS_REQUEST, SUCCESS_DATA, UAT } from '../../providers/esewa/fixtures/epay-v2.js';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

const FORM_PATH = '/sandbox/esewa/api/epay/main/v2/form';
const post = (fields: readonly (readonly [string, string])[]) =>
  t.app.inject({ method: 'POST', url: FORM_PATH, headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: new URLSearchParams(fields.map(([n, v]) => [n, v])).toString() });

describe('the eSewa simulator', () => {
  it('takes eSewa’s published form as it is, sends back data shaped as eSewa’s, and answers its status check as eSewa does', async () => {
    const posted = await post(FORM.fields);
    expect(posted.statusCode, posted.body).toBe(302);
    const payer = providerPayer(t.app);
    const page = await payer.browser.get(posted.headers.location as string);
    const back = new URL(await payer.pick(page, 'paid'));
    expect(`${back.origin}${back.pathname}`).toBe(Object.fromEntries(FORM.fields).success_url);

    const data = JSON.parse(Buffer.from(back.searchParams.get('data')!, 'base64').toString('utf8')) as Record<string, string>;
    expect(Object.keys(data)).toEqual(Object.keys(SUCCESS_DATA.fields));
    expect(data).toMatchObject({ status: 'COMPLETE', transaction_uuid: '241028', product_code: UAT.product_code, signed_field_names: SUCCESS_DATA.fields.signed_field_names });
    // Rs 110 as eSewa writes 1000 rupees in its published data: one decimal.
    expect(data.total_amount).toBe('110.0');
    expect(signedBy([UAT.secret_key], data)).toBe(true);

    const status = await t.app.inject({ method: 'GET', url: `/sandbox/esewa/api/epay/transaction/status/?product_code=EPAYTEST&total_amount=110&transaction_uuid=241028` });
    // The total as eSewa prints it in its answers (100.0), a number with one decimal.
    expect(status.body).toContain('"total_amount":110.0,');
    const answer = status.json();
    expect(Object.keys(answer)).toEqual(Object.keys(STATUS_REQUEST.answer));
    expect(answer).toEqual({ product_code: 'EPAYTEST', transaction_uuid: '241028', total_amount: 110, status: 'COMPLETE', ref_id: data.transaction_code });
  });

  it('writes a part of a rupee in data as eSewa writes amounts there: 100.50 comes back as 100.5', async () => {
    const fields: Record<string, string> = { ...Object.fromEntries(FORM.fields), amount: '100.50', tax_amount: '0', total_amount: '100.50', transaction_uuid: `part-${Date.now()}` };
    fields.signature = signFields(UAT.secret_key, fields, REQUIRED_SIGNED_FIELDS);
    const posted = await post(Object.entries(fields));
    expect(posted.statusCode, posted.body).toBe(302);
    const payer = providerPayer(t.app);
    const back = new URL(await payer.pick(await payer.browser.get(posted.headers.location as string), 'paid'));
    const data = JSON.parse(Buffer.from(back.searchParams.get('data')!, 'base64').toString('utf8')) as Record<string, string>;
    expect(data.total_amount).toBe('100.5');
    expect(signedBy([UAT.secret_key], data)).toBe(true);
  });

  it('refuses eSewa’s published form with one signed field changed', async () => {
    const changed = FORM.fields.map(([n, v]) => [n, n === 'total_amount' ? '111' : v] as const);
    const answer = await post(changed);
    expect(answer.statusCode).toBe(400);
    expect(answer.json()).toEqual({ code: 'ES104', message: 'Invalid payload signature.' });
  });
});
