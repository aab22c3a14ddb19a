// The Khalti simulator against Khalti's own published examples (fixtures/kpg-2.ts), not against the
// connector: Khalti's sample initiate goes through, and the simulator's answers, callbacks, lookups
// and errors have the fields, HTTP statuses and words of Khalti's.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { providerPayer } from '../../../test/provider-payer.js';
import { startTestApp, type TestApp } from '../../../test/test-app.js';
import { sandboxSetup } from '../../providers/provider-setup.js';
import { CALLBACKS, GENERIC_ERRORS, INITIATE, LOOKUP, REFUND_API } from '../../providers/khalti/fixtures/kpg-2.js';

let t: TestApp;
let key: string;
beforeAll(async () => {
  t = await startTestApp();
  key = (await sandboxSetup(t.ctx, 'khalti')).credentials.secret_key;
});
afterAll(() => t.close());

const call = (path: string, body: unknown, authorization = `Key ${key}`) =>
  t.app.inject({ method: 'POST', url: `/sandbox/khalti${path}`, headers: { authorization, 'content-type': 'application/json' }, payload: JSON.stringify(body) });

// Khalti's sample request payload (Initiating a Payment request), its return_url on the test app.
const sample = (returnUrl: string) => ({
  return_url: returnUrl,
  website_url: 'https://example.com/',
  amount: 1300,
  purchase_order_id: 'test12',
  purchase_order_name: 'test',
  customer_info: { name: 'Khalti Bahadur', email: 'example@gmail.com', phone: '9800000123' },
  amount_breakdown: [
    { label: 'Mark Price', amount: 1000 },
    { label: 'VAT', amount: 300 },
  ],
  product_details: [{ identity: '1234567890', name: 'Khalti logo', total_price: 1300, quantity: 1, unit_price: 1300 }],
  merchant_username: 'merchant_name',
  merchant_extra: 'merchant_extra',
});

const keysOf = (value: object) => Object.keys(value).sort();
const lookup = async (pidx: string) => {
  const answer = await call('/api/v2/epayment/lookup/', { pidx });
  return { code: answer.statusCode, body: answer.json() };
};

async function initiated() {
  const answer = await call('/api/v2/epayment/initiate/', sample(`${t.ctx.config.publicUrl}/shop/return`));
  expect(answer.statusCode, answer.body).toBe(200);
  return answer.json() as { pidx: string; payment_url: string };
}

describe('the Khalti simulator', () => {
  it('takes Khalti’s sample initiate and answers with the fields of Khalti’s answer, a payment_url naming its pidx', async () => {
    const answer = await call('/api/v2/epayment/initiate/', sample(`${t.ctx.config.publicUrl}/shop/return`));
    expect(answer.statusCode).toBe(200);
    const body = answer.json();
    expect(keysOf(body)).toEqual(keysOf(INITIATE.answer));
    expect(new URL(body.payment_url).searchParams.get('pidx')).toBe(body.pidx);
  });

  it('an unpaid payment looks up as Khalti’s Initiated does', async () => {
    const { pidx } = await initiated();
    const { code, body } = await lookup(pidx);
    expect(code).toBe(LOOKUP.answers.Initiated.code);
    expect(keysOf(body)).toEqual(keysOf(LOOKUP.answers.Initiated.body));
    expect(body).toEqual({ ...LOOKUP.answers.Initiated.body, pidx, total_amount: 1300 });
  });

  it.each([
    ['paid', 'Completed', CALLBACKS.completed],
    ['canceled', 'User canceled', CALLBACKS.canceled],
  ] as const)('%s: the payer comes back with the parameters of Khalti’s callback, and the lookup answers as Khalti’s %s', async (outcome, status, callback) => {
    const { pidx, payment_url } = await initiated();
    const payer = providerPayer(t.app);
    const back = new URL(await payer.pick(await payer.browser.get(new URL(payment_url).pathname + new URL(payment_url).search), outcome));
    expect([...back.searchParams.keys()].sort()).toEqual([...new URLSearchParams(callback).keys()].sort());
    expect(back.searchParams.get('status')).toBe(status);
    const { code, body } = await lookup(pidx);
    const documented = LOOKUP.answers[status];
    expect(code).toBe(documented.code);
    expect(keysOf(body)).toEqual(keysOf(documented.body));
    expect(body.status).toBe(status);
    if (status === 'Completed') {
      expect(body.transaction_id).toBe(back.searchParams.get('transaction_id'));
      const refunded = await call(`/api/merchant-transaction/${body.transaction_id}/refund/`, REFUND_API.walletFull);
      expect(refunded.json()).toEqual(REFUND_API.answer);
      expect((await lookup(pidx)).body).toMatchObject({ status: 'Refunded', refunded: true });
    }
  });

  it('answers Khalti’s generic errors in Khalti’s words: a wrong key, and a pidx it never gave', async () => {
    const wrongKey = await call('/api/v2/epayment/lookup/', { pidx: 'x' }, 'Key not-the-key');
    expect([wrongKey.statusCode, wrongKey.json()]).toEqual([GENERIC_ERRORS.invalidKey.code, GENERIC_ERRORS.invalidKey.body]);
    expect((await lookup('HT6o6PEZRWFJ5ygavzHWd5')).body).toEqual(GENERIC_ERRORS.unknownPidx.body);
  });

  it('refuses an initiate without purchase_order_name in the shape of Khalti’s validation errors', async () => {
    const { purchase_order_name: _name, ...rest } = sample('https://example.com/payment/');
    const answer = await call('/api/v2/epayment/initiate/', rest);
    expect(answer.statusCode).toBe(400);
    expect(keysOf(answer.json())).toEqual(['error_key', 'purchase_order_name']);
    expect(answer.json().error_key).toBe('validation_error');
  });
});
