// The console's Providers page: health per provider and environment, admins
// set up and disable providers (audited, credentials never shown), support decides an attempt handed
// to the operators, finance marks a refund made at a provider; a role never does what it may not.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { merchantApi, refund, validInitiate } from '../../test/api-client.js';
import { newOperator, operatorBrowser } from '../../test/console-client.js';
import { callbackParams } from '../../test/portal-client.js';
import { providerPayer } from '../../test/provider-payer.js';
import { newMerchant, startTestApp, type TestApp } from '../../test/test-app.js';
import { verifyLedger } from '../ledger/verify-ledger.js';
import { reconcileAttempts } from '../provider-payments/reconcile-attempts.js';

let t: TestApp;
let key: string;
let api: ReturnType<typeof merchantApi>;

beforeAll(async () => {
  t = await startTestApp({ ownDb: true, config: { providerTimeoutMs: 300, providerReconcileIntervalSeconds: 1, providerReconcileLimit: 2 } });
  key = (await newMerchant(t.ctx)).test_secret_key;
  api = merchantApi(t.app, key);
});
afterAll(() => t.close());

async function signedIn(role: 'admin' | 'support' | 'finance') {
  const browser = operatorBrowser(t.app, t.ctx);
  expect((await browser.signIn(await newOperator(t.ctx, role))).status).toBe(303);
  return browser;
}

const formField = (body: string, name: string) => new RegExp(`name="${name}" value="([^"]+)"`).exec(body)?.[1] ?? '';

describe('the console’s Providers page', () => {
  it('shows each provider’s health and money, and the attempts and refunds waiting for operators', async () => {
    const paid = await api.initiate(validInitiate({ amount: 4000 }));
    const back = await providerPayer(t.app).pay(paid.body.pidx, 'esewa', 'paid');
    await refund(t.app, key, callbackParams(back.location!).transaction_id);
    const stuck = await api.initiate(validInitiate({ amount: 2200 }));
    // Fonepay signs its return: a payer who paid there, held while Fonepay never answers.
    await providerPayer(t.app).pay(stuck.body.pidx, 'fonepay', 'never_answers');
    for (let run = 0; run < 3; run++) {
      t.clock.advance(600);
      await reconcileAttempts(t.ctx);
    }
    const browser = await signedIn('support');
    const page = await browser.get('/console/providers');
    expect(page.status).toBe(200);
    const esewa = /<article class="panel provider-card" data-provider="esewa" data-environment="test"[^>]*>([\s\S]*?)<\/article>/.exec(page.body)![1];
    expect(esewa).toMatch(/data-figure="attempts">1</);
    expect(esewa).toMatch(/data-figure="success-rate"[^>]*>100%</);
    expect(esewa).toMatch(/data-figure="receivable">Rs\. 40\.00</);
    expect(esewa).toContain('sandbox simulator');
    // Every figure, and the settings in use by their labels (never a credential).
    expect(esewa).toMatch(/data-figure="fees">Rs\. 0\.00</);
    expect(esewa).toMatch(/data-figure="refunds-due">Rs\. 40\.00</);
    expect(esewa).toMatch(/<dt>Product code<\/dt><dd><code>EPAYTEST<\/code>/);
    expect(esewa).not.toContain('8gBm');
    const fonepay = /<article class="panel provider-card" data-provider="fonepay" data-environment="test"[^>]*>([\s\S]*?)<\/article>/.exec(page.body)![1];
    expect(fonepay).toMatch(/data-figure="open-unknowns">1</);
    expect(page.body).toContain(`data-attempt="`);
    expect(page.body).toContain('merchant refund');
    // Support may decide, not set up; it sees no set-up forms nor the refund form.
    expect(page.body).not.toContain('/console/providers/khalti/set');
    expect(page.body).toContain('Your role may not mark refunds');
    // The payment's timeline tells the attempts apart.
    const timeline = await browser.get(`/console/payments/${stuck.body.pidx}`);
    expect(timeline.body).toContain('Payer chose Fonepay');
    expect(timeline.body).toContain('Fonepay could not confirm yet');
    expect(timeline.body).toContain('Handed to the operators');
    expect((await browser.get(`/console/payments/${paid.body.pidx}`)).body).toContain('Paid through eSewa');
    const overview = await browser.get('/console');
    expect(overview.body).toMatch(/data-figure="provider-attempts">1</);
    expect(overview.body).toMatch(/data-figure="provider-refunds">1</);

    const attempt = /data-attempt="([^"]+)"/.exec(page.body)![1];
    const decided = await browser.post(`/console/providers/attempts/${attempt}/resolve`, { decision: 'paid', reason: 'seen in the Fonepay merchant portal' });
    expect(decided.status).toBe(303);
    expect((await api.lookup(stuck.body.pidx)).body.status).toBe('Completed');
    expect((await browser.post(`/console/providers/attempts/${attempt}/resolve`, { decision: 'paid', reason: 'again' })).status).toBe(409);

    const refundIdx = /data-refund="([^"]+)"/.exec(page.body)![1];
    expect((await browser.post(`/console/providers/refunds/${refundIdx}/refunded`, { reference: 'X' })).status).toBe(403);
    const finance = await signedIn('finance');
    await finance.get('/console/providers');
    expect((await finance.post(`/console/providers/refunds/${refundIdx}/refunded`, { reference: '' })).status).toBe(400);
    expect((await finance.post(`/console/providers/refunds/${refundIdx}/refunded`, { reference: 'ESEWA-RF-77' })).status).toBe(303);
    const [entry] = await t.db.query<{ action: string; actor_label: string }>("SELECT action, actor_label FROM audit_log WHERE object_id = $1", [refundIdx]);
    expect(entry.action).toBe('provider_refund.mark');
    expect((await verifyLedger(t.db)).filter((r) => !r.holds)).toEqual([]);
  });

  it('lets an admin set up and disable a provider, audited, never showing a credential back', async () => {
    const support = await signedIn('support');
    await support.get('/console/providers');
    expect((await support.post('/console/providers/khalti/test/disable', {})).status).toBe(403);
    const admin = await signedIn('admin');
    const page = await admin.get('/console/providers');
    expect(page.body).toContain('/console/providers/khalti/set');
    const refused = await admin.post('/console/providers/esewa/set', { environment: 'test', form_url: 'nope', status_url: 'https://esewa.example.com/s', product_code: 'P', secret_key: 'S' });
    expect(refused.status).toBe(400);
    expect(refused.body).toContain('Form URL (ePay v2 form): Enter a valid URL.');
    // The set-up form's inputs are labelled for people, not with field names.
    expect(page.body).toMatch(/<label>Gateway URL \(the payer’s login page\)<input name="gateway_url" type="url"/);
    const set = await admin.post('/console/providers/esewa/set', { environment: 'test', form_url: 'https://rc-epay.esewa.example/form', status_url: 'https://rc.esewa.example/status', product_code: 'SHOP1', secret_key: 'very-secret-hmac-key' });
    expect(set.status).toBe(303);
    const after = await admin.get('/console/providers');
    expect(after.body).toContain('https://rc-epay.esewa.example/form');
    expect(after.body).not.toContain('very-secret-hmac-key');
    expect((await admin.post('/console/providers/esewa/test/disable', {})).status).toBe(303);
    const { body } = await api.initiate(validInitiate());
    expect((await providerPayer(t.app).browser.open(body.pidx)).body).not.toContain('value="esewa"');
    const audit = await t.db.query<{ action: string; after: unknown }>("SELECT action, after FROM audit_log WHERE object_type = 'provider' AND object_id = 'esewa:test' ORDER BY id");
    expect(audit.map((a) => a.action)).toEqual(['provider.set', 'provider.disable']);
    expect(JSON.stringify(audit)).not.toContain('very-secret-hmac-key');
    expect(formField(after.body, 'csrf_token')).not.toBe('');
  });
});
