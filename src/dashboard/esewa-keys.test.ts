// eSewa's credentials on the API keys page: shown once when made (the welcome page), then only the
// product code and the key's start; rotated with the secret key's rules (a confirmation, grace
// periods, step-up for live, the owner told); kept sealed, never in the log.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { merchantBrowser, pageText, type MerchantBrowser } from '../../test/dashboard-client.js';
import { esewaForm, ESEWA_FORM, pidxOf, postForm, readData, type EsewaPair } from '../../test/esewa-client.js';
import { approveSignedUp } from '../../test/merchant-approval.js';
import { payerBrowser } from '../../test/portal-client.js';
import { startTestApp, type TestApp } from '../../test/test-app.js';

let t: TestApp;

beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

const ES104 = { code: 'ES104', message: 'Invalid payload signature.' };

/** A merchant signed up on the website, with the eSewa pairs its welcome page showed. */
async function signedUp(): Promise<{ browser: MerchantBrowser; password: string; email: string; esewa: Record<'test' | 'live', EsewaPair> }> {
  const browser = merchantBrowser(t.app);
  const { page, fields } = await browser.signUp();
  const pairs = [...page.body.matchAll(/product code: <code class="product-code">([^<]+)<\/code><\/p>\s*<div class="secret-key">[\s\S]*?<code class="secret"[^>]*>([^<]+)<\/code>/g)];
  expect(pairs).toHaveLength(2);
  const [test, live] = pairs.map((m) => ({ product_code: m[1], secret_key: m[2] }));
  return { browser, password: fields.password, email: fields.email, esewa: { test, live } };
}

/** The rows of the eSewa table: environment, product code, the key's start, status. */
function esewaRows(body: string) {
  return [...body.matchAll(/<tr class="esewa-row[^"]*" data-environment="(\w+)">([\s\S]*?)<\/tr>/g)].map((m) => {
    const cells = [...m[2].matchAll(/<td data-label="([^"]+)"[^>]*>([\s\S]*?)<\/td>/g)].map((c) => pageText(c[2]));
    return { environment: m[1], cells };
  });
}

async function rotate(browser: MerchantBrowser, environment: 'test' | 'live', grace: string, extra: Record<string, string> = {}) {
  await browser.get('/dashboard/keys');
  const review = await browser.post('/dashboard/keys/esewa/rotate', { environment, grace });
  const done = await browser.post('/dashboard/keys/esewa/rotate/confirm', { environment, grace, ...extra });
  const secret = /<code class="secret"[^>]*>([^<]+)<\/code>/.exec(done.body)?.[1];
  return { review, done, secret: secret! };
}

const signedForm = (pair: EsewaPair) => postForm(t.app, ESEWA_FORM, esewaForm(pair));

describe('the keys page', () => {
  it('shows each environment’s product code and the start of its secret key, never the key', async () => {
    const { browser, esewa } = await signedUp();
    expect(esewa.test.product_code).toMatch(/^BK-TEST-[0-9A-Z]{8}$/);
    expect(esewa.live.product_code).toMatch(/^BK-LIVE-[0-9A-Z]{8}$/);
    const page = await browser.get('/dashboard/keys');
    expect(esewaRows(page.body).map((r) => [r.environment, r.cells[1], r.cells[2], r.cells[4]])).toEqual([
      ['test', esewa.test.product_code, `${esewa.test.secret_key.slice(0, 4)}…`, 'Active'],
      ['live', esewa.live.product_code, `${esewa.live.secret_key.slice(0, 4)}…`, 'Active'],
    ]);
    expect(page.body).not.toContain(esewa.test.secret_key);
    expect(page.body).not.toContain(esewa.live.secret_key);
    expect((await signedForm(esewa.test)).status).toBe(302);
  });

  it('keeps the secret keys sealed in the store and out of the log', async () => {
    const { esewa } = await signedUp();
    await signedForm(esewa.test);
    const rows = await t.db.query<{ sealed: string }>('SELECT secret_key_sealed AS sealed FROM esewa_credentials WHERE product_code = ANY($1)', [[esewa.test.product_code, esewa.live.product_code]]);
    expect(rows).toHaveLength(2);
    for (const row of rows) {
      expect(row.sealed).toMatch(/^s1\./);
      expect(row.sealed).not.toContain(esewa.test.secret_key);
      expect(row.sealed).not.toContain(esewa.live.secret_key);
    }
    expect(t.logs.join('\n')).not.toContain(esewa.test.secret_key);
  });
});

describe('rotation', () => {
  it('immediately: the new key is shown once and signs; forms signed with the old one are ES104; the product code stays', async () => {
    const { browser, esewa } = await signedUp();
    const { review, done, secret } = await rotate(browser, 'test', '0');
    expect(pageText(review.body)).toContain(`Rotate the test eSewa secret key?`);
    expect(pageText(review.body)).toContain(`${esewa.test.secret_key.slice(0, 4)}… will stop working immediately`);
    expect([done.status, done.headers['cache-control']]).toEqual([200, 'no-store']);
    expect(pageText(done.body)).toContain(`Product code: ${esewa.test.product_code}`);
    expect(pageText(done.body)).toContain('The old key no longer works.');
    expect(secret).toMatch(/^[\w-]{32}$/);
    expect((await signedForm(esewa.test)).json()).toEqual(ES104);
    const renewed = { product_code: esewa.test.product_code, secret_key: secret };
    const started = await signedForm(renewed);
    expect(started.status).toBe(302);
    const paid = await payerBrowser(t.app).pay(pidxOf(started.location!), '9806800004', '1122', '123456');
    expect(readData(paid.location!, secret).verified).toBe(true);
    const page = await browser.get('/dashboard/keys');
    expect(page.body).not.toContain(secret);
    expect(esewaRows(page.body)[0].cells[2]).toBe(`${secret.slice(0, 4)}…`);
  });

  it('with a grace period: forms signed with the old key are accepted until it ends, then refused; answers are signed with the new key', async () => {
    const { browser, esewa } = await signedUp();
    const { done, secret } = await rotate(browser, 'test', '3600');
    expect(pageText(done.body)).toContain('The old key keeps working until');
    expect(esewaRows((await browser.get('/dashboard/keys')).body)[0].cells[4]).toMatch(/^Active Old key works until /);
    const old = await signedForm(esewa.test);
    expect(old.status).toBe(302);
    const paid = await payerBrowser(t.app).pay(pidxOf(old.location!), '9806800004', '1122', '123456');
    expect([readData(paid.location!, secret).verified, readData(paid.location!, esewa.test.secret_key).verified]).toEqual([true, false]);
    t.clock.advance(3599);
    expect((await signedForm(esewa.test)).status).toBe(302);
    t.clock.advance(2);
    expect((await signedForm(esewa.test)).json()).toEqual(ES104);
    expect((await signedForm({ product_code: esewa.test.product_code, secret_key: secret })).status).toBe(302);
  });

  it('a live key asks the user to confirm who they are, and its owner is told by e-mail', async () => {
    const { browser, esewa, password, email } = await signedUp();
    await approveSignedUp(t.ctx, email);
    t.clock.advance(6 * 60);
    await browser.get('/dashboard/keys');
    const review = await browser.post('/dashboard/keys/esewa/rotate', { environment: 'live', grace: '0' });
    expect(pageText(review.body)).toContain('Confirm it is you Your password');
    expect((await browser.post('/dashboard/keys/esewa/rotate/confirm', { environment: 'live', grace: '0' })).status).toBe(401);
    expect((await browser.post('/dashboard/keys/esewa/rotate/confirm', { environment: 'live', grace: '0', confirm_identity: 'not my password' })).status).toBe(401);
    expect((await signedForm(esewa.live)).status).toBe(302);
    const done = await browser.post('/dashboard/keys/esewa/rotate/confirm', { environment: 'live', grace: '0', confirm_identity: password });
    expect(done.status).toBe(200);
    expect((await signedForm(esewa.live)).json()).toEqual(ES104);
    expect(t.logs.some((line) => line.includes('A live eSewa secret key was rotated') && line.includes(email))).toBe(true);
    expect(t.logs.join('\n')).not.toContain(/<code class="secret"[^>]*>([^<]+)<\/code>/.exec(done.body)![1]);
  });

  it('a merchant made before eSewa’s door has none yet; its first rotation makes them', async () => {
    const { browser, esewa } = await signedUp();
    await t.db.query('DELETE FROM esewa_credentials WHERE product_code = $1', [esewa.test.product_code]);
    expect(esewaRows((await browser.get('/dashboard/keys')).body)[0].cells[1]).toBe('None yet: make them below.');
    const { review, done, secret } = await rotate(browser, 'test', '3600');
    expect(pageText(review.body)).toContain('Make test eSewa credentials?');
    const productCode = /<code class="product-code">([^<]+)<\/code>/.exec(done.body)![1];
    expect(productCode).toMatch(/^BK-TEST-/);
    expect((await signedForm({ product_code: productCode, secret_key: secret })).status).toBe(302);
  });

  it('refuses a grace period it does not offer and an unknown environment, and changes nothing', async () => {
    const { browser, esewa } = await signedUp();
    for (const [environment, grace] of [
      ['test', '5'],
      ['prod', '0'],
    ]) {
      await browser.get('/dashboard/keys');
      const answer = await browser.post('/dashboard/keys/esewa/rotate/confirm', { environment, grace });
      expect([answer.status, pageText(answer.body).includes('Choose an eSewa secret key and when to revoke the old one.')]).toEqual([400, true]);
    }
    expect((await signedForm(esewa.test)).status).toBe(302);
  });
});
