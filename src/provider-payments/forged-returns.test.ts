// A browser's claim holds nothing: a return from a provider that the provider's
// own answer contradicts ("not paid") leaves the payment Initiated and payable by any way, takes no
// place of a payment link and holds nothing; returns naming what is not theirs find nothing. Forged
// as an attacker would: connectIPS's return needs no signature, and its TXNID is on the hand-off page.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { paymentPath } from '../payments/payment-url.js';
import { stepAction } from '../portal/checkout-address.js';
import { merchantApi, validInitiate } from '../../test/api-client.js';
import { codeOf, linkApi, linkPayer } from '../../test/link-client.js';
import { callbackParams, payerBrowser } from '../../test/portal-client.js';
import { formOf, handoffLink, providerPayer } from '../../test/provider-payer.js';
import { newMerchant, startTestApp, type TestApp } from '../../test/test-app.js';
import { verifyLedger } from '../ledger/verify-ledger.js';
import { routeProviderCalls, type Transport } from '../providers/provider-http.js';

let t: TestApp;
let key: string;
let api: ReturnType<typeof merchantApi>;

beforeAll(async () => {
  // A store of its own: provider health and set-up are the whole store's.
  t = await startTestApp({ ownDb: true });
  key = (await newMerchant(t.ctx)).test_secret_key;
  api = merchantApi(t.app, key);
});
afterAll(() => t.close());

/** The providers' calls straight to the sandbox's simulators in process, as with nothing routed. */
const inProcess: Transport = async (request) => {
  const url = new URL(request.url);
  const answer = await t.app.inject({ method: request.method, url: url.pathname + url.search, headers: request.headers, payload: request.body });
  return { status: answer.statusCode, contentType: String(answer.headers['content-type'] ?? ''), text: answer.body };
};

/** The payer presses connectIPS on the hosted page: the TXNID the hand-off page carries (nothing paid there). */
async function connectipsTxnid(browser: ReturnType<typeof payerBrowser>, pidx: string): Promise<string> {
  await browser.get(paymentPath(pidx));
  const chosen = await browser.post(stepAction('provider', pidx), { provider: 'connectips' });
  expect(chosen.status).toBe(200);
  return formOf(chosen.body).fields.TXNID;
}

/** connectIPS's success return, forged: no signature is asked of it. */
const forgedSuccess = (browser: ReturnType<typeof payerBrowser>, txnid: string) => browser.get(`/pay/return/connectips/success?TXNID=${encodeURIComponent(txnid)}`);

const statusOf = async (pidx: string) => (await t.db.query<{ status: string }>('SELECT status FROM payments WHERE pidx = $1', [pidx]))[0].status;
const placesTaken = async (idx: string) => (await t.db.query<{ payments_taken: number }>('SELECT payments_taken FROM payment_links WHERE idx = $1', [idx]))[0].payments_taken;

describe('a return the provider contradicts', () => {
  it('leaves the payment Initiated and payable by a wallet after a forged connectIPS "paid" return', async () => {
    const { body } = await api.initiate(validInitiate({ amount: 4200 }));
    const browser = payerBrowser(t.app);
    const txnid = await connectipsTxnid(browser, body.pidx);
    const back = await forgedSuccess(browser, txnid);
    expect(back.status).toBe(303);
    expect(back.location).toContain(paymentPath(body.pidx));
    expect(await statusOf(body.pidx)).toBe('Initiated');
    const [attempt] = await t.db.query<{ state: string; transaction_id: string | null }>('SELECT state, transaction_id FROM provider_attempts WHERE idx = $1', [txnid]);
    expect(attempt).toEqual({ state: 'Started', transaction_id: null });
    // Nothing is held: the payer (or anyone) pays it with a wallet.
    const paid = await browser.pay(body.pidx);
    expect(callbackParams(paid.location!).status).toBe('Completed');
    expect((await verifyLedger(t.db)).filter((r) => !r.holds)).toEqual([]);
  });

  it('takes no place of a payment link: three forged returns against a link of three leave it taking payments', async () => {
    const { body: link } = await linkApi(t.app, key).create({ name: 'Three seats', amount: 3000, max_payments: 3 });
    const code = codeOf(link.url);
    for (let i = 0; i < 3; i++) {
      const payer = linkPayer(t.app);
      const { pidx } = await payer.start(code);
      const back = await forgedSuccess(payer.browser, await connectipsTxnid(payer.browser, pidx!));
      expect(back.status).toBe(303);
      expect(await statusOf(pidx!)).toBe('Initiated');
    }
    expect(await placesTaken(link.idx)).toBe(0);
    const honest = linkPayer(t.app);
    const { pidx } = await honest.start(code);
    expect((await honest.pay(pidx!)).done.status).toBe(303);
    expect(await statusOf(pidx!)).toBe('Completed');
    expect(await placesTaken(link.idx)).toBe(1);
  });

  it('a flood of forged returns against one link takes no place, holds nothing and answers no 5xx', async () => {
    const { body: link } = await linkApi(t.app, key).create({ name: 'One seat', amount: 2500, max_payments: 1 });
    const code = codeOf(link.url);
    const forged: { browser: ReturnType<typeof payerBrowser>; pidx: string; txnid: string }[] = [];
    for (let i = 0; i < 8; i++) {
      const payer = linkPayer(t.app);
      const { pidx } = await payer.start(code);
      forged.push({ browser: payer.browser, pidx: pidx!, txnid: await connectipsTxnid(payer.browser, pidx!) });
    }
    // Each return five times over, all at once, by success and failure addresses alike.
    const answers = await Promise.all(
      forged.flatMap(({ browser, txnid }) => Array.from({ length: 5 }, (_, i) => (i % 2 ? forgedSuccess(browser, txnid) : browser.get(`/pay/return/connectips/failure?TXNID=${txnid}`)))),
    );
    expect(answers.filter((a) => a.status >= 500)).toEqual([]);
    expect(new Set(answers.map((a) => a.status))).toEqual(new Set([303]));
    expect(await placesTaken(link.idx)).toBe(0);
    const pidxs = forged.map((f) => f.pidx);
    expect(await t.db.query("SELECT pidx FROM payments WHERE pidx = ANY($1) AND status <> 'Initiated'", [pidxs])).toEqual([]);
    expect(await t.db.query("SELECT idx FROM provider_attempts WHERE pidx = ANY($1) AND (state <> 'Started' OR transaction_id IS NOT NULL)", [pidxs])).toEqual([]);
    expect(await t.db.query('SELECT 1 FROM transactions WHERE pidx = ANY($1)', [pidxs])).toEqual([]);
    // The link's one place is still there for a payer who pays.
    expect((await linkPayer(t.app).pay(forged[0].pidx)).done.status).toBe(303);
    expect(await placesTaken(link.idx)).toBe(1);
  });
});

describe('a flood of forged returns while the provider throttles', () => {
  /** connectIPS's status check answered 429 (Retry-After) and counted; everything else in process. */
  function throttlingStatus() {
    const calls: { txnid: string; at: number }[] = [];
    const transport: Transport = async (request) => {
      const url = new URL(request.url);
      if (url.pathname.endsWith('/validatetxn')) {
        calls.push({ txnid: JSON.parse(request.body ?? '{}').referenceId, at: t.clock.now().getTime() });
        return { status: 429, contentType: 'application/json', text: '{"detail":"Request was throttled. Expected available in 30 seconds."}' };
      }
      const answer = await t.app.inject({ method: request.method, url: url.pathname + url.search, headers: request.headers, payload: request.body });
      return { status: answer.statusCode, contentType: String(answer.headers['content-type'] ?? ''), text: answer.body };
    };
    return { transport, calls };
  }

  it('asks the provider at most once per attempt per two seconds, holds nothing and takes no place of a link', async () => {
    const { body: link } = await linkApi(t.app, key).create({ name: 'Three places', amount: 3000, max_payments: 3 });
    const code = codeOf(link.url);
    const upstream = throttlingStatus();
    routeProviderCalls(t.ctx, upstream.transport);
    const forged: { browser: ReturnType<typeof payerBrowser>; pidx: string; txnid: string }[] = [];
    for (let i = 0; i < 3; i++) {
      const payer = linkPayer(t.app);
      const { pidx } = await payer.start(code);
      forged.push({ browser: payer.browser, pidx: pidx!, txnid: await connectipsTxnid(payer.browser, pidx!) });
    }
    // Five seconds of returns: 40 at once for each attempt, every half second.
    for (let tick = 0; tick < 10; tick++) {
      const answers = await Promise.all(forged.flatMap(({ browser, txnid }) => Array.from({ length: 40 }, () => forgedSuccess(browser, txnid))));
      expect(answers.filter((a) => a.status >= 500)).toEqual([]);
      t.clock.advance(0.5);
    }
    for (const { txnid } of forged) {
      const asked = upstream.calls.filter((c) => c.txnid === txnid).map((c) => c.at);
      expect(asked.length).toBeLessThanOrEqual(3);
      expect(asked.slice(1).every((at, i) => at - asked[i] >= 2000)).toBe(true);
    }
    expect(await placesTaken(link.idx)).toBe(0);
    const pidxs = forged.map((f) => f.pidx);
    expect(await t.db.query("SELECT pidx FROM payments WHERE pidx = ANY($1) AND status <> 'Initiated'", [pidxs])).toEqual([]);
    // The attempts were counted toward nothing: the job asks them on its own schedule.
    expect(await t.db.query("SELECT idx FROM provider_attempts WHERE pidx = ANY($1) AND (state <> 'Started' OR checks > 0)", [pidxs])).toEqual([]);
    // Real payers still get the link's three places. (The 429s left connectIPS cooling down, as any
    // failures in a row do: the next tests here choose it again.)
    routeProviderCalls(t.ctx, inProcess);
    await t.db.query("UPDATE provider_health SET failures_in_a_row = 0, cooldown_until = NULL WHERE name = 'connectips'");
    for (let i = 0; i < 3; i++) {
      const honest = linkPayer(t.app);
      const { pidx } = await honest.start(code);
      expect((await honest.pay(pidx!)).done.status).toBe(303);
    }
    expect(await placesTaken(link.idx)).toBe(3);
  });
});

describe('returns naming what is not theirs', () => {
  it('finds nothing for valid-looking foreign references: unknown attempts, another provider’s attempt', async () => {
    const { body } = await api.initiate(validInitiate({ amount: 2000 }));
    const browser = payerBrowser(t.app);
    const txnid = await connectipsTxnid(browser, body.pidx);
    const foreign = [
      '/pay/return/connectips/success?TXNID=Ab3dE5gH7jK9mN1pQ',
      '/pay/return/connectips/success?TXNID=' + 'A'.repeat(20),
      '/pay/return/khalti/Ab3dE5gH7jK9mN1pQ/success?pidx=bZQLD9wRVWo4CdESSfuSsB&status=Completed&transaction_id=4H7AhoXDJWg5WjrcPT9ixW&amount=2000&total_amount=2000',
      '/pay/return/esewa/Ab3dE5gH7jK9mN1pQ/success?data=e30=',
      // connectIPS's own attempt, named through another provider's return.
      `/pay/return/khalti/${txnid}/success?status=Completed`,
      `/pay/return/esewa/${txnid}/success`,
      '/pay/return/fonepay/success?TXNID=' + txnid,
      '/pay/return/connectips/success?TXNID=../../etc/passwd',
    ];
    for (const url of foreign) expect((await browser.get(url)).status, url).toBe(404);
    expect(await statusOf(body.pidx)).toBe('Initiated');
  });

  it('never completes a payment on another payment’s Khalti payment, paid or not', async () => {
    // B is paid through Khalti; A's payer returns with A's attempt and B's pidx, transaction and amount.
    const { body: b } = await api.initiate(validInitiate({ amount: 1000 }));
    const payerOfB = providerPayer(t.app);
    const paidB = await payerOfB.pay(b.pidx, 'khalti', 'paid');
    const callbackOfB = callbackParams(paidB.location!);
    const [attemptOfB] = await t.db.query<{ provider_reference: string }>("SELECT provider_reference->>'pidx' AS provider_reference FROM provider_attempts WHERE pidx = $1 AND state = 'Paid'", [b.pidx]);

    const { body: a } = await api.initiate(validInitiate({ amount: 90_000 }));
    const browser = payerBrowser(t.app);
    await browser.get(paymentPath(a.pidx));
    const chosen = await browser.post(stepAction('provider', a.pidx), { provider: 'khalti' });
    expect(handoffLink(chosen.body)).toBeDefined();
    const [attemptOfA] = await t.db.query<{ idx: string }>('SELECT idx FROM provider_attempts WHERE pidx = $1', [a.pidx]);
    const query = new URLSearchParams({ pidx: attemptOfB.provider_reference, status: 'Completed', transaction_id: callbackOfB.transaction_id, tidx: callbackOfB.transaction_id, amount: '90000', total_amount: '90000' });
    const back = await browser.get(`/pay/return/khalti/${attemptOfA.idx}/success?${query}`);
    expect(back.status).toBe(303);
    expect(await statusOf(a.pidx)).toBe('Initiated');
    expect(await statusOf(b.pidx)).toBe('Completed');

    // And a return naming B's attempt from A's browser only shows B's outcome: nothing moves again.
    const [paidAttemptOfB] = await t.db.query<{ idx: string }>("SELECT idx FROM provider_attempts WHERE pidx = $1 AND state = 'Paid'", [b.pidx]);
    const replay = await browser.get(`/pay/return/khalti/${paidAttemptOfB.idx}/success?status=Completed`);
    expect(replay.status).toBe(200);
    expect(await t.db.query("SELECT 1 FROM provider_attempts WHERE pidx = $1 AND state = 'Paid'", [b.pidx])).toHaveLength(1);
    expect((await verifyLedger(t.db)).filter((r) => !r.holds)).toEqual([]);
  });
});
