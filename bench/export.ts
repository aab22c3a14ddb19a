// The dashboard's CSV export of the merchant with a year of history: the whole live list in
// one download, streamed. Its time and rows per second; the instance's largest RSS during it against
// the RSS just before; lookup latency while it runs against lookup latency without it, from a few
// lanes of lookups one after another (latency, not throughput).
import http from 'node:http';
import { client } from './http.js';
import { percentile } from './load.js';
import { rssBytes } from './processes.js';
import type { Service } from './service.js';
import { settings } from './settings.js';

export interface LookupLatency {
  p50: number;
  p99: number;
  samples: number;
  failed: number;
  /** What the failed ones got: a status and the start of its body, or the error. */
  failures: Record<string, number>;
}

export interface ExportRun {
  status: number;
  rows: number;
  bytes: number;
  seconds: number;
  rowsPerSecond: number;
  /** Milliseconds from the request to the first byte of the body. */
  firstByteMs: number;
  rssBeforeBytes: number;
  maxRssBytes: number;
  /** The largest RSS in each tenth of the export: flat, or growing with the rows sent. */
  rssByTenth: number[];
  lookupAlone: LookupLatency;
  lookupDuring: LookupLatency;
}

const LOOKUP_LANES = 4;
const PASSWORD = 'bench-password-1';

/** A dashboard session on live data: the log-in form, then the environment switch, as a browser does. */
async function dashboardCookie(port: number, email: string): Promise<string> {
  const jar = new Map<string, string>();
  const cookie = () => [...jar].map(([k, v]) => `${k}=${v}`).join('; ');
  const send = (method: 'GET' | 'POST', path: string, form?: Record<string, string>) =>
    new Promise<{ status: number; body: string }>((resolve, reject) => {
      const body = form ? new URLSearchParams(form).toString() : undefined;
      const headers: Record<string, string | number> = { cookie: cookie() };
      if (body) Object.assign(headers, { 'content-type': 'application/x-www-form-urlencoded', 'content-length': Buffer.byteLength(body) });
      const request = http.request({ host: '127.0.0.1', port, method, path, headers, agent: false }, (response) => {
        for (const set of response.headers['set-cookie'] ?? []) {
          const [name, ...value] = set.split(';')[0].split('=');
          jar.set(name, value.join('='));
        }
        const chunks: Buffer[] = [];
        response.on('data', (chunk) => chunks.push(chunk));
        response.on('end', () => resolve({ status: response.statusCode ?? 0, body: Buffer.concat(chunks).toString() }));
      });
      request.on('error', reject);
      request.end(body);
    });
  const token = (page: string) => /name="csrf_token" value="([^"]+)"/.exec(page)?.[1] ?? '';
  const login = await send('GET', '/dashboard/login');
  const loggedIn = await send('POST', '/dashboard/login', { csrf_token: token(login.body), email, password: PASSWORD });
  if (loggedIn.status !== 303) throw new Error(`dashboard log-in answered ${loggedIn.status}`);
  const home = await send('GET', '/dashboard');
  const switched = await send('POST', '/dashboard/environment', { csrf_token: token(home.body), environment: 'live', back: '/dashboard' });
  if (switched.status !== 303) throw new Error(`environment switch answered ${switched.status}`);
  return cookie();
}

/** Lookups of seeded payments, `LOOKUP_LANES` at a time, until stopped. */
function lookupLoad(port: number, key: string, rows: number): { stop(): Promise<LookupLatency> } {
  const api = client(port, LOOKUP_LANES);
  const latencies: number[] = [];
  let failed = 0;
  const failures: Record<string, number> = {};
  let stopped = false;
  // Completed payments (seed-list.ts: g mod 100 below 95), as a shop looks up a payment it was paid;
  // a canceled one is answered 400 by the contract.
  const pidx = () => {
    const g = 1 + Math.floor(Math.random() * rows);
    return `seed${String(g % 100 < 95 ? g : g - 5).padStart(18, '0')}`;
  };
  const lanes = Array.from({ length: LOOKUP_LANES }, async () => {
    while (!stopped) {
      const answer = await api.json('POST', '/api/v2/epayment/lookup/', key, { pidx: pidx() }).catch((error: Error) => error);
      if (!(answer instanceof Error) && answer.status === 200) {
        latencies.push(answer.ms);
        continue;
      }
      failed++;
      const what = answer instanceof Error ? answer.message : `${answer.status} ${answer.body.slice(0, 80)}`;
      failures[what] = (failures[what] ?? 0) + 1;
    }
  });
  return {
    async stop() {
      stopped = true;
      await Promise.all(lanes);
      api.close();
      return { p50: percentile(latencies, 50), p99: percentile(latencies, 99), samples: latencies.length, failed, failures };
    },
  };
}

/** One download, read as fast as it comes and counted, never kept. */
function download(port: number, path: string, cookie: string) {
  return new Promise<{ status: number; rows: number; bytes: number; seconds: number; firstByteMs: number }>((resolve, reject) => {
    const started = performance.now();
    let firstByteMs = NaN;
    let bytes = 0;
    let lines = 0;
    http
      .get({ host: '127.0.0.1', port, path, headers: { cookie }, agent: false }, (response) => {
        response.on('data', (chunk: Buffer) => {
          if (bytes === 0) firstByteMs = performance.now() - started;
          bytes += chunk.length;
          for (let at = chunk.indexOf(10); at !== -1; at = chunk.indexOf(10, at + 1)) lines++;
        });
        response.on('end', () => resolve({ status: response.statusCode ?? 0, rows: lines - 1, bytes, seconds: (performance.now() - started) / 1000, firstByteMs }));
        response.on('error', reject);
      })
      .on('error', reject);
  });
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export async function exportRun(service: Service, merchant: { email: string; liveKey: string }, rows: number): Promise<ExportRun> {
  const cookie = await dashboardCookie(service.port, merchant.email);
  // Warm-up: an export of the canceled records (1%), so the instance's code and heap have seen one
  // (an instance that has done nothing since its start grows by more on its first export of any kind),
  // and the lookups' connections and caches.
  const warmExport = await download(service.port, '/dashboard/transactions.csv?status=Canceled', cookie);
  if (warmExport.status !== 200) throw new Error(`the warm-up export answered ${warmExport.status}`);
  const warm = lookupLoad(service.port, merchant.liveKey, rows);
  await sleep(1000);
  await warm.stop();

  const alone = lookupLoad(service.port, merchant.liveKey, rows);
  await sleep(settings.durationSeconds * 1000);
  const lookupAlone = await alone.stop();

  const during = lookupLoad(service.port, merchant.liveKey, rows);
  await sleep(500);
  const rssBeforeBytes = rssBytes(service.proc.pid) ?? NaN;
  const samples: { at: number; bytes: number }[] = [];
  const started = performance.now();
  const timer = setInterval(() => {
    const bytes = rssBytes(service.proc.pid);
    if (bytes !== undefined) samples.push({ at: performance.now() - started, bytes });
  }, 50);
  const csv = await download(service.port, '/dashboard/transactions.csv', cookie);
  clearInterval(timer);
  const lookupDuring = await during.stop();
  const tenth = (csv.seconds * 1000) / 10;
  const rssByTenth = Array.from({ length: 10 }, (_, i) => {
    const inTenth = samples.filter((x) => Math.min(9, Math.floor(x.at / tenth)) === i).map((x) => x.bytes);
    return inTenth.length ? Math.max(...inTenth) : NaN;
  });
  const maxBytes = Math.max(rssBeforeBytes, ...samples.map((x) => x.bytes));
  return { ...csv, rowsPerSecond: csv.rows / csv.seconds, rssBeforeBytes, maxRssBytes: maxBytes, rssByTenth, lookupAlone, lookupDuring };
}
