// A payment through a provider against a wallet payment, end to end on the hosted page, in the same
// run (issue 26). The provider is a reference Khalti in this process: it answers initiate and lookup
// at once, so what it costs is one round trip each, measured on their own; that time is taken out.
// The overhead a provider payment adds to the wallet payment must stay under one more round trip to
// the provider.
//
// wallet:   GET the hosted page, POST the wallet step (sandbox wallet, MPIN), GET the OTP step, POST
//           the OTP (payment, journal, record).
// provider: GET the hosted page, POST "Khalti" (the service initiates at the provider: one round
//           trip), and, once the payer has paid there (not measured), GET the return address (the
//           service asks the provider's lookup: one round trip; payment, journal, record).
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { client, type Client } from './http.js';
import { percentile } from './load.js';
import { runCli } from './processes.js';
import { initiateBody, serviceCliEnv, type BenchMerchant, type Service } from './service.js';
import { settings } from './settings.js';

export interface ProviderPaymentResult {
  payments: number;
  /** Medians over the payments, ms. */
  walletMs: number;
  providerMs: number;
  /** One round trip to the reference provider (its lookup), median ms. */
  roundTripMs: number;
  /** providerMs − 2 round trips − walletMs: what paying through a provider adds. */
  overheadMs: number;
  walletP99: number;
  providerP99: number;
}

interface Upstream {
  base: string;
  /** The return_url each initiate gave, by the provider's pidx. */
  returns: Map<string, string>;
  close(): Promise<void>;
}

/** A Khalti that answers at once: initiate gives a pidx and a payment_url; lookup says Completed. */
async function referenceKhalti(): Promise<Upstream> {
  const payments = new Map<string, { amount: number; returnUrl: string }>();
  const returns = new Map<string, string>();
  let n = 0;
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (c) => chunks.push(c));
    request.on('end', () => {
      const body = JSON.parse(Buffer.concat(chunks).toString() || '{}');
      const json = (status: number, value: unknown) => response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(value));
      if (request.url?.startsWith('/api/v2/epayment/initiate/')) {
        const pidx = `benchpidx${++n}`;
        payments.set(pidx, { amount: Number(body.amount), returnUrl: body.return_url });
        returns.set(pidx, body.return_url);
        return json(200, { pidx, payment_url: `${base}/?pidx=${pidx}`, expires_at: new Date(Date.now() + 3_600_000).toISOString(), expires_in: 3600 });
      }
      const payment = payments.get(body.pidx);
      if (!payment) return json(404, { detail: 'Not found.', error_key: 'validation_error' });
      return json(200, { pidx: body.pidx, total_amount: payment.amount, status: 'Completed', transaction_id: `T${body.pidx}`, fee: 0, refunded: false });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { base, returns, close: () => new Promise((resolve) => server.close(() => resolve())) };
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

async function walletPayment(api: Client, key: string, n: number): Promise<number> {
  const { pidx, cookie, post, ms } = await openedPayment(api, key, n, 'wallet');
  let total = ms;
  const wallet = await post(`/pay/wallet?pidx=${pidx}`, { mobile: '9800000001', mpin: '1111' });
  total += wallet.ms;
  const otpPage = await api.send('GET', String(wallet.headers.location), { headers: { cookie } });
  total += otpPage.ms;
  const attempt = /name="attempt" value="([^"]+)"/.exec(otpPage.body)![1];
  const confirm = await post(`/pay/confirm?pidx=${pidx}`, { attempt, otp: '987654' });
  total += confirm.ms;
  if (confirm.status !== 303 || !String(confirm.headers.location).includes('status=Completed')) throw new Error(`a wallet payment answered ${confirm.status}`);
  return total;
}

async function providerPayment(api: Client, key: string, upstream: Upstream, n: number): Promise<number> {
  const { pidx, cookie, post, ms } = await openedPayment(api, key, n, 'provider');
  let total = ms;
  const chosen = await post(`/pay/provider?pidx=${pidx}`, { provider: 'khalti' });
  total += chosen.ms;
  const paymentUrl = /href="([^"]+)" data-auto-follow/.exec(chosen.body)?.[1]?.replaceAll('&amp;', '&');
  if (!paymentUrl) throw new Error(`choosing Khalti answered ${chosen.status}: ${chosen.body.slice(0, 300)}`);
  const upstreamPidx = new URL(paymentUrl).searchParams.get('pidx')!;
  // The payer pays at the provider (not measured), which sends the browser back with its parameters.
  const back = new URL(upstream.returns.get(upstreamPidx)!);
  back.search = new URLSearchParams({ pidx: upstreamPidx, status: 'Completed', transaction_id: `T${upstreamPidx}` }).toString();
  const returned = await api.send('GET', `${back.pathname}${back.search}`, { headers: { cookie } });
  total += returned.ms;
  if (returned.status !== 200 || !returned.body.includes('status=Completed')) throw new Error(`a provider payment's return answered ${returned.status}: ${returned.body.slice(0, 300)}`);
  return total;
}

export async function providerPaymentRun(service: Service, merchant: BenchMerchant, log: (line: string) => void): Promise<ProviderPaymentResult> {
  const upstream = await referenceKhalti();
  const set = await runCli(['provider', 'set', 'khalti', '--env', 'test', '--base-url', upstream.base, '--secret-key', 'test_secret_key_benchreference'], serviceCliEnv());
  if (set.code !== 0) throw new Error(`provider set failed: ${set.stderr}`);
  const api = client(service.port, 4);
  const probe = client(Number(new URL(upstream.base).port), 4);
  const payments = settings.quick ? 40 : 300;
  try {
    const wallet: number[] = [];
    const provider: number[] = [];
    const trips: number[] = [];
    // Warm-up, then the two kinds alternate, so both see the machine alike.
    // Numbered after the measured ones: initiateBody's amount is 1000 + n % 500 paisa, and Khalti takes Rs 10 at least.
    for (let n = payments; n < payments + 10; n++) {
      await walletPayment(api, merchant.testKey, n);
      await providerPayment(api, merchant.testKey, upstream, n);
    }
    for (let n = 0; n < payments; n++) {
      wallet.push(await walletPayment(api, merchant.testKey, n));
      provider.push(await providerPayment(api, merchant.testKey, upstream, n));
      const trip = await probe.send('POST', '/api/v2/epayment/lookup/', { headers: { 'content-type': 'application/json' }, body: JSON.stringify({ pidx: 'benchpidx1' }) });
      trips.push(trip.ms);
    }
    const result = {
      payments,
      walletMs: median(wallet),
      providerMs: median(provider),
      roundTripMs: median(trips),
      overheadMs: median(provider) - 2 * median(trips) - median(wallet),
      walletP99: percentile(wallet, 99),
      providerP99: percentile(provider, 99),
    };
    log(`  wallet ${result.walletMs.toFixed(2)} ms, provider ${result.providerMs.toFixed(2)} ms, round trip ${result.roundTripMs.toFixed(2)} ms: overhead ${result.overheadMs.toFixed(2)} ms`);
    return result;
  } finally {
    api.close();
    probe.close();
    await upstream.close();
  }
}
