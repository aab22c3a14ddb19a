// A payment link's places when its payers pay through a provider: a
// provider's payment takes a place as a wallet's does; one whose payer paid at the provider after the
// last place went is never completed past max_payments: the money is owed back (a surplus, refunded
// through the provider), and the link keeps exactly its max_payments.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { codeOf, linkApi, linkPayer } from '../../test/link-client.js';
import { providerPayer } from '../../test/provider-payer.js';
import { newMerchant, startTestApp, type TestApp } from '../../test/test-app.js';
import { verifyLedger } from '../ledger/verify-ledger.js';

let t: TestApp;
beforeAll(async () => {
  // A store of its own: provider health and set-up are the whole store's.
  t = await startTestApp({ ownDb: true });
});
afterAll(() => t.close());

const placesTaken = async (idx: string) => (await t.db.query<{ payments_taken: number }>('SELECT payments_taken FROM payment_links WHERE idx = $1', [idx]))[0].payments_taken;
const statusOf = async (pidx: string) => (await t.db.query<{ status: string }>('SELECT status FROM payments WHERE pidx = $1', [pidx]))[0].status;

describe('a payment link paid through a provider', () => {
  it('takes a place; a payer who pays there after the last place went is owed the money back, never completed', async () => {
    const merchant = await newMerchant(t.ctx);
    const { body: link } = await linkApi(t.app, merchant.test_secret_key).create({ name: 'One seat', amount: 2_000, max_payments: 1 });
    const code = codeOf(link.url);

    // Two payers start; the second is on Khalti's page when the first pays with a wallet.
    const { pidx: first } = await linkPayer(t.app).start(code);
    const late = linkPayer(t.app);
    const { pidx: second } = await late.start(code);
    const atKhalti = providerPayer(t.app);
    const simulator = await atKhalti.choose(second!, 'khalti');
    expect(simulator.status).toBe(200);
    expect((await linkPayer(t.app).pay(first!)).done.status).toBe(303);
    expect(await placesTaken(link.idx)).toBe(1);

    // The second pays at Khalti anyway: Khalti says paid, the link has no place left.
    const back = await atKhalti.back(await atKhalti.pick(simulator, 'paid'));
    expect(back.status).toBe(200);
    expect(await statusOf(second!)).toBe('Initiated');
    expect(await placesTaken(link.idx)).toBe(1);
    const [refund] = await t.db.query<{ reason: string; amount: number }>(
      'SELECT r.reason, r.amount FROM provider_refunds r JOIN provider_attempts a ON a.id = r.attempt_id WHERE a.pidx = $1',
      [second],
    );
    expect(refund).toEqual({ reason: 'surplus', amount: 2_000 });
    expect((await verifyLedger(t.db)).filter((r) => !r.holds)).toEqual([]);
  });

  it('a provider payment takes the place: the next payer is told the link is used up', async () => {
    const merchant = await newMerchant(t.ctx);
    const { body: link } = await linkApi(t.app, merchant.test_secret_key).create({ name: 'One more seat', amount: 2_000, max_payments: 1 });
    const code = codeOf(link.url);
    const { pidx: waiting } = await linkPayer(t.app).start(code);
    const { pidx } = await linkPayer(t.app).start(code);
    const back = await providerPayer(t.app).pay(pidx!, 'esewa', 'paid');
    expect(back.status).toBe(200);
    expect(await statusOf(pidx!)).toBe('Completed');
    expect(await placesTaken(link.idx)).toBe(1);
    const [record] = await t.db.query<{ payment_link: string }>('SELECT payment_link FROM transactions WHERE pidx = $1', [pidx]);
    expect(record.payment_link).toBe(link.idx);
    expect((await providerPayer(t.app).browser.open(waiting!)).status).toBe(409);
    expect((await linkPayer(t.app).open(code)).status).toBe(410);
  });
});
