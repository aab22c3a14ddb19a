// A refund whose outcome the service could not learn: its transaction committed (on the old primary,
// and so on the synchronous standby that is primary now), then the store went away before the
// Idempotency-Key's response was saved, and the merchant got a 503. The merchant retries with the
// same key once the store is back (after the key's lease, as a client that waited): the refund must
// not run twice. The failure is injected at the store's interface: every statement after the
// refund's commit fails as a lost connection does, until the store "is back".
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../src/db/db.js';
import { IDEMPOTENCY_LEASE_SECONDS } from '../../src/http/idempotency-store.js';
import { merchantApi, validInitiate } from '../api-client.js';
import { callbackParams, payerBrowser } from '../portal-client.js';
import { newMerchant, openTestDb, startTestApp, type TestApp } from '../test-app.js';

const lost = () => new Error('Connection terminated unexpectedly');

describe('a refund or an initiate whose response was lost with the primary', () => {
  let store: Db;
  let down = false;
  let failAfterCommit = false;
  let t: TestApp;
  beforeAll(async () => {
    store = await openTestDb();
    const gate = <T>(work: () => Promise<T>) => (down ? Promise.reject(lost()) : work());
    t = await startTestApp({
      db: {
        kind: store.kind,
        batches: store.batches,
        query: (sql, params) => gate(() => store.query(sql, params)),
        exec: (sql) => gate(() => store.exec(sql)),
        transaction: (work) =>
          gate(async () => {
            const result = await store.transaction(work);
            if (failAfterCommit) down = true;
            return result;
          }),
        close: () => store.close(),
      },
    });
  });
  afterAll(() => t?.close());

  it('is made once: the retry with the same Idempotency-Key replays the answer', async () => {
    const merchant = await newMerchant(t.ctx);
    const api = merchantApi(t.app, merchant.test_secret_key);
    const initiated = await api.initiate(validInitiate({ amount: 1000 }));
    const paid = await payerBrowser(t.app).pay(initiated.body.pidx, '9800000001');
    const { transaction_id } = callbackParams(paid.location!);
    const refund = () =>
      t.app.inject({
        method: 'POST',
        url: `/api/merchant-transaction/${transaction_id}/refund/`,
        headers: { authorization: `Key ${merchant.test_secret_key}`, 'idempotency-key': 'refund-1' },
        payload: { amount: 100 },
      });

    failAfterCommit = true;
    const first = await refund();
    expect(first.statusCode).toBe(503);
    expect(first.headers['retry-after']).toBe('1');

    // The store is back; the client retries after the key's lease has run out.
    failAfterCommit = false;
    down = false;
    t.clock.advance(IDEMPOTENCY_LEASE_SECONDS + 1);
    const retried = await refund();
    expect(retried.statusCode).toBe(200);
    expect(retried.json()).toEqual({ detail: 'Transaction refund successful.' });

    const lookup = await api.lookup(initiated.body.pidx);
    expect(lookup.body).toMatchObject({ status: 'Partially refunded', refunded_amount: 100 });
  });

  it('holds for an initiate too: the retry gets the payment that was made, and no second one is made', async () => {
    const merchant = await newMerchant(t.ctx);
    const order = `order-lost-${Date.now()}`;
    const initiate = () =>
      t.app.inject({
        method: 'POST',
        url: '/api/v2/epayment/initiate/',
        headers: { authorization: `Key ${merchant.test_secret_key}`, 'idempotency-key': 'initiate-1' },
        payload: validInitiate({ amount: 1000, purchase_order_id: order }),
      });

    failAfterCommit = true;
    const first = await initiate();
    expect(first.statusCode).toBe(503);

    failAfterCommit = false;
    down = false;
    t.clock.advance(IDEMPOTENCY_LEASE_SECONDS + 1);
    const retried = await initiate();
    expect(retried.statusCode).toBe(200);
    const made = await store.query<{ pidx: string }>('SELECT pidx FROM payments WHERE merchant_id = $1 AND purchase_order_id = $2', [merchant.merchant.id, order]);
    expect(made).toEqual([{ pidx: retried.json().pidx }]);
    expect((await merchantApi(t.app, merchant.test_secret_key).lookup(retried.json().pidx)).body).toMatchObject({ status: 'Initiated', total_amount: 1000 });
  });
});
