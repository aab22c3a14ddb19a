// Storing new payments several at a time: each gets its own answer, whether its door's order is new,
// already stored, or twice in the same statement; an order already there is left as it was.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newMerchant, startTestApp, type TestApp } from '../../test/test-app.js';
import type { PaymentDoor } from './payment.js';
import { findPayment, insertPayments, type NewPayment } from './payment-store.js';

let t: TestApp;
let merchantId: number;

beforeAll(async () => {
  t = await startTestApp();
  merchantId = (await newMerchant(t.ctx)).merchant.id;
});
afterAll(() => t.close());

let made = 0;
function newPayment(door: PaymentDoor, order: string, amount = 1000): NewPayment {
  made += 1;
  const now = t.clock.now();
  return {
    pidx: `StoreTestPidx${String(made).padStart(9, '0')}`,
    merchant_id: merchantId,
    environment: 'test',
    purchase_order_id: order,
    purchase_order_name: order,
    amount,
    fee: 0,
    return_url: 'https://shop.example.com/return',
    website_url: 'https://shop.example.com',
    customer_info: null,
    amount_breakdown: null,
    product_details: null,
    merchant_fields: {},
    payment_link: null,
    created_at: now,
    expires_at: new Date(now.getTime() + 60_000),
    door,
    door_fields: door === 'khalti-v2' ? null : { product_code: 'EPAYTEST', failure_url: 'https://shop.example.com/failure' },
  };
}

const statementsSent = async <T>(work: () => Promise<T>): Promise<{ result: T; statements: string[] }> => {
  const query = t.db.query;
  const statements: string[] = [];
  t.db.query = ((sql: string, params?: unknown[]) => {
    if (sql.includes('INSERT INTO payments')) statements.push(sql.includes('ON CONFLICT') ? 'once' : 'new');
    return query.call(t.db, sql, params);
  }) as typeof query;
  try {
    return { result: await work(), statements };
  } finally {
    t.db.query = query;
  }
};

describe('insertPayments', () => {
  it('stores new orders of every door in one statement, without ON CONFLICT', async () => {
    const payments = [newPayment('khalti-v2', 'store-k-1'), newPayment('esewa-v2', 'store-e-1'), newPayment('esewa-v1', 'store-v1-1')];
    const { result, statements } = await statementsSent(() => insertPayments(t.db, payments));
    expect(result).toEqual([true, true, true]);
    expect(statements).toEqual(['new']);
    for (const p of payments) expect((await findPayment(t.db, p.pidx))?.purchase_order_id).toBe(p.purchase_order_id);
  });

  it('an eSewa v2 order already stored: the others of the statement are stored, that one is false and stays as it was', async () => {
    const first = newPayment('esewa-v2', 'store-e-2', 1000);
    await insertPayments(t.db, [first]);
    const again = newPayment('esewa-v2', 'store-e-2', 2000);
    const others = [newPayment('khalti-v2', 'store-k-2'), newPayment('esewa-v2', 'store-e-3')];
    const { result, statements } = await statementsSent(() => insertPayments(t.db, [others[0], again, others[1]]));
    expect(result).toEqual([true, false, true]);
    expect(statements).toEqual(['new', 'once']);
    expect(await findPayment(t.db, again.pidx)).toBeUndefined();
    expect(await findPayment(t.db, first.pidx)).toMatchObject({ amount: 1000, status: 'Initiated' });
    for (const p of others) expect(await findPayment(t.db, p.pidx)).toBeDefined();
  });

  it('one eSewa v2 order twice in a statement: the first is stored, the second is false', async () => {
    const [a, b] = [newPayment('esewa-v2', 'store-e-4', 1000), newPayment('esewa-v2', 'store-e-4', 3000)];
    expect(await insertPayments(t.db, [a, b])).toEqual([true, false]);
    expect((await t.db.query('SELECT amount FROM payments WHERE purchase_order_id = $1', ['store-e-4'])).map((r) => Number(r.amount))).toEqual([1000]);
  });

  it('the same order through other doors is a payment each time (an unsigned pid, the v2 web checkout)', async () => {
    const payments = [newPayment('esewa-v1', 'store-o-1'), newPayment('esewa-v1', 'store-o-1'), newPayment('khalti-v2', 'store-o-1'), newPayment('khalti-v2', 'store-o-1')];
    expect(await insertPayments(t.db, payments)).toEqual([true, true, true, true]);
  });
});
