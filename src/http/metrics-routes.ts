// /metrics over HTTP: the requests' own series, the route on the public port (behind METRICS_TOKEN),
// and METRICS_PORT's listener of its own. Apart from metrics.ts, so that the CLI, which keeps the
// same metrics, loads no web server for them.
import { createHash, timingSafeEqual } from 'node:crypto';
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import { Counter, Histogram } from 'prom-client';
import type { Config } from '../config.js';
import { errorHandler } from './error-handler.js';
import { AppError } from './errors.js';
import type { Metrics } from './metrics.js';

type MetricsAccess = Pick<Config, 'metricsPort' | 'metricsToken'>;

/** Hashed first, so the comparison takes the same time whatever the lengths. */
function sameToken(given: string, expected: string): boolean {
  const digest = (value: string) => createHash('sha256').update(value).digest();
  return timingSafeEqual(digest(given), digest(expected));
}

/** GET /metrics behind the token when there is one; the same body on the public port and on METRICS_PORT. */
function metricsRoute(metrics: Metrics, token: string | undefined) {
  return async (request: FastifyRequest, reply: FastifyReply) => {
    if (token !== undefined) {
      const match = /^Bearer (\S+)$/.exec(request.headers.authorization ?? '');
      if (!match) throw new AppError('not_authenticated', { headers: { 'www-authenticate': 'Bearer' } });
      if (!sameToken(match[1], token)) throw new AppError('invalid_token', { headers: { 'www-authenticate': 'Bearer' } });
    }
    return reply.type(metrics.registry.contentType).send(await metrics.registry.metrics());
  };
}

/**
 * Requests by route and status, a latency histogram by route, and GET /metrics on the public port:
 * served there only with METRICS_TOKEN and no METRICS_PORT; otherwise it answers like an unknown route.
 */
export function registerMetrics(app: FastifyInstance, metrics: Metrics, access: MetricsAccess) {
  const requests = new Counter({
    name: 'bhuktani_http_requests_total',
    help: 'HTTP requests by route, method and status',
    labelNames: ['route', 'method', 'status'],
    registers: [metrics.registry],
  });
  const latency = new Histogram({
    name: 'bhuktani_http_request_duration_seconds',
    help: 'HTTP request latency by route and method',
    labelNames: ['route', 'method'],
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
    registers: [metrics.registry],
  });
  // The series of each route, method and status, looked up once rather than hashed per request.
  const series = new Map<string, { count: ReturnType<typeof requests.labels>; time: ReturnType<typeof latency.labels> }>();
  app.addHook('onResponse', async (request, reply) => {
    // The route pattern, not the URL: a pidx in a label would make one series per payment.
    const route = request.routeOptions.url ?? 'unmatched';
    const key = `${route} ${request.method} ${reply.statusCode}`;
    let s = series.get(key);
    if (!s) {
      s = { count: requests.labels({ route, method: request.method, status: String(reply.statusCode) }), time: latency.labels({ route, method: request.method }) };
      series.set(key, s);
    }
    s.count.inc();
    s.time.observe(reply.elapsedTime / 1000);
  });
  const servedHere = access.metricsPort === undefined && access.metricsToken !== undefined;
  const notServed = async () => {
    throw new AppError('route_not_found');
  };
  app.get('/metrics', servedHere ? metricsRoute(metrics, access.metricsToken) : notServed);
}

/** METRICS_PORT: /metrics alone on a listener of its own (METRICS_HOST, loopback by default). */
export async function startMetricsListener(metrics: Metrics, config: Pick<Config, 'metricsToken' | 'metricsHost'> & { metricsPort: number }): Promise<FastifyInstance> {
  // Scrapes are not logged: one line per scrape every few seconds would drown the log.
  const app = Fastify({ logger: false });
  app.setErrorHandler(errorHandler);
  app.setNotFoundHandler((request, reply) => errorHandler(new AppError('route_not_found'), request, reply));
  app.get('/metrics', metricsRoute(metrics, config.metricsToken));
  await app.listen({ port: config.metricsPort, host: config.metricsHost });
  return app;
}
