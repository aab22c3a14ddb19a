// A failover seen from the service: for a moment its connections reach a PostgreSQL that no longer
// takes writes (the old primary demoted in place, or HAProxy still pointing at a node that has just
// become a replica). PostgreSQL answers such a write with SQLSTATE 25006; the client must get the
// contract's 503 with Retry-After, as for any unreachable store, not a 500. Reads still answer.
// Here the connections are made read-only with `default_transaction_read_only`, PostgreSQL's own
// error for a write on a standby.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../src/db/db.js';
import { openPostgres } from '../../src/db/postgres.js';
import { merchantApi, validInitiate } from '../api-client.js';
import { newMerchant, startTestApp, type TestApp } from '../test-app.js';

const url = process.env.DATABASE_URL;
const readOnly = (base: string) => `${base}${base.includes('?') ? '&' : '?'}options=${encodeURIComponent('-c default_transaction_read_only=on')}`;

/** A store whose every statement goes to `to()` at the time: what HAProxy does when it switches nodes. */
function switching(to: () => Db): Db {
  return {
    kind: 'postgres',
    get batches() {
      return to().batches;
    },
    query: (sql, params) => to().query(sql, params),
    exec: (sql) => to().exec(sql),
    transaction: (work) => to().transaction(work),
    close: async () => {},
  };
}

describe.skipIf(!url?.startsWith('postgres'))('writes reaching a read-only PostgreSQL (a demoted primary)', () => {
  let primary: Db;
  let standby: Db;
  let node: Db;
  let writable: TestApp;
  let demoted: TestApp;
  beforeAll(async () => {
    primary = openPostgres(url!, { max: 4 });
    standby = openPostgres(readOnly(url!), { max: 4 });
    node = primary;
    writable = await startTestApp();
    // The app starts on the primary (it writes its server secret on start), then its node is demoted.
    demoted = await startTestApp({ db: switching(() => node) });
    node = standby;
  });
  afterAll(async () => {
    await demoted?.close();
    await writable?.close();
    await Promise.all([primary?.close(), standby?.close()]);
  });

  it('answers an initiate with 503 and Retry-After, and a lookup still answers', async () => {
    const { test_secret_key: key } = await newMerchant(writable.ctx);
    const paid = await merchantApi(writable.app, key).initiate();
    expect(paid.status).toBe(200);

    const initiate = await demoted.app.inject({ method: 'POST', url: '/api/v2/epayment/initiate/', headers: { authorization: `Key ${key}` }, payload: validInitiate() });
    expect(initiate.statusCode).toBe(503);
    expect(initiate.headers['retry-after']).toBe('1');
    expect(initiate.json()).toMatchObject({ status_code: 503 });

    const lookup = await merchantApi(demoted.app, key).lookup(paid.body.pidx);
    expect(lookup.status).toBe(200);
    expect(lookup.body.status).toBe('Initiated');
  });
});
