// The list found by counted hours must be exactly the list found by counting and skipping.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { merchantApi } from '../../test/api-client.js';
import { newMerchant, startTestApp, type TestApp } from '../../test/test-app.js';
import { setPaymentRecordState } from './transaction-store.js';

let t: TestApp;
let merchantId: number;
let api: ReturnType<typeof merchantApi>;
const run = `${process.pid}${Date.now()}`;

/**
 * `count` records, one every `spacingSeconds` going back from `newest`, record states cycling. The
 * payments are held (Pending), so the seeded store still passes `ledger verify`: no money moved.
 */
async function seed(prefix: string, count: number, newest: Date, spacingSeconds: number) {
  await t.db.query(
    `WITH n AS (SELECT g, $3::timestamptz - make_interval(secs => g * $4) AS at,
                       (ARRAY['Completed','Completed','Completed','Confirmed','Canceled'])[1 + g % 5] AS state
                  FROM generate_series(0, $2 - 1) g),
          p AS (
       INSERT INTO payments (pidx, merchant_id, environment, purchase_order_id, purchase_order_name, amount, fee, return_url, website_url,
                             status, transaction_id, payer_mobile, created_at, expires_at, updated_at)
       SELECT $5 || g, $1, 'test', 'o' || $5 || g, 'Seeded', 1000, 30, 'https://x.example/r', 'https://x.example',
              'Pending', 'tx' || $5 || g, '9800000001', at, at, at
         FROM n RETURNING pidx)
     INSERT INTO transactions (idx, merchant_id, environment, type, state, pidx, purchase_order_id, amount, fee_amount, payer_idx, payer_mobile, payer_name, created_at)
     SELECT 'tx' || $5 || g, $1, 'test', 'Wallet payment', state, $5 || g, 'o' || $5 || g, 1000, 30, 'payer', '9800000001', 'Payer', at FROM n`,
    [merchantId, count, newest, spacingSeconds, `${run}-${prefix}`],
  );
}

async function naiveIds(status: string | undefined, page: number, pageSize: number) {
  const rows = await t.db.query<{ idx: string }>(
    `SELECT idx FROM transactions WHERE merchant_id = $1 AND environment = 'test' ${status ? 'AND state = $2' : ''}
      ORDER BY created_at DESC, id DESC LIMIT ${pageSize} OFFSET ${(page - 1) * pageSize}`,
    status ? [merchantId, status] : [merchantId],
  );
  return rows.map((r) => r.idx);
}

async function naiveTotal(status?: string) {
  const [{ n }] = await t.db.query<{ n: number }>(
    `SELECT count(*) AS n FROM transactions WHERE merchant_id = $1 AND environment = 'test' ${status ? 'AND state = $2' : ''}`,
    status ? [merchantId, status] : [merchantId],
  );
  return n;
}

async function expectSameAsNaive(status?: string) {
  const total = await naiveTotal(status);
  const pageSize = 7;
  const pages = Math.ceil(total / pageSize);
  for (const page of [1, 2, 3, Math.floor(pages / 2), pages - 1, pages]) {
    const { status: code, body } = await api.transactions({ page, page_size: pageSize, ...(status ? { status } : {}) });
    expect(code, `page ${page}`).toBe(200);
    expect(body.total_records).toBe(total);
    expect(body.records.map((r: { idx: string }) => r.idx), `${status ?? 'all'} page ${page}`).toEqual(await naiveIds(status, page, pageSize));
  }
  expect((await api.transactions({ page: pages + 1, page_size: pageSize, ...(status ? { status } : {}) })).status).toBe(404);
}

beforeAll(async () => {
  t = await startTestApp();
  const merchant = await newMerchant(t.ctx);
  merchantId = merchant.merchant.id;
  api = merchantApi(t.app, merchant.test_secret_key);
  const now = t.clock.now();
  // 300 records over the last ~50 hours (closed hours), and 12 in the last few minutes (open).
  await seed('old', 300, new Date(now.getTime() - 2 * 3600_000), 600);
  await seed('new', 12, now, 10);
});
afterAll(() => t.close());

describe('the list by counted hours', () => {
  it('gives the same pages and totals as counting and skipping, for all states and each state', async () => {
    await expectSameAsNaive();
    await expectSameAsNaive('Completed');
    await expectSameAsNaive('Confirmed');
    await expectSameAsNaive('Canceled');
  });

  it('stays exact when a counted record changes state, and as hours close', async () => {
    const [held] = await t.db.query<{ idx: string }>(
      `SELECT idx FROM transactions WHERE merchant_id = $1 AND state = 'Confirmed' AND idx LIKE 'tx' || $2 || '%' ORDER BY created_at LIMIT 1`,
      [merchantId, `${run}-old`],
    );
    await t.db.transaction((tx) => setPaymentRecordState(tx, held.idx, 'Completed'));
    await expectSameAsNaive('Completed');
    await expectSameAsNaive('Confirmed');
    t.clock.advance(3 * 3600);
    await seed('later', 5, t.clock.now(), 30);
    await expectSameAsNaive();
    await expectSameAsNaive('Completed');
  });

  it('stays exact when a day is counted in two passes and over many days', async () => {
    // Noon (UTC) two days on: the morning's hours close now, the afternoon's on the next request.
    const day = 24 * 3600_000;
    const noon = Math.floor(t.clock.now().getTime() / day) * day + 2 * day + 12 * 3600_000 + 10 * 60_000;
    t.clock.advance((noon - t.clock.now().getTime()) / 1000);
    await seed('morning', 40, t.clock.now(), 900);
    await expectSameAsNaive();
    t.clock.advance(3 * 3600);
    await seed('afternoon', 12, t.clock.now(), 900);
    await expectSameAsNaive();
    await expectSameAsNaive('Canceled');
    // A record of an earlier day, already summed into its day, changing state.
    const [held] = await t.db.query<{ idx: string }>(
      `SELECT idx FROM transactions WHERE merchant_id = $1 AND state = 'Confirmed' AND idx LIKE 'tx' || $2 || '%' ORDER BY created_at DESC LIMIT 1`,
      [merchantId, `${run}-old`],
    );
    await t.db.transaction((tx) => setPaymentRecordState(tx, held.idx, 'Canceled'));
    await expectSameAsNaive('Confirmed');
    await expectSameAsNaive('Canceled');
  });
});
