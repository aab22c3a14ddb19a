// READ_DATABASE_URL: the reads that tolerate lag (the transaction list, exports, the console's
// lists) go to the replicas; lookups, the hosted page and everything deciding about money stay on
// the primary. Here the "replica" is a store of its own that has not yet received what the primary
// wrote (a replica lagging behind, at its extreme), so what reads where is visible: the list shows
// the lag, the lookup never does. Then the replica catches up (its reads see the primary's data).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../src/db/db.js';
import { merchantApi, validInitiate } from '../api-client.js';
import { callbackParams, payerBrowser } from '../portal-client.js';
import { newMerchant, openTestDb, ownTestDb, startTestApp, type TestApp } from '../test-app.js';

describe('reads on a lagging replica (READ_DATABASE_URL)', () => {
  let primary: Db;
  let behind: Awaited<ReturnType<typeof ownTestDb>>;
  let caughtUp = false;
  let t: TestApp;
  beforeAll(async () => {
    primary = await openTestDb();
    behind = await ownTestDb();
    const replica = () => (caughtUp ? primary : behind.db);
    t = await startTestApp({
      db: {
        ...primary,
        get reads() {
          return replica();
        },
      },
    });
  });
  afterAll(async () => {
    await t?.close();
    await behind?.drop();
    await primary?.close();
  });

  it('lists from the replica, with its lag, while lookup and the hosted page answer from the primary', async () => {
    const merchant = await newMerchant(t.ctx);
    const api = merchantApi(t.app, merchant.test_secret_key);
    const initiated = await api.initiate(validInitiate({ amount: 2500 }));
    expect(initiated.status).toBe(200);
    const paid = await payerBrowser(t.app).pay(initiated.body.pidx, '9800000001');
    expect(paid.status).toBe(303);
    const { transaction_id } = callbackParams(paid.location!);

    // The primary decides: the payment is Completed at once.
    const lookup = await api.lookup(initiated.body.pidx);
    expect(lookup.body).toMatchObject({ status: 'Completed', transaction_id });

    // The list reads the replica, which has not caught up: the lag a merchant can see.
    const lagging = await api.transactions();
    expect(lagging.status).toBe(200);
    expect(lagging.body.total_records).toBe(0);

    caughtUp = true;
    const listed = await api.transactions();
    expect(listed.body.records.map((r: { idx: string }) => r.idx)).toEqual([transaction_id]);
  });
});
