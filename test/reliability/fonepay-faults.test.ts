// Fonepay misbehaving: Bhuktani pays through Fonepay's two ways with a second Bhuktani process's
// Fonepay simulator as the upstream (its base URL the proxy's address + /sandbox/fonepay, so both
// the web checkout and the QR API go through the proxy of faulty-upstream.ts). Fonepay's
// server-to-server answers (the QR's issue, its status check, the web checkout's verification) are
// delayed, dropped, lost, cut, duplicated and forged (fonepay-forgeries.ts); the upstream is killed
// and started again mid-payment. The payer's own pages (Fonepay's checkout page, the bank app) are
// reached untouched. Web checkout payers pay, decline, abandon Fonepay's page, pay twice through two
// attempts; QR payers read the QR off the page as a phone would, pay or decline it in the bank app
// and wait on the page (its script's wait, or the button without script), abandon it, pay twice, or
// pay and close the page at once, which the reconciliation job must find paid; one declines while
// every answer Fonepay gives is forged. (A web checkout payer
// who pays and never comes back leaves no trace id to ask Fonepay by: that payment cannot complete,
// and is not planned.) After every round, once the faults stop and the job has run: every payment
// paid at Fonepay is Completed exactly once, none that was not is, every second success is queued
// for the operators to refund (Fonepay has no refund API), the payer never met a server error, and
// `ledger verify` passes; the upstream's ledger (the simulator moves no money there) once at the end.
//
// Fast (every CI run): 2 rounds of 4 web checkouts and 6 QRs. RELIABILITY_LONG=1: 8 rounds of 8 and 10.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLI_ACTOR } from '../../src/audit/audit-entry.js';
import { verifyLedger } from '../../src/ledger/verify-ledger.js';
import { paymentPath } from '../../src/payments/payment-url.js';
import { stepAction } from '../../src/portal/checkout-address.js';
import { dataValidation } from '../../src/protocols/fonepay/data-validation.js';
import { FONEPAY_TEST_MERCHANT } from '../../src/providers/fonepay/test-merchant.js';
import { setProvider } from '../../src/providers/provider-setup.js';
import { validInitiate } from '../api-client.js';
import { payerBrowser, type PortalResponse } from '../portal-client.js';
import { handoffLink } from '../provider-payer.js';
import { decodeQrSvg } from '../qr-decode.js';
import { pickOnUpstreamSimulator, remoteBrowser } from '../upstream-payer.js';
import { faults, type Fault, type ProxiedRequest } from './fault-proxy.js';
import { expectPaidExactlyOnce, reconcileUntilQuiet, seededRandom, startFaultyUpstream, type FaultyUpstream } from './faulty-upstream.js';
import { fonepayForgery } from './fonepay-forgeries.js';

const LONG = process.env.RELIABILITY_LONG === '1';
const ROUNDS = LONG ? 8 : 2;
const WEB_PAYMENTS = LONG ? 8 : 4;
const QR_PAYMENTS = LONG ? 10 : 6;
/** How often a QR payer asks before closing the page. */
const POLLS = 5;

const { merchant_code: merchantCode, secret_key: secretKey, username, password } = FONEPAY_TEST_MERCHANT;
const { seed, random } = seededRandom();
let h: FaultyUpstream;

beforeAll(async () => {
  h = await startFaultyUpstream({ random, forge: fonepayForgery });
  await setProvider(h.t.ctx, { actor: CLI_ACTOR, name: 'fonepay', environment: 'test', values: { base_url: `${h.proxy.base}/sandbox/fonepay`, merchant_code: merchantCode, secret_key: secretKey, username, password } });
}, 180_000);
afterAll(() => h?.close());

const serverToServer = /\/verificationMerchant\?|\/thirdPartyDynamicQr(Download|GetStatus)$/;
const someFault = ({ path }: ProxiedRequest): Fault => (!serverToServer.test(path) || random() < 0.35 ? 'none' : faults[1 + Math.floor(random() * (faults.length - 1))]);
const pick = <T>(choices: readonly T[]) => choices[Math.floor(random() * choices.length)];

const local = (url: string) => url.replace(h.t.ctx.config.publicUrl, '');
const upstreamUrl = (path: string) => `http://127.0.0.1:${h.port}/sandbox/fonepay${path}`;

/** The web checkouts the payer paid at Fonepay: PRN → the return's trace id, bank and amount. */
const paidOnWeb = new Map<string, { UID: string; BC: string; AMT: string }>();
/** Answers of Bhuktani to a payer that were server errors (a provider not answering is a 503 page, and expected). */
const serverErrors: string[] = [];

/** A payer's browser on the hosted page that notes every server error it meets. */
function watchedBrowser() {
  const browser = payerBrowser(h.t.app);
  const note = (url: string, answer: PortalResponse) => {
    if (answer.status >= 500 && !(answer.status === 503 && url.startsWith('/pay/provider'))) serverErrors.push(`${answer.status} ${url}: ${answer.body.slice(0, 200)}`);
    return answer;
  };
  return {
    get: async (url: string) => note(url, await browser.get(url)),
    post: async (url: string, fields: Record<string, string>) => note(url, await browser.post(url, fields)),
  };
}
type Browser = ReturnType<typeof watchedBrowser>;

async function initiate(): Promise<string> {
  const { body } = await h.api.initiate(validInitiate({ amount: 1000 + Math.floor(random() * 9000) }));
  return body.pidx as string;
}

/** Presses `Fonepay` or `Fonepay QR`, trying again as a payer would when Fonepay does not answer: where it leads. */
async function choose(browser: Browser, pidx: string, way: 'page' | 'qr'): Promise<string | undefined> {
  for (let tries = 0; tries < 6; tries++) {
    await browser.get(paymentPath(pidx));
    const chosen = await browser.post(stepAction('provider', pidx), { provider: 'fonepay', ...(way === 'qr' ? { way } : {}) });
    const next = way === 'qr' ? chosen.location : handoffLink(chosen.body);
    if (next) return next;
  }
  return undefined;
}

/** Picks on Fonepay's checkout page; the return it sends the payer to (noted when paid). */
async function checkout(checkoutUrl: string, outcome: 'paid' | 'canceled'): Promise<string> {
  const answer = await pickOnUpstreamSimulator(checkoutUrl, outcome);
  expect(answer.status, answer.body.slice(0, 300)).toBe(303);
  const back = new URL(answer.location!);
  const q = (name: string) => back.searchParams.get(name) ?? '';
  if (q('PS') === 'true') paidOnWeb.set(q('PRN'), { UID: q('UID'), BC: q('BC'), AMT: q('R_AMT') });
  return answer.location!;
}

type WebPlan = 'pay' | 'cancel' | 'abandon' | 'pay-twice' | 'killed-mid-payment';

async function webPayer(plan: WebPlan): Promise<string> {
  const pidx = await initiate();
  const browser = watchedBrowser();
  const checkoutUrl = await choose(browser, pidx, 'page');
  if (!checkoutUrl) return pidx;
  if (plan === 'abandon') {
    await remoteBrowser(new URL(checkoutUrl).origin)(checkoutUrl);
    return pidx;
  }
  if (plan === 'pay-twice') {
    const second = await choose(browser, pidx, 'page');
    const firstBack = await checkout(checkoutUrl, 'paid');
    if (second) await browser.get(local(await checkout(second, 'paid')));
    await browser.get(local(firstBack));
    return pidx;
  }
  const back = await checkout(checkoutUrl, plan === 'cancel' ? 'canceled' : 'paid');
  // Killed mid-payment: paid at Fonepay, Fonepay is gone when Bhuktani asks it, and comes back later.
  await h.comeBack(browser, back, { killFirst: plan === 'killed-mid-payment' });
  return pidx;
}

/** The QR page's QR, read as the payer's phone reads it, opened in the bank app. */
async function bankApp(browser: Browser, qrPage: string, outcome: 'paid' | 'canceled'): Promise<void> {
  const page = await browser.get(qrPage);
  const message = decodeQrSvg(/<svg[\s\S]*?<\/svg>/.exec(page.body)?.[0] ?? '');
  expect(message, `${page.status} ${page.body.slice(0, 500)}`).toMatch(/^000201/);
  const paid = await pickOnUpstreamSimulator(upstreamUrl(`/bank-app?qr=${encodeURIComponent(message!)}`), outcome);
  expect(paid.status, paid.body.slice(0, 300)).toBe(200);
}

/** Waits on the QR page, by its script's wait or by its button, until it moves on or the payer gives up. */
async function waitOn(browser: Browser, qrPage: string, polls = POLLS): Promise<void> {
  for (let poll = 0; poll < polls; poll++) {
    h.t.clock.advance(3);
    let next: string | undefined;
    if (random() < 0.7) {
      const waited = await browser.get(`${qrPage}/wait`);
      next = waited.status === 200 ? (JSON.parse(waited.body) as { next?: string }).next : undefined;
    } else next = (await browser.get(`${qrPage}?ask=1`)).location;
    if (next) {
      // Paid: straight to the merchant's return_url, which is not ours to fetch; else our page of what came of it.
      if (!next.startsWith(h.t.ctx.config.publicUrl) && /^https?:/.test(next)) return;
      await browser.get(next);
      return;
    }
  }
}

type QrPlan = WebPlan | 'pay-and-leave' | 'decline-while-forged';

async function qrPayer(plan: QrPlan): Promise<string> {
  const pidx = await initiate();
  const browser = watchedBrowser();
  const qrPage = await choose(browser, pidx, 'qr');
  if (!qrPage) return pidx;
  if (plan === 'abandon') {
    // The page asks a while, then the payer closes it unpaid.
    await waitOn(browser, qrPage, 2);
    return pidx;
  }
  if (plan === 'pay-twice') {
    // The first QR seems stuck: the payer takes another (`Pay another way`, `Fonepay QR`) and pays both.
    const second = await choose(browser, pidx, 'qr');
    await bankApp(browser, qrPage, 'paid');
    if (second) {
      await bankApp(browser, second, 'paid');
      await waitOn(browser, second);
    }
    await waitOn(browser, qrPage);
    return pidx;
  }
  if (plan === 'decline-while-forged') {
    // Every answer of Fonepay's is forged or garbled while this payer declines and waits.
    h.proxy.setFaults(({ path }) => (serverToServer.test(path) ? 'corrupt' : 'none'));
    await bankApp(browser, qrPage, 'canceled');
    await waitOn(browser, qrPage);
    h.proxy.setFaults(someFault);
    return pidx;
  }
  await bankApp(browser, qrPage, plan === 'cancel' ? 'canceled' : 'paid');
  if (plan === 'pay-and-leave') return pidx;
  if (plan === 'killed-mid-payment') {
    await h.kill();
    await waitOn(browser, qrPage);
    await h.start();
  }
  await waitOn(browser, qrPage);
  return pidx;
}

/** Fonepay's own answers, asked past the proxy: whether the attempt (its PRN) was paid there, either way. */
async function paidAtFonepay(prn: string): Promise<boolean> {
  const status = await fetch(upstreamUrl('/api/merchant/merchantDetailsForThirdParty/thirdPartyDynamicQrGetStatus'), {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ prn, merchantCode, dataValidation: dataValidation(secretKey, [prn, merchantCode]), username, password }),
  });
  if (status.ok && ((await status.json()) as { paymentStatus: string }).paymentStatus === 'success') return true;
  const web = paidOnWeb.get(prn);
  if (!web) return false;
  const query = { PID: merchantCode, AMT: web.AMT, PRN: prn, BID: web.BC, UID: web.UID };
  const DV = dataValidation(secretKey, [query.PID, query.AMT, query.PRN, query.BID, query.UID]);
  const verified = await (await fetch(upstreamUrl(`/api/merchantRequest/verificationMerchant?${new URLSearchParams({ ...query, DV })}`))).text();
  return verified.includes('<success>true</success>') && verified.includes('<response_code>successful</response_code>');
}

/** A second success is the payer's money: with no refund API, it waits in the operators' queue. */
async function queuedForOperators(attemptIdx: string): Promise<boolean> {
  const rows = await h.t.db.query<{ state: string; next_try_at: Date | null }>('SELECT r.state, r.next_try_at FROM provider_refunds r JOIN provider_attempts a ON a.id = r.attempt_id WHERE a.idx = $1', [attemptIdx]);
  return rows.length === 1 && rows[0].state === 'Queued' && rows[0].next_try_at === null;
}

describe(`Fonepay's web checkout and QR through a faulty network and a dying upstream (seed ${seed})`, () => {
  it(`keeps every payment exactly once, ${ROUNDS} rounds of ${WEB_PAYMENTS} web checkouts and ${QR_PAYMENTS} QRs`, async () => {
    for (let round = 1; round <= ROUNDS; round++) {
      h.proxy.setFaults(someFault);
      // Fonepay dies mid-payment once a round, under each way in turn.
      const killed = (way: number) => (round % 2 === way ? (['killed-mid-payment'] as const) : []);
      const webPlans: WebPlan[] = ['pay-twice', ...killed(1), ...Array.from({ length: WEB_PAYMENTS - 1 - killed(1).length }, () => pick(['pay', 'pay', 'cancel', 'abandon'] as const))];
      const qrPlans: QrPlan[] = ['pay-twice', 'pay-and-leave', 'decline-while-forged', ...killed(0), ...Array.from({ length: QR_PAYMENTS - 3 - killed(0).length }, () => pick(['pay', 'pay', 'cancel', 'abandon', 'pay-and-leave'] as const))];
      const pidxs: string[] = [];
      for (const plan of webPlans) pidxs.push(await webPayer(plan));
      for (const plan of qrPlans) pidxs.push(await qrPayer(plan));

      h.proxy.setFaults(() => 'none');
      await reconcileUntilQuiet(h.t, pidxs);
      const statuses: string[] = [];
      for (const pidx of pidxs) statuses.push(await expectPaidExactlyOnce(h, pidx, `round ${round}`, { paidUpstream: (a) => paidAtFonepay(a.idx), owedBack: (a) => queuedForOperators(a.idx) }));
      // At least the web checkout's payer who paid twice did (starting it asks Fonepay nothing).
      expect(statuses.filter((s) => s === 'Completed').length, `round ${round}`).toBeGreaterThanOrEqual(1);
      expect(serverErrors, `round ${round}`).toEqual([]);
      expect((await verifyLedger(h.t.db)).filter((r) => !r.holds), `round ${round}`).toEqual([]);
    }
    const verified = await h.verifyLedger({ startAgain: false });
    expect(verified.code, verified.output).toBe(0);
    // The faults did meet Fonepay's calls.
    expect(Object.values(h.proxy.counts).reduce((a, b) => a + b, 0) - h.proxy.counts.none).toBeGreaterThan(ROUNDS);
  }, ROUNDS * 240_000);
});
