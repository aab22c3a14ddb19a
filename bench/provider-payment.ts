// Payments through a provider against a wallet payment, end to end on the hosted page, in the same
// run, in turn. Each provider is a reference in this process that answers at once, so what it costs
// is its round trips, each measured on its own from another process (as the service, a process of
// its own, calls it); that time is taken out. The overhead a way of paying
// through a provider adds to the wallet payment must stay under one more round trip to the provider.
//
// wallet:     GET the hosted page, POST the wallet step (sandbox wallet, MPIN), GET the OTP step, POST
//             the OTP (payment, journal, record).
// Khalti:     GET the hosted page, POST "Khalti" (the service initiates at the provider: one round
//             trip), and, once the payer has paid there (not measured), GET the return address (the
//             service asks the provider's lookup: one round trip; payment, journal, record).
// Fonepay QR: GET the hosted page, POST "Fonepay QR" (the service asks for the QR: one round trip),
//             GET the QR page; once the bank app has paid (not measured), one GET of the page's
//             waiting address (the service asks the status check: one round trip; payment, journal,
//             record) and of the page it names, which sends the payer to the merchant. The page's
//             script asks every two seconds; asking once, after the QR is paid, leaves that wait out.
import { fork, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { dataValidation, dataValidationMatches } from '../src/protocols/fonepay/data-validation.js';
import { buildQrMessage } from '../src/protocols/emvco/merchant-qr.js';
import { client, type Answer, type Client } from './http.js';
import { percentile } from './load.js';
import { runCli } from './processes.js';
import { initiateBody, serviceCliEnv, type BenchMerchant, type Service } from './service.js';
import { settings } from './settings.js';

export interface ProviderWayResult {
  /** A payment this way: median and p99, ms. */
  ms: number;
  p99: number;
  /** Each measured request's median, ms, in the order the payer's browser sends them. */
  requests: Record<string, number>;
  /** One round trip to the reference from another process (the question the return or the wait asks), median ms. */
  roundTripMs: number;
  /** ms − 2 round trips − the wallet payment's median: what paying this way adds. */
  overheadMs: number;
}

export interface ProviderPaymentResult {
  /** Turns of one payment of each kind: not measured, then measured. */
  warmup: number;
  payments: number;
  /** The wallet payment, median and p99 ms, measured in turn with both ways. */
  walletMs: number;
  walletP99: number;
  walletRequests: Record<string, number>;
  /** Khalti's page: initiate, the payer's return, the lookup. */
  khalti: ProviderWayResult;
  /** Fonepay's dynamic QR: the QR issued, paid, the status check; the waiting left out. */
  fonepayQr: ProviderWayResult;
}

/** A provider's way to pay, against its reference. */
interface Way {
  /** `bhuktani provider set` after its name: the test environment's set-up pointing at the reference. */
  setup: string[];
  /** One payment on the hosted page this way: the ms the payer's browser waited for each request. */
  /** Names its measured requests, in order. */
  requests: string[];
  pay(api: Client, key: string, n: number): Promise<number[]>;
  /** One round trip to the reference, on its own, from another process as the service's call is, ms. */
  roundTrip(): Promise<number>;
  close(): Promise<void>;
}

type Handler = (path: string, body: Record<string, unknown>) => [status: number, body: unknown];

/** A JSON API on a port of its own in this process, answering each request at once. */
async function referenceApi(handle: Handler) {
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (c) => chunks.push(c));
    request.on('end', () => {
      const [status, value] = handle(request.url ?? '/', JSON.parse(Buffer.concat(chunks).toString() || '{}'));
      response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(value));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  const probe = roundTripProbe();
  const base = `http://127.0.0.1:${port}`;
  return {
    base,
    /** A POST of `body` to `path` from a process of its own, as the service sends it: its ms. */
    roundTrip: (path: string, body: unknown) => probe.post(`${base}${path}`, JSON.stringify(body)),
    close: () => {
      probe.close();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** bench/round-trip-probe.mjs, asked one POST at a time. */
function roundTripProbe() {
  const child: ChildProcess = fork(new URL('./round-trip-probe.mjs', import.meta.url), [], { stdio: 'inherit' });
  return {
    post: (url: string, body: string) =>
      new Promise<number>((resolve, reject) => {
        child.once('message', (answer: { ms?: number; status?: number; error?: string }) =>
          answer.status === 200 ? resolve(answer.ms!) : reject(new Error(`the round trip to the reference failed: ${answer.error ?? answer.status}`)),
        );
        child.send({ url, body });
      }),
    close: () => child.disconnect(),
  };
}

const median = (values: number[]) => percentile(values, 50);
const form = (fields: Record<string, string>) => new URLSearchParams(fields).toString();

/** A payment made through the API, and its hosted page opened in a browser of its own: the page's time. */
async function openedPayment(api: Client, key: string, n: number, kind: string) {
  const { body } = await api.json('POST', '/api/v2/epayment/initiate/', key, initiateBody(n, `bench-${kind}-${n}-${Date.now()}`));
  const pidx = JSON.parse(body).pidx as string;
  const cookie = `bhuktani_csrf=benchnonce${String(n).padStart(12, '0')}`;
  const page = await api.send('GET', `/pay/?pidx=${pidx}`, { headers: { cookie } });
  const csrf = /name="csrf_token" value="([^"]+)"/.exec(page.body)![1];
  const post = (path: string, fields: Record<string, string>) => api.send('POST', path, { headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' }, body: form({ csrf_token: csrf, ...fields }) });
  return { pidx, cookie, post, ms: page.ms };
}

/** What the service answered where the payment could not go on, and what the reference refused, if anything. */
const answeredBadly = (what: string, answer: Answer, refusals: string[] = []) =>
  new Error(`${what} answered ${answer.status}${refusals.length ? ` (the reference refused: ${refusals.join('; ')})` : ''}: ${answer.body.slice(0, 300)}`);

/** The page that sends the payer on to the merchant with the payment Completed, or a loud failure. */
function completedOnward(answer: Answer, what: string, refusals: string[] = []) {
  if (answer.status !== 200 || !answer.body.includes('status=Completed')) throw answeredBadly(what, answer, refusals);
}

async function walletPayment(api: Client, key: string, n: number): Promise<number[]> {
  const { pidx, cookie, post, ms } = await openedPayment(api, key, n, 'wallet');
  const steps = [ms];
  const wallet = await post(`/pay/wallet?pidx=${pidx}`, { mobile: '9800000001', mpin: '1111' });
  steps.push(wallet.ms);
  const otpPage = await api.send('GET', String(wallet.headers.location), { headers: { cookie } });
  steps.push(otpPage.ms);
  const attempt = /name="attempt" value="([^"]+)"/.exec(otpPage.body)![1];
  const confirm = await post(`/pay/confirm?pidx=${pidx}`, { attempt, otp: '987654' });
  steps.push(confirm.ms);
  if (confirm.status !== 303 || !String(confirm.headers.location).includes('status=Completed')) throw new Error(`a wallet payment answered ${confirm.status}`);
  return steps;
}

/** A Khalti that answers at once: initiate gives a pidx and a payment_url; lookup says Completed. */
async function khaltiPage(): Promise<Way> {
  const payments = new Map<string, { amount: number; returnUrl: string }>();
  let n = 0;
  const api = await referenceApi((path, body) => {
    if (path.startsWith('/api/v2/epayment/initiate/')) {
      const pidx = `benchpidx${++n}`;
      payments.set(pidx, { amount: Number(body.amount), returnUrl: String(body.return_url) });
      return [200, { pidx, payment_url: `${api.base}/?pidx=${pidx}`, expires_at: new Date(Date.now() + 3_600_000).toISOString(), expires_in: 3600 }];
    }
    const payment = payments.get(String(body.pidx));
    if (!payment) return [404, { detail: 'Not found.', error_key: 'validation_error' }];
    return [200, { pidx: body.pidx, total_amount: payment.amount, status: 'Completed', transaction_id: `T${body.pidx}`, fee: 0, refunded: false }];
  });
  return {
    requests: ['hosted page', 'Khalti chosen', 'return'],
    setup: ['khalti', '--env', 'test', '--base-url', api.base, '--secret-key', 'test_secret_key_benchreference'],
    async pay(payer, key, n) {
      const { pidx, cookie, post, ms } = await openedPayment(payer, key, n, 'provider');
      const steps = [ms];
      const chosen = await post(`/pay/provider?pidx=${pidx}`, { provider: 'khalti' });
      steps.push(chosen.ms);
      const paymentUrl = /href="([^"]+)" data-auto-follow/.exec(chosen.body)?.[1]?.replaceAll('&amp;', '&');
      if (!paymentUrl) throw answeredBadly('choosing Khalti', chosen);
      const upstreamPidx = new URL(paymentUrl).searchParams.get('pidx')!;
      // The payer pays at the provider (not measured), which sends the browser back with its parameters.
      const back = new URL(payments.get(upstreamPidx)!.returnUrl);
      back.search = new URLSearchParams({ pidx: upstreamPidx, status: 'Completed', transaction_id: `T${upstreamPidx}` }).toString();
      const returned = await payer.send('GET', `${back.pathname}${back.search}`, { headers: { cookie } });
      steps.push(returned.ms);
      completedOnward(returned, "a Khalti payment's return");
      return steps;
    },
    roundTrip: () => api.roundTrip('/api/v2/epayment/lookup/', { pidx: 'benchpidx1' }),
    close: api.close,
  };
}

/** The reference's QR API account; nothing outside the bench knows it. */
const FONEPAY_REFERENCE = { merchantCode: 'BENCHQR01', secretKey: 'bench-reference-fonepay-key', username: 'benchqrapi', password: 'bench-reference-password' };
const QR_API = '/api/merchant/merchantDetailsForThirdParty';

/**
 * Fonepay's dynamic QR API as Fonepay answers it, at once: the QR issue checks the user, the merchant,
 * the DV and the fields and gives an EMVCo message for the amount asked; the status check, its DV
 * checked too, answers `pending` until the bench pays the QR, then `success` with a trace id. Every
 * refusal is kept, so a request the service got wrong fails the run with Fonepay's reason.
 */
async function fonepayQr(account = FONEPAY_REFERENCE): Promise<Way> {
  const { merchantCode, secretKey, username, password } = account;
  const qrs = new Map<string, { paid: boolean; trace: number }>();
  const refusals: string[] = [];
  const refuse = (message: string): [number, unknown] => {
    refusals.push(message);
    return [406, { documentation: 'Merchant request Exception', errorCode: 406, message }];
  };
  const api = await referenceApi((path, body) => {
    const field = (name: string) => (typeof body[name] === 'string' ? (body[name] as string) : '');
    if (path !== `${QR_API}/thirdPartyDynamicQrDownload` && path !== `${QR_API}/thirdPartyDynamicQrGetStatus`) return refuse(`No such path ${path}`);
    if (field('merchantCode') !== merchantCode) return refuse('Invalid Merchant Code');
    if (field('username') !== username || field('password') !== password) return refuse('Invalid username');
    const prn = field('prn');
    if (path.endsWith('/thirdPartyDynamicQrGetStatus')) {
      if (!dataValidationMatches(secretKey, [prn, merchantCode], body.dataValidation)) return refuse('Data Validation Failed');
      const qr = qrs.get(prn);
      if (!qr) return refuse('Invalid PRN');
      return [200, { fonepayTraceId: qr.paid ? qr.trace : null, merchantCode, paymentStatus: qr.paid ? 'success' : 'pending', prn }];
    }
    const [amount, remarks1, remarks2] = [field('amount'), field('remarks1'), field('remarks2')];
    if (!dataValidationMatches(secretKey, [amount, prn, merchantCode, remarks1, remarks2], body.dataValidation)) return refuse('Data Validation Failed');
    const remark = /^[A-Za-z0-9 ]{1,25}$/;
    if (!/^(?=.{1,10}$)\d+(\.\d{1,2})?$/.test(amount) || !/^[\x21-\x7e]{1,25}$/.test(prn) || !remark.test(remarks1) || !remark.test(remarks2)) return refuse('Invalid Request');
    if (qrs.has(prn)) return refuse('Duplicate PRN');
    qrs.set(prn, { paid: false, trace: 7_000_000 + qrs.size });
    // Fonepay's layout: the merchant under fonepay.com (26), Nepali rupees (53 `524`), the amount as sent, the PRN as the reference label (62/05).
    const merchant: [string, string][] = [['00', 'fonepay.com'], ['01', merchantCode], ['02', '101']];
    const qrMessage = buildQrMessage([['01', '12'], ['26', merchant], ['52', '5999'], ['53', '524'], ['54', amount], ['58', 'NP'], ['59', 'Bench reference shop'], ['60', 'Kathmandu'], ['62', [['05', prn]]]], { lowercaseCrc: true });
    return [201, { message: 'successfull', qrMessage, status: 'CREATED', statusCode: 201, success: true, thirdpartyQrWebSocketUrl: `ws://127.0.0.1/${prn}` }];
  });
  let lastPaid = '';
  return {
    requests: ['hosted page', 'Fonepay QR chosen', 'QR page', 'wait'],
    setup: ['fonepay', '--env', 'test', '--base-url', api.base, '--merchant-code', merchantCode, '--secret-key', secretKey, '--username', username, '--password', password],
    async pay(payer, key, n) {
      const { pidx, cookie, post, ms } = await openedPayment(payer, key, n, 'qr');
      const steps = [ms];
      const chosen = await post(`/pay/provider?pidx=${pidx}`, { provider: 'fonepay', way: 'qr' });
      steps.push(chosen.ms);
      const qrPath = chosen.status === 303 ? String(chosen.headers.location) : '';
      const failed = (what: string, answer: Answer) => answeredBadly(what, answer, refusals);
      if (!qrPath.startsWith('/pay/qr/')) throw failed('choosing Fonepay QR', chosen);
      const page = await payer.send('GET', qrPath, { headers: { cookie } });
      steps.push(page.ms);
      const waitPath = /data-wait-url="([^"]+)"/.exec(page.body)?.[1];
      if (page.status !== 200 || !waitPath) throw failed("the QR's page", page);
      // The bank app pays the QR (not measured): the attempt is the PRN the service asked the QR for.
      const prn = decodeURIComponent(qrPath.split('/')[3]);
      const qr = qrs.get(prn);
      if (!qr) throw new Error(`the QR page's attempt ${prn} is no QR the reference issued`);
      qr.paid = true;
      lastPaid = prn;
      const wait = await payer.send('GET', waitPath, { headers: { cookie, accept: 'application/json' } });
      steps.push(wait.ms);
      // Paid: the wait names the merchant's return_url itself, where the page's script sends the payer.
      const next = wait.status === 200 ? (JSON.parse(wait.body) as { next?: string }).next : undefined;
      if (!next?.includes('status=Completed')) throw failed("a paid QR's wait", wait);
      return steps;
    },
    roundTrip: () => api.roundTrip(`${QR_API}/thirdPartyDynamicQrGetStatus`, { prn: lastPaid, merchantCode, dataValidation: dataValidation(secretKey, [lastPaid, merchantCode]), username, password }),
    close: api.close,
  };
}

const WALLET_REQUESTS = ['hosted page', 'wallet step', 'OTP step', 'OTP'];

/** A kind's payments: each one's requests in ms, the payments' totals, and each request's median. */
function timings(requests: string[]) {
  const payments: number[][] = [];
  const totals = () => payments.map((steps) => steps.reduce((a, b) => a + b, 0));
  return {
    add: (steps: number[]) => payments.push(steps),
    median: () => median(totals()),
    p99: () => percentile(totals(), 99),
    requests: () => Object.fromEntries(requests.map((name, i) => [name, median(payments.map((steps) => steps[i]))])),
  };
}

export async function providerPaymentRun(service: Service, merchant: BenchMerchant, log: (line: string) => void): Promise<ProviderPaymentResult> {
  const ways = { khalti: await khaltiPage(), fonepayQr: await fonepayQr() };
  const api = client(service.port, 4);
  const [warmup, payments] = [10, settings.quick ? 40 : 300];
  try {
    for (const way of Object.values(ways)) {
      const set = await runCli(['provider', 'set', ...way.setup], serviceCliEnv());
      if (set.code !== 0) throw new Error(`provider set ${way.setup[0]} failed: ${set.stderr}`);
    }
    const wallet = timings(WALLET_REQUESTS);
    const times = { khalti: timings(ways.khalti.requests), fonepayQr: timings(ways.fonepayQr.requests) };
    const trips = { khalti: [] as number[], fonepayQr: [] as number[] };
    // Warm-up, then the three kinds in turn, so all see the machine alike; one wallet payment a turn serves both ways.
    // Numbered after the measured ones: initiateBody's amount is 1000 + n % 500 paisa, and Khalti takes Rs 10 at least.
    for (let n = payments; n < payments + warmup; n++) {
      await walletPayment(api, merchant.testKey, n);
      for (const way of Object.values(ways)) await way.pay(api, merchant.testKey, n);
    }
    for (let n = 0; n < payments; n++) {
      wallet.add(await walletPayment(api, merchant.testKey, n));
      for (const name of ['khalti', 'fonepayQr'] as const) {
        times[name].add(await ways[name].pay(api, merchant.testKey, n));
        trips[name].push(await ways[name].roundTrip());
      }
    }
    const walletMs = wallet.median();
    const result = (name: keyof typeof ways): ProviderWayResult => ({
      ms: times[name].median(),
      p99: times[name].p99(),
      requests: times[name].requests(),
      roundTripMs: median(trips[name]),
      overheadMs: times[name].median() - 2 * median(trips[name]) - walletMs,
    });
    const measured = { warmup, payments, walletMs, walletP99: wallet.p99(), walletRequests: wallet.requests(), khalti: result('khalti'), fonepayQr: result('fonepayQr') };
    const line = (label: string, w: ProviderWayResult) => `${label} ${w.ms.toFixed(2)} ms, round trip ${w.roundTripMs.toFixed(2)} ms: overhead ${w.overheadMs.toFixed(2)} ms`;
    log(`  wallet ${walletMs.toFixed(2)} ms; ${line('Khalti', measured.khalti)}; ${line('Fonepay QR', measured.fonepayQr)}`);
    log(`  by request: ${[['wallet', measured.walletRequests], ['Khalti', measured.khalti.requests], ['Fonepay QR', measured.fonepayQr.requests]].map(([label, r]) => `${label} ${requestList(r as Record<string, number>)}`).join('; ')}`);
    return measured;
  } finally {
    api.close();
    for (const way of Object.values(ways)) await way.close();
  }
}

/** `hosted page 6.1, wallet step 5.0, …` (ms). */
export const requestList = (requests: Record<string, number>) => Object.entries(requests).map(([name, ms]) => `${name} ${ms.toFixed(1)}`).join(', ');
