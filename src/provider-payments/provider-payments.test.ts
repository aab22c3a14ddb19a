// The hosted page's ways to pay through providers, end to end against each registered provider's
// sandbox simulator: the payer picks one, pays on its page, comes back; the payment completes only on
// the provider's server-to-server answer.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyLedger } from '../ledger/verify-ledger.js';
import { merchantApi, validInitiate } from '../../test/api-client.js';
import { callbackParams } from '../../test/portal-client.js';
import { providerPayer } from '../../test/provider-payer.js';
import { newMerchant, startTestApp, type TestApp } from '../../test/test-app.js';
import { reconcileAttempts } from './reconcile-attempts.js';
import { ESEWA_FORM, esewaForm, postForm } from '../../test/esewa-client.js';
import { providerLabel, providerNames, recordTypeOf, type ProviderName } from '../providers/registry.js';

let t: TestApp;
let api: ReturnType<typeof merchantApi>;

beforeAll(async () => {
  // A store of its own: provider health and set-up are the whole store's.
  t = await startTestApp({ ownDb: true, config: { providerTimeoutMs: 300, providerReconcileIntervalSeconds: 1, providerReconcileLimit: 4 } });
  api = merchantApi(t.app, (await newMerchant(t.ctx)).test_secret_key);
});
afterAll(() => t.close());

async function initiate(amount = 1500) {
  const { body } = await api.initiate(validInitiate({ amount }));
  return body.pidx as string;
}

/** The providers whose return carries their signature (eSewa's `data`, Fonepay's `DV`): a payer who paid. */
const signsReturns = (name: ProviderName) => name === 'esewa' || name === 'fonepay';

/**
 * The payer is back and the provider cannot tell yet: a signed return holds the payment Pending and
 * goes on to the merchant; any other (anyone could send it) leaves it payable and tells the payer the
 * provider has not confirmed it yet.
 */
async function expectUnconfirmed(name: ProviderName, payer: ReturnType<typeof providerPayer>, back: { status: number; location?: string }, pidx: string) {
  if (signsReturns(name)) {
    expect(callbackParams(back.location!).status).toBe('Pending');
    expect((await api.lookup(pidx)).body.status).toBe('Pending');
    return;
  }
  expect(back.status).toBe(303);
  expect(back.location).toContain('notice=provider_checking');
  expect((await payer.browser.get(back.location!)).body).toContain(`${providerLabel(name)} has not confirmed this payment yet`);
  expect((await api.lookup(pidx)).body.status).toBe('Initiated');
}

// Every registered provider, with the list's name of a payment through it.
const providers: [ProviderName, string][] = providerNames.map((name) => [name, recordTypeOf(name)]);

describe.each(providers)('paying through %s in the sandbox', (name, typeName) => {
  it('offers the provider on the hosted page, as a button named for it', async () => {
    const pidx = await initiate();
    const page = await providerPayer(t.app).browser.open(pidx);
    expect(page.body).toContain(`name="provider" value="${name}"`);
    expect(page.body).toMatch(new RegExp(`<button type="submit" class="provider provider-${name}">${providerLabel(name)}</button>`));
  });

  it('completes the payment once the provider says it was paid, with the record named for the provider', async () => {
    const pidx = await initiate(1500);
    const back = await providerPayer(t.app).pay(pidx, name, 'paid');
    // A page on to the merchant, not a redirect (the provider's form-action would hold it).
    expect(back.status).toBe(200);
    const callback = callbackParams(back.location!);
    expect(callback).toMatchObject({ pidx, status: 'Completed', amount: '1500' });
    const lookup = await api.lookup(pidx);
    expect(lookup.body).toMatchObject({ status: 'Completed', transaction_id: callback.transaction_id });
    const list = await api.transactions({ purchase_order_id: lookup.body.purchase_order_id });
    expect(list.body.records[0].type.name).toBe(typeName);
    expect((await verifyLedger(t.db)).filter((r) => !r.holds)).toEqual([]);
  });

  it('leaves the payment payable when the payer cancels there, and says so on the hosted page', async () => {
    const pidx = await initiate();
    const payer = providerPayer(t.app);
    const back = await payer.pay(pidx, name, 'canceled');
    expect(back.status).toBe(303);
    expect(back.location).toContain(`/pay/?pidx=${pidx}`);
    const page = await payer.browser.get(back.location!);
    expect(page.body).toContain('not completed there');
    expect((await api.lookup(pidx)).body.status).toBe('Initiated');
  });

  it(`${signsReturns(name) ? 'holds the payment Pending' : 'holds nothing, and says the provider has not confirmed,'} while the provider cannot tell, then completes it when it can`, async () => {
    const pidx = await initiate(2000);
    const payer = providerPayer(t.app);
    const back = await payer.pay(pidx, name, 'pending_then_paid');
    await expectUnconfirmed(name, payer, back, pidx);
    for (let run = 0; run < 6 && (await api.lookup(pidx)).body.status !== 'Completed'; run++) {
      t.clock.advance(600);
      await reconcileAttempts(t.ctx);
    }
    expect((await api.lookup(pidx)).body.status).toBe('Completed');
    expect((await verifyLedger(t.db)).filter((r) => !r.holds)).toEqual([]);
  });

  it(`${signsReturns(name) ? 'holds the payment Pending' : 'holds nothing'} when the provider never answers, and hands it to the operators at the limit`, async () => {
    const pidx = await initiate();
    const payer = providerPayer(t.app);
    const back = await payer.pay(pidx, name, 'never_answers');
    await expectUnconfirmed(name, payer, back, pidx);
    for (let run = 0; run < 6; run++) {
      t.clock.advance(600);
      await reconcileAttempts(t.ctx);
    }
    const [attempt] = await t.db.query<{ state: string; checks: number }>('SELECT state, checks FROM provider_attempts WHERE pidx = $1', [pidx]);
    expect(attempt.state).toBe('Escalated');
    // Never held, the payment runs out as any unpaid one (an hour has passed); the operators decide the attempt.
    expect((await api.lookup(pidx)).body.status).toBe(signsReturns(name) ? 'Pending' : 'Expired');
  });
});

describe('amounts a provider takes', () => {
  it('offers Khalti no payment below Rs 10, and refuses a forced start of it cleanly, with no call to Khalti', async () => {
    const health = () => t.db.query<{ failures_in_a_row: number; cooldown_until: Date | null }>("SELECT failures_in_a_row, cooldown_until FROM provider_health WHERE name = 'khalti' AND environment = 'test'");
    const before = await health();
    const pidx = await initiate(999);
    const payer = providerPayer(t.app);
    const page = await payer.browser.open(pidx);
    expect(page.body).not.toContain('value="khalti"');
    expect(page.body).not.toMatch(/>Khalti<\/button>/);
    expect(page.body).toContain('value="esewa"');
    for (let i = 0; i < 3; i++) {
      const forced = await payer.choose(pidx, 'khalti');
      expect(forced.status).toBe(400);
      expect(forced.body).toContain('not available at the moment');
    }
    expect(await t.db.query('SELECT 1 FROM provider_attempts WHERE pidx = $1', [pidx])).toEqual([]);
    expect(await health()).toEqual(before);
    expect((await api.lookup(pidx)).body.status).toBe('Initiated');
    const atLeast = await initiate(1000);
    expect((await payer.browser.open(atLeast)).body).toContain('value="khalti"');
  });
});

describe('a payment of eSewa’s door paid through a provider', () => {
  it('goes back as eSewa’s door sends it: success_url with the signed data', async () => {
    const merchant = await newMerchant(t.ctx);
    const form = esewaForm(merchant.esewa.test);
    const posted = await postForm(t.app, ESEWA_FORM, form);
    expect(posted.status).toBe(302);
    const pidx = new URL(posted.location!, 'http://bhuktani.test').searchParams.get('pidx')!;
    const back = await providerPayer(t.app).pay(pidx, 'khalti', 'paid');
    expect(back.location).toMatch(/^https:\/\/shop\.example\.com\/esewa\/success\?cart=7&data=/);
    const data = JSON.parse(Buffer.from(new URL(back.location!).searchParams.get('data')!, 'base64').toString());
    expect(data).toMatchObject({ status: 'COMPLETE', transaction_uuid: form.transaction_uuid, total_amount: '110.0' });
  });
});
