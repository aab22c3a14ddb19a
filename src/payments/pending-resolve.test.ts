// The sandbox's pending wallet 9800000007 holds a payment; only the operator
// moves it on, to Completed (the money moves then) or User canceled (the order is released).
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { merchantApi, validInitiate } from '../../test/api-client.js';
import { callbackParams, payerBrowser } from '../../test/portal-client.js';
import { newMerchant, startTestApp, type TestApp } from '../../test/test-app.js';
import { CLI_ACTOR } from '../audit/audit-entry.js';
import { listAudit } from '../audit/audit-store.js';
import { AppError } from '../http/errors.js';
import { verifyLedger } from '../ledger/verify-ledger.js';
import { resolvePayment } from './resolve-payment.js';

let t: TestApp;
let api: ReturnType<typeof merchantApi>;

beforeAll(async () => {
  t = await startTestApp();
  api = merchantApi(t.app, (await newMerchant(t.ctx, { fee_bps: 200 })).test_secret_key);
});
afterAll(() => t.close());
afterEach(async () => {
  expect((await verifyLedger(t.db)).filter((r) => !r.holds)).toEqual([]);
});

async function journalsOf(pidx: string): Promise<{ kind: string }[]> {
  return t.db.query<{ kind: string }>('SELECT kind FROM journals WHERE pidx = $1', [pidx]);
}

async function eventsOf(pidx: string): Promise<string[]> {
  const rows = await t.db.query<{ event: string }>('SELECT event FROM payment_events WHERE pidx = $1 ORDER BY id', [pidx]);
  return rows.map((r) => r.event);
}

/** Initiates and pays with the pending wallet; returns the pidx and the callback's parameters. */
async function holdPayment(overrides: Record<string, unknown> = {}) {
  const order = validInitiate({ amount: 4321, ...overrides });
  const { body } = await api.initiate(order);
  const done = await payerBrowser(t.app).pay(body.pidx, '9800000007');
  expect(done.status).toBe(303);
  return { pidx: body.pidx as string, order, params: callbackParams(done.location!) };
}

describe('the pending wallet 9800000007', () => {
  it('leaves the payment Pending: callback Pending with a transaction_id, lookup Pending with transaction_id null, no money moved', async () => {
    const { pidx, order, params } = await holdPayment();
    expect(params).toMatchObject({
      pidx,
      status: 'Pending',
      amount: '4321',
      total_amount: '4321',
      mobile: '98XXXXXXX7',
      purchase_order_id: order.purchase_order_id,
    });
    expect(params.transaction_id).toMatch(/^[\w-]{22}$/);
    expect(params.tidx).toBe(params.transaction_id);
    expect(params.txnId).toBe(params.transaction_id);

    const lookup = await api.lookup(pidx);
    expect(lookup.status).toBe(200);
    expect(lookup.body).toMatchObject({ pidx, status: 'Pending', transaction_id: null, total_amount: 4321, fee: 86, refunded: false });
    expect(await journalsOf(pidx)).toEqual([]);
    expect(await eventsOf(pidx)).toEqual(['otp_sent', 'hold']);

    const page = await payerBrowser(t.app).open(pidx);
    expect(page.status).toBe(200);
    expect(page.body).toContain('This payment is being processed.');
  });

  it('resolved Completed: lookup Completed with the callback transaction_id and exactly one payment journal', async () => {
    const { pidx, params } = await holdPayment();
    const resolved = await resolvePayment(t.ctx, { actor: CLI_ACTOR, pidx, resolution: 'Completed' });
    expect(resolved).toMatchObject({ pidx, status: 'Completed', transaction_id: params.transaction_id });

    const lookup = await api.lookup(pidx);
    expect(lookup.status).toBe(200);
    expect(lookup.body).toMatchObject({ status: 'Completed', transaction_id: params.transaction_id, fee: 86 });
    expect(await journalsOf(pidx)).toEqual([{ kind: 'payment' }]);
    const postings = await t.db.query<{ kind: string; amount: number }>(
      `SELECT a.kind, p.amount FROM postings p JOIN journals j ON j.id = p.journal_id JOIN ledger_accounts a ON a.id = p.account_id
        WHERE j.pidx = $1 ORDER BY p.amount`,
      [pidx],
    );
    expect(postings).toEqual([
      { kind: 'wallet', amount: -4321 },
      { kind: 'fee', amount: 86 },
      { kind: 'merchant', amount: 4235 },
    ]);
    expect(await eventsOf(pidx)).toEqual(['otp_sent', 'hold', 'resolve_completed']);
  });

  it('resolved User canceled: lookup 400 User canceled, no money moved, and the order can be paid with a new pidx', async () => {
    const { pidx, order } = await holdPayment();

    // While it is held, another pidx of the order cannot be paid.
    const { body: blocked } = await api.initiate(validInitiate({ purchase_order_id: order.purchase_order_id }));
    expect((await payerBrowser(t.app).open(blocked.pidx)).status).toBe(409);

    const resolved = await resolvePayment(t.ctx, { actor: CLI_ACTOR, pidx, resolution: 'User canceled' });
    expect(resolved.status).toBe('User canceled');
    const lookup = await api.lookup(pidx);
    expect(lookup.status).toBe(400);
    expect(lookup.body).toMatchObject({ status: 'User canceled', transaction_id: null, total_amount: 4321, fee: 86, refunded: false });
    expect(await journalsOf(pidx)).toEqual([]);

    const { body: again } = await api.initiate(validInitiate({ purchase_order_id: order.purchase_order_id, amount: 4321 }));
    const done = await payerBrowser(t.app).pay(again.pidx, '9800000001');
    expect(done.status).toBe(303);
    expect(callbackParams(done.location!).status).toBe('Completed');
    expect((await api.lookup(again.pidx)).body.status).toBe('Completed');
    // The pidx blocked while the order was held stays blocked: the order is paid now.
    expect((await payerBrowser(t.app).open(blocked.pidx)).status).toBe(409);
  });

  it('only a Pending payment can be resolved, and only once', async () => {
    const { pidx } = await holdPayment();
    await resolvePayment(t.ctx, { actor: CLI_ACTOR, pidx, resolution: 'Completed' });
    await expect(resolvePayment(t.ctx, { actor: CLI_ACTOR, pidx, resolution: 'User canceled' })).rejects.toMatchObject({
      code: 'bad_request',
      message: 'Only a Pending payment can be resolved; this one is Completed.',
    });
    await expect(resolvePayment(t.ctx, { actor: CLI_ACTOR, pidx, resolution: 'Completed' })).rejects.toBeInstanceOf(AppError);
    expect(await journalsOf(pidx)).toEqual([{ kind: 'payment' }]);

    const { body: initiated } = await api.initiate();
    await expect(resolvePayment(t.ctx, { actor: CLI_ACTOR, pidx: initiated.pidx, resolution: 'Completed' })).rejects.toMatchObject({ code: 'bad_request' });
    expect((await api.lookup(initiated.pidx)).body.status).toBe('Initiated');
    await expect(resolvePayment(t.ctx, { actor: CLI_ACTOR, pidx: 'no-such-pidx', resolution: 'Completed' })).rejects.toMatchObject({ code: 'not_found' });
  });

  it('two operators resolving at once: one wins, one journal', async () => {
    const { pidx } = await holdPayment();
    const results = await Promise.allSettled([
      resolvePayment(t.ctx, { actor: CLI_ACTOR, pidx, resolution: 'Completed' }),
      resolvePayment(t.ctx, { actor: CLI_ACTOR, pidx, resolution: 'Completed' }),
      resolvePayment(t.ctx, { actor: CLI_ACTOR, pidx, resolution: 'User canceled' }),
    ]);
    const won = results.filter((r) => r.status === 'fulfilled');
    expect(won).toHaveLength(1);
    for (const lost of results.filter((r) => r.status === 'rejected')) expect((lost as PromiseRejectedResult).reason).toBeInstanceOf(AppError);
    const status = (won[0] as PromiseFulfilledResult<{ status: string }>).value.status;
    expect((await api.lookup(pidx)).body.status).toBe(status);
    expect(await journalsOf(pidx)).toEqual(status === 'Completed' ? [{ kind: 'payment' }] : []);
    const audit = await listAudit(t.db, { objectType: 'payment', objectId: pidx, limit: 10 });
    expect(audit.map((e) => [e.action, e.after])).toEqual([['payment.resolve', { status }]]);
  });

  it('a Pending payment is not expired by time', async () => {
    const { pidx } = await holdPayment();
    t.clock.advance(3601);
    const lookup = await api.lookup(pidx);
    expect(lookup.status).toBe(200);
    expect(lookup.body.status).toBe('Pending');
    await resolvePayment(t.ctx, { actor: CLI_ACTOR, pidx, resolution: 'Completed' });
    expect((await api.lookup(pidx)).body.status).toBe('Completed');
  });
});
