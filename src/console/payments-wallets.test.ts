// The console's payments and wallets pages driven as an operator's browser would: search across
// merchants, resolve a Pending payment (money moves once, one audit row), wallets made, topped up
// and frozen (the hosted page then refuses the wallet), and each role refused what it may not do.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { merchantApi, validInitiate } from '../../test/api-client.js';
import { newOperator, operatorBrowser, type OperatorBrowser, type TestOperator } from '../../test/console-client.js';
import { pageText } from '../../test/dashboard-client.js';
import { callbackParams, payerBrowser, payWithLiveWallet, uniqueMobile } from '../../test/portal-client.js';
import { newMerchant, startTestApp, type TestApp } from '../../test/test-app.js';
import { listAudit } from '../audit/audit-store.js';
import { verifyLedger } from '../ledger/verify-ledger.js';
import { findWallet } from '../wallets/wallet-store.js';

let t: TestApp;
const signedIn: Partial<Record<TestOperator['role'], OperatorBrowser>> = {};

beforeAll(async () => {
  t = await startTestApp();
  for (const role of ['admin', 'support', 'finance'] as const) {
    const browser = operatorBrowser(t.app, t.ctx);
    const answer = await browser.signIn(await newOperator(t.ctx, role));
    expect(answer.status).toBe(303);
    signedIn[role] = browser;
  }
});
afterAll(() => t.close());
afterEach(async () => {
  expect((await verifyLedger(t.db)).filter((r) => !r.holds)).toEqual([]);
});

const as = (role: TestOperator['role']) => signedIn[role]!;

/** Opens `page` (for its CSRF token), then posts the form to `action`. */
async function submit(role: TestOperator['role'], page: string, action: string, fields: Record<string, string>) {
  const opened = await as(role).get(page);
  expect(opened.status).toBe(200);
  return as(role).post(action, fields);
}

async function held() {
  const api = merchantApi(t.app, (await newMerchant(t.ctx)).test_secret_key);
  const { body } = await api.initiate(validInitiate({ amount: 2500 }));
  const done = await payerBrowser(t.app).pay(body.pidx, '9800000007');
  expect(callbackParams(done.location!).status).toBe('Pending');
  return { api, pidx: body.pidx as string };
}

describe('console payments', () => {
  it('finds a payment of any merchant by pidx, transaction id, purchase order id and payer mobile', async () => {
    const one = merchantApi(t.app, (await newMerchant(t.ctx, { name: 'Yeti Books' })).test_secret_key);
    const other = merchantApi(t.app, (await newMerchant(t.ctx, { name: 'Lhasa Tea' })).test_secret_key);
    const order = `order-${Date.now()}`;
    const a = (await one.initiate(validInitiate({ purchase_order_id: order }))).body;
    const b = (await other.initiate(validInitiate({ purchase_order_id: order }))).body;
    const paid = callbackParams((await payerBrowser(t.app).pay(a.pidx, '9800000003')).location!);

    const found = async (q: string, environment = '') => pageText((await as('finance').get(`/console/payments?q=${encodeURIComponent(q)}&environment=${environment}`)).body);
    expect(await found(order)).toContain('2 payments for');
    expect(await found(order)).toMatch(/Yeti Books[\s\S]*Lhasa Tea|Lhasa Tea[\s\S]*Yeti Books/);
    expect(await found(order, 'live')).toContain('0 payments for');
    expect(await found(b.pidx)).toContain('1 payment for');
    expect(await found(paid.transaction_id)).toContain('Yeti Books');
    expect(await found('9800000003')).toContain(order);
    expect(await found('no-such-thing')).toContain('0 payments for');

    const page = await as('finance').get(`/console/payments/${a.pidx}`);
    expect(page.status).toBe(200);
    expect(pageText(page.body)).toContain('Payment initiated');
    expect(pageText(page.body)).toContain('Paid');
    expect((await as('finance').get('/console/payments/no-such-pidx')).status).toBe(404);
  });

  it('resolves a Pending payment once: the money moves once and one audit row names the operator', async () => {
    const { api, pidx } = await held();
    // Found by its pidx (the Pending queue shows the oldest first, and other files' payments may fill it on a shared store).
    expect((await as('support').get(`/console/payments?q=${pidx}`)).body).toContain(`href="/console/payments/${pidx}"`);
    const answer = await submit('support', `/console/payments/${pidx}`, `/console/payments/${pidx}/resolve`, { resolution: 'Completed', reason: 'Bank confirmed the transfer' });
    expect(answer.status).toBe(303);
    expect(answer.location).toBe(`/console/payments/${pidx}?done=resolved`);
    expect((await api.lookup(pidx)).body.status).toBe('Completed');

    const again = await submit('support', `/console/payments/${pidx}`, `/console/payments/${pidx}/resolve`, { resolution: 'User canceled', reason: 'twice' });
    expect(again.status).toBe(400);
    expect(pageText(again.body)).toContain('Only a Pending payment can be resolved');
    expect(await t.db.query('SELECT kind FROM journals WHERE pidx = $1', [pidx])).toEqual([{ kind: 'payment' }]);
    const audit = await listAudit(t.db, { objectType: 'payment', objectId: pidx, limit: 10 });
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({ action: 'payment.resolve', reason: 'Bank confirmed the transfer', after: { status: 'Completed' } });
    expect(audit[0].actor.kind).toBe('operator');
    const page = pageText((await as('support').get(`/console/payments/${pidx}`)).body);
    expect(page).toContain('Resolved as Completed');
    expect(page).toContain('Bank confirmed the transfer');
  });

  it('asks for a reason, and refuses a finance operator, a forged form and a signed-out browser', async () => {
    const { api, pidx } = await held();
    const noReason = await submit('admin', `/console/payments/${pidx}`, `/console/payments/${pidx}/resolve`, { resolution: 'Completed', reason: ' ' });
    expect(noReason.status).toBe(400);
    expect(pageText((await as('finance').get(`/console/payments/${pidx}`)).body)).toContain('Your role may not resolve payments');
    expect((await submit('finance', `/console/payments/${pidx}`, `/console/payments/${pidx}/resolve`, { resolution: 'Completed', reason: 'x' })).status).toBe(403);
    expect((await as('admin').post(`/console/payments/${pidx}/resolve`, { csrf_token: 'forged', resolution: 'Completed', reason: 'x' })).status).toBe(403);
    expect((await operatorBrowser(t.app, t.ctx).post(`/console/payments/${pidx}/resolve`, { resolution: 'Completed', reason: 'x' })).status).toBe(303);
    expect((await api.lookup(pidx)).body.status).toBe('Pending');
    expect(await listAudit(t.db, { objectType: 'payment', objectId: pidx, limit: 10 })).toEqual([]);
  });
});

describe('console wallets', () => {
  it('creates a live wallet, tops it up with a balanced journal, freezes it so the hosted page refuses it, and unfreezes it', async () => {
    const mobile = uniqueMobile();
    const created = await submit('admin', '/console/wallets', '/console/wallets', { mobile, name: 'Maya Gurung', mpin: '4321', environment: 'live' });
    expect(created.status).toBe(303);
    const walletPage = created.location!.replace(/\?.*$/, '');
    const topped = await submit('admin', walletPage, `${walletPage}/topup`, { amount: '150000', reason: 'Cash deposit at the counter' });
    expect(topped.status).toBe(303);
    const page = await as('support').get(walletPage);
    expect(pageText(page.body)).toContain('Rs. 1,500.00');
    expect(pageText(page.body)).toContain('Top-up');

    const frozen = await submit('support', walletPage, `${walletPage}/freeze`, { reason: 'Phone reported stolen' });
    expect(frozen.status).toBe(303);
    expect(pageText((await as('support').get(`/console/wallets?mobile=${mobile}`)).body)).toContain('Frozen');

    const live = merchantApi(t.app, (await newMerchant(t.ctx)).live_secret_key);
    const { body } = await live.initiate(validInitiate({ amount: 1000 }));
    const refused = await payWithLiveWallet(payerBrowser(t.app), t.sentOtps, body.pidx, { mobile, mpin: '4321' });
    expect(refused.status).toBe(400);
    expect(pageText(refused.body)).toContain('This wallet is frozen and cannot pay.');

    expect((await submit('support', walletPage, `${walletPage}/unfreeze`, { reason: 'Phone found' })).status).toBe(303);
    expect((await payWithLiveWallet(payerBrowser(t.app), t.sentOtps, body.pidx, { mobile, mpin: '4321' })).status).toBe(303);

    const wallet = (await findWallet(t.db, 'live', mobile))!;
    const audit = await listAudit(t.db, { objectType: 'wallet', objectId: wallet.idx, limit: 10 });
    expect(audit.map((e) => e.action)).toEqual(['wallet.unfreeze', 'wallet.freeze', 'wallet.topup', 'wallet.create']);
    expect(audit.every((e) => e.actor.kind === 'operator')).toBe(true);
    expect(audit[2]).toMatchObject({ reason: 'Cash deposit at the counter', after: { balance: 150_000, amount: 150_000 } });
  });

  it('keeps each role to what it may do, and never freezes a sandbox wallet', async () => {
    const mobile = uniqueMobile();
    expect((await submit('support', '/console/wallets', '/console/wallets', { mobile, name: 'X', mpin: '1234', environment: 'live' })).status).toBe(403);
    expect(await findWallet(t.db, 'live', mobile)).toBeUndefined();
    const sandbox = (await findWallet(t.db, 'test', '9800000002'))!;
    const page = `/console/wallets/${sandbox.idx}`;
    expect(pageText((await as('admin').get(page)).body)).toContain('never frozen');
    expect((await submit('admin', page, `${page}/freeze`, { reason: 'try' })).status).toBe(400);
    expect((await submit('finance', page, `${page}/freeze`, { reason: 'try' })).status).toBe(403);
    expect((await submit('support', page, `${page}/topup`, { amount: '100', reason: 'try' })).status).toBe(403);
    const bad = await submit('admin', '/console/wallets', '/console/wallets', { mobile: '12', name: 'X', mpin: '1', environment: 'live' });
    expect(bad.status).toBe(400);
    expect(pageText(bad.body)).toContain('Enter a 10-digit mobile number starting with 9.');
  });
});
