// The world of one run: a store of its own, a simulated clock, two Bhuktani instances behind one
// address (as behind a load balancer), each with a fault layer to the store and to the providers,
// and the providers themselves: the sandbox's simulators, served by an app of their own on the
// store without faults, so their books (provider_simulations) are what the providers did. A merchant
// with a webhook endpoint on loopback. An instance that dies answers 502 to what it was serving,
// as a load balancer would, and is started again at the step's end.
import { Writable } from 'node:stream';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import { buildApp } from '../../src/app.js';
import { ManualClock, type IdSource } from '../../src/clock.js';
import { loadConfig, type Config } from '../../src/config.js';
import type { AppContext } from '../../src/context.js';
import type { Db } from '../../src/db/db.js';
import { createLogger } from '../../src/http/logger.js';
import { createMetrics } from '../../src/http/metrics.js';
import { memoryRateLimiter } from '../../src/http/rate-limiter.js';
import { createMailer } from '../../src/mail/mailer.js';
import { createMerchant, type CreatedMerchant } from '../../src/merchants/create-merchant.js';
import { providerPaymentsPort } from '../../src/provider-payments/port.js';
import { routeProviderCalls } from '../../src/providers/provider-http.js';
import { setWebhookEndpoint } from '../../src/webhooks/set-webhook-endpoint.js';
import type { Injector } from '../portal-client.js';
import { ProviderBoundary } from './provider-boundary.js';
import { seededIds } from './seeded-ids.js';
import type { StoreFault } from './schedule.js';
import { StoreBoundary } from './store-boundary.js';

export const PUBLIC_URL = 'http://bhuktani.test';

/** The settings of every app of the world: the defaults, but for limits a run's bursts would meet and the providers' cool-down. */
export function worldConfig(overrides: Record<string, string> = {}): Config {
  return loadConfig(
    {
      PUBLIC_URL,
      LOG_LEVEL: 'warn',
      LOG_FORMAT: 'json',
      KEY_CACHE_SECONDS: '0',
      RATE_LIMIT_TEST: '100000',
      SETTLEMENT_HOLD_HOURS: '0',
      // A provider left off the page after failures in a row is tested elsewhere (provider-payments.test.ts);
      // here every way stays offered, so the faults meet every path.
      PROVIDER_FAILURE_LIMIT: '1000000',
      ...overrides,
    },
    false,
  );
}

export interface Instance {
  number: number;
  app: FastifyInstance;
  ctx: AppContext;
  store: StoreBoundary;
  /** Settles when the instance dies. */
  died: Promise<void>;
}

/** A webhook endpoint on loopback that records each delivery; `failNext` answers: 500, then a cut connection. */
async function webhookEndpoint() {
  const received: { id: string; type: string; data: Record<string, unknown> }[] = [];
  let failures: ('500' | 'cut')[] = [];
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (c: Buffer) => chunks.push(c));
    request.on('end', () => {
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { id: string; type: string; data: Record<string, unknown> };
      received.push(body);
      const failure = failures.shift();
      if (failure === 'cut') response.destroy();
      else response.writeHead(failure === '500' ? 500 : 200, { 'content-type': 'text/plain' }).end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`,
    received,
    /** The next deliveries fail: answered 500 (the merchant's server broke), then cut after it acted. */
    failNext() {
      failures = ['500', 'cut'];
    },
    healthy() {
      failures = [];
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

const badGateway = (): LightMyRequestResponse =>
  ({ statusCode: 502, headers: { 'content-type': 'text/plain' }, body: 'Bad Gateway: the instance died', json: () => ({ detail: 'Bad Gateway', status_code: 502 }) }) as unknown as LightMyRequestResponse;

export interface World {
  seed: number;
  clock: ManualClock;
  db: Db;
  config: Config;
  providers: { app: FastifyInstance; ctx: AppContext };
  instances: Instance[];
  boundary: ProviderBoundary;
  /** Store faults that met a statement, by kind. */
  storeInjected: Map<StoreFault, number>;
  merchant: CreatedMerchant;
  webhooks: Awaited<ReturnType<typeof webhookEndpoint>>;
  /** The address payers and the merchant's server reach: the step's instance, or the other when it died. */
  front: Injector;
  /** The instance that serves the current step. */
  serving: number;
  /** What the apps logged at warn and above, newest last. */
  logs: string[];
  /** Runs `work` in the step's instance (or `number`), or resolves to 'died' when the instance dies meanwhile. */
  inInstance<T>(work: (instance: Instance) => Promise<T>, number?: number): Promise<T | 'died'>;
  /** Starts again every instance that died. */
  restartDead(): Promise<void>;
  close(): Promise<void>;
}

export async function openWorld(options: { seed: number; db: Db; config?: Config }): Promise<World> {
  const { seed, db } = options;
  const config = options.config ?? worldConfig();
  // A fixed start, so a seed replays the same days and hours (a Monday morning in Kathmandu).
  const clock = new ManualClock(new Date('2026-11-02T04:15:00.000Z'));
  const logs: string[] = [];
  const logStream = new Writable({
    write(chunk, _encoding, done) {
      logs.push(String(chunk));
      if (logs.length > 200) logs.shift();
      done();
    },
  });
  const logger = createLogger(config, logStream);
  const contextOn = (store: Db, ids: IdSource): AppContext => ({
    db: store,
    clock,
    ids,
    config,
    otp: { async send() {} },
    metrics: createMetrics(store),
    limiter: memoryRateLimiter(() => clock.now().getTime()),
    mailer: createMailer(config, logger),
    providerPayments: providerPaymentsPort,
  });

  const providersCtx = contextOn(db, seededIds(`${seed}:providers`));
  const providersApp = await buildApp(providersCtx, { logger });
  await providersApp.ready();
  const bhuktaniIds = seededIds(`${seed}:bhuktani`);

  const world = {} as World;
  const storeInjected = new Map<StoreFault, number>();
  const instances: Instance[] = [];
  const boundary = new ProviderBoundary(providersApp, clock, (number) => instances[number]?.store.die());

  async function startInstance(number: number): Promise<Instance> {
    let markDied!: () => void;
    const died = new Promise<void>((resolve) => {
      markDied = resolve;
    });
    const store = new StoreBoundary(() => markDied(), storeInjected);
    const ctx = contextOn(store.wrap(db), bhuktaniIds);
    routeProviderCalls(ctx, boundary.transport(number, () => store.alive));
    const app = await buildApp(ctx, { logger });
    await app.ready();
    return { number, app, ctx, store, died };
  }
  for (const number of [0, 1]) instances.push(await startInstance(number));

  const merchant = await createMerchant(providersCtx, { name: `Fault shop ${seed}`, email: `faults-${seed}@example.com`, password: 'correct horse battery' });
  const webhooks = await webhookEndpoint();
  await setWebhookEndpoint(providersCtx, { merchantId: merchant.merchant.id, environment: 'test', url: webhooks.url });

  const live = (number: number) => (instances[number].store.alive ? instances[number] : instances[1 - number]);
  const front: Injector = {
    async inject(request: InjectOptions) {
      const url = typeof request.url === 'string' ? request.url : '';
      if (url.startsWith('/sandbox/')) return providersApp.inject(request);
      const instance = live(world.serving);
      return Promise.race([instance.app.inject(request), instance.died.then(badGateway)]);
    },
  };

  Object.assign(world, {
    seed,
    clock,
    db,
    config,
    providers: { app: providersApp, ctx: providersCtx },
    instances,
    boundary,
    storeInjected,
    merchant,
    webhooks,
    front,
    serving: 0,
    logs,
    async inInstance<T>(work: (instance: Instance) => Promise<T>, number = world.serving): Promise<T | 'died'> {
      const instance = live(number);
      return Promise.race([work(instance), instance.died.then(() => 'died' as const)]);
    },
    async restartDead() {
      for (const [number, instance] of instances.entries()) {
        if (instance.store.alive) continue;
        instances[number] = await startInstance(number);
      }
    },
    async close() {
      await webhooks.close();
      for (const { app, ctx, store } of [...instances, { app: providersApp, ctx: providersCtx, store: undefined }]) {
        // A dead instance's app may hold requests that never end: it is left to the collector.
        if (store && !store.alive) continue;
        await app.close();
        await ctx.mailer.close();
      }
    },
  } satisfies Partial<World>);
  return world;
}
