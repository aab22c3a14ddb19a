// Batch statements keep one generic plan per connection, made at their first run. On a new store
// that run sees empty tables; the plan must still be the one a full table needs (once, a lookup
// planned as a sequential scan over an empty `payments` stayed one over 60,000 rows until PostgreSQL
// next analyzed the table). Every batch statement the service sends, planned as its connection plans
// it on a new store, reads its tables through their indexes.
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { merchantApi } from '../../test/api-client.js';
import { esewaForm, ESEWA_FORM, postForm, statusCheck } from '../../test/esewa-client.js';
import { payerBrowser } from '../../test/portal-client.js';
import { newMerchant, ownTestDb, startTestApp, type TestApp } from '../../test/test-app.js';
import type { Queryable } from './db.js';
import { BATCH_SESSION } from './postgres.js';

const url = process.env.DATABASE_URL;

describe.skipIf(!url?.startsWith('postgres'))('batch statements on a new store', () => {
  const sent = new Map<string, number>();
  let t: TestApp;
  let drop: () => Promise<void>;
  let schema: string;

  beforeAll(async () => {
    const own = await ownTestDb();
    drop = own.drop;
    const batches = own.db.batches!;
    // What the service sends to its batch connections, by text, with how many parameters.
    const recording: Queryable = {
      query: (sql, params = []) => {
        sent.set(sql, params.length);
        return batches.query(sql, params);
      },
      exec: (sql) => batches.exec(sql),
    };
    t = await startTestApp({ db: { ...own.db, batches: recording } });
    [{ search_path: schema }] = await own.db.query<{ search_path: string }>('SHOW search_path');
  });
  afterAll(async () => {
    await t.close();
    await drop();
  });

  it('read their tables through indexes, planned before the tables hold anything', async () => {
    // A payment's whole way: initiate, the hosted page, paying (completion), lookup; eSewa's door.
    const { test_secret_key, esewa } = await newMerchant(t.ctx);
    const api = merchantApi(t.app, test_secret_key);
    const { body } = await api.initiate();
    expect((await payerBrowser(t.app).pay(body.pidx)).status).toBe(303);
    expect((await api.lookup(body.pidx)).body.status).toBe('Completed');
    // eSewa's door: its form, the form again (resumed: read by its order id), its status check.
    const form = esewaForm(esewa.test);
    expect((await postForm(t.app, ESEWA_FORM, form)).status).toBe(302);
    expect((await postForm(t.app, ESEWA_FORM, form)).status).toBe(302);
    expect((await statusCheck(t.app, { product_code: form.product_code, total_amount: '110', transaction_uuid: form.transaction_uuid })).json().status).toBe('PENDING');
    expect(sent.size).toBeGreaterThanOrEqual(5);

    const client = new pg.Client({ connectionString: url, options: `-c search_path=${schema}` });
    await client.connect();
    try {
      await client.query(BATCH_SESSION);
      const plans: Record<string, string> = {};
      for (const [i, [sql, count]] of [...sent].entries()) {
        await client.query(`PREPARE probe_${i} AS ${sql}`);
        const args = count ? `(${Array(count).fill('NULL').join(', ')})` : '';
        const rows = (await client.query<{ 'QUERY PLAN': string }>(`EXPLAIN EXECUTE probe_${i}${args}`)).rows;
        plans[sql.replace(/\s+/g, ' ').slice(0, 60)] = rows.map((row) => row['QUERY PLAN']).join('\n');
      }
      const scanning = Object.entries(plans).filter(([, plan]) => /Seq Scan on/.test(plan));
      expect(scanning, scanning.map(([sql, plan]) => `${sql}…\n${plan}`).join('\n\n')).toEqual([]);
    } finally {
      await client.end();
    }
  });
});
