// The service as operators run it: what `npm start` runs (package.json's start script) on the bench database,
// and merchants made with `bhuktani merchant create`.
import { randomBytes } from 'node:crypto';
import { client } from './http.js';
import { freePort, npmStartArgs, runCli, startProcess, waitForHttp, type Proc } from './processes.js';
import { databaseUrl, pg, serviceEnv } from './settings.js';

export interface Service {
  proc: Proc;
  port: number;
  stop(): Promise<number | null>;
}

/** One instance on PostgreSQL; `env` adds to or overrides the bench defaults (LOG_LEVEL, PGOPTIONS, …). */
export async function startService(env: Record<string, string> = {}, nodeArgs: string[] = []): Promise<Service> {
  const port = await freePort();
  const proc = startProcess(process.execPath, npmStartArgs(nodeArgs), {
    ...serviceEnv,
    DATABASE_URL: databaseUrl(pg.serviceDb),
    PORT: String(port),
    ...env,
  });
  await waitForHttp(proc, port);
  return { proc, port, stop: () => proc.stop() };
}

export const serviceCliEnv = () => ({ DATABASE_URL: databaseUrl(pg.serviceDb), LOG_LEVEL: 'warn' });

export interface BenchMerchant {
  id: number;
  idx: string;
  email: string;
  liveKey: string;
  testKey: string;
  /** Its eSewa product code and secret key per environment (issued with the merchant, as `merchant create --json` prints them). */
  esewa: Record<'test' | 'live', { product_code: string; secret_key: string }>;
}

/** `bhuktani merchant create --json` (on the bench database unless `env` says another); the numeric id is read back for the SQL seeding. */
export async function createMerchant(name: string, lookupId: (email: string) => Promise<number>, env: Record<string, string> = {}): Promise<BenchMerchant> {
  const email = `${name.toLowerCase().replace(/\W+/g, '-')}-${randomBytes(3).toString('hex')}@bench.example.com`;
  const result = await runCli(['merchant', 'create', '--name', name, '--email', email, '--password', 'bench-password-1', '--json'], { ...serviceCliEnv(), ...env });
  if (result.code !== 0) throw new Error(`merchant create failed (${result.code}): ${result.stderr}`);
  const created = JSON.parse(result.stdout.trim().split('\n').at(-1)!);
  return { id: await lookupId(email), idx: created.idx, email, liveKey: created.live_secret_key, testKey: created.test_secret_key, esewa: created.esewa };
}

/** A typical initiate body; `order` must be unique where payments are to be paid (one paid pidx per order). */
export function initiateBody(n: number, order = `bench-order-${n}`, amount = 1000 + (n % 500)) {
  return {
    return_url: 'https://shop.example.com/payment/return',
    website_url: 'https://shop.example.com',
    amount,
    purchase_order_id: order,
    purchase_order_name: 'Green tea, 500 g',
    customer_info: { name: 'Sita Sharma', email: 'sita@example.com', phone: '9800000001' },
  };
}

export interface PoolProfile {
  samples: number;
  /** Averages over the samples of the service's pool gauges (GET /metrics). */
  total: number;
  idle: number;
  /** Queries queued for a connection. */
  waiting: number;
  maxWaiting: number;
}

/** Samples the service's pg pool gauges from /metrics every `everyMs` (two small requests a second). */
export function poolSampler(port: number, everyMs = 500): { stop(): Promise<PoolProfile> } {
  const api = client(port, 1);
  const sums = { total: 0, idle: 0, waiting: 0 };
  let maxWaiting = 0;
  let samples = 0;
  let stopped = false;
  const loop = (async () => {
    while (!stopped) {
      const answer = await api.send('GET', '/metrics', { headers: { authorization: `Bearer ${serviceEnv.METRICS_TOKEN}` } }).catch(() => undefined);
      if (answer?.status === 200) {
        const gauge = (state: string) => Number(new RegExp(`bhuktani_db_pool_connections\\{state="${state}"\\} (\\d+)`).exec(answer.body)?.[1] ?? NaN);
        const [total, idle, waiting] = [gauge('total'), gauge('idle'), gauge('waiting')];
        if (Number.isFinite(total)) {
          sums.total += total;
          sums.idle += idle;
          sums.waiting += waiting;
          maxWaiting = Math.max(maxWaiting, waiting);
          samples++;
        }
      }
      await new Promise((r) => setTimeout(r, everyMs));
    }
  })();
  return {
    async stop() {
      stopped = true;
      await loop;
      api.close();
      const avg = (v: number) => v / Math.max(1, samples);
      return { samples, total: avg(sums.total), idle: avg(sums.idle), waiting: avg(sums.waiting), maxWaiting };
    },
  };
}
