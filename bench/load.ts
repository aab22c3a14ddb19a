// Load with autocannon: a warm-up, then the measured run, same connections and duration for a
// scenario and its reference. Only answers with the expected status count as served.
import autocannon, { type RawRequest } from 'autocannon';
import { settings } from './settings.js';

export interface LoadSpec {
  port: number;
  method: 'GET' | 'POST';
  /** A fixed path, or one per request (e.g. rotating ids). */
  path: string | (() => string);
  headers?: Record<string, string>;
  /** A fixed body, or one per request. */
  body?: string | (() => string);
  connections?: number;
  expectStatus?: number;
  /** Warm-up and measured seconds, when not the run's own. */
  seconds?: { warmup: number; measured: number };
}

export interface LoadResult {
  /** Answers with the expected status per second of the measured run. */
  rps: number;
  p50: number;
  p90: number;
  p99: number;
  meanMs: number;
  served: number;
  /** Anything else: other statuses, errors, timeouts. */
  failed: number;
  statusCodes: Record<string, number>;
  seconds: number;
  connections: number;
}

async function once(spec: LoadSpec, duration: number) {
  const dynamic = typeof spec.path === 'function' || typeof spec.body === 'function';
  const pathOf = () => (typeof spec.path === 'function' ? spec.path() : spec.path);
  const bodyOf = () => (typeof spec.body === 'function' ? spec.body() : spec.body);
  return autocannon({
    url: `http://127.0.0.1:${spec.port}`,
    connections: spec.connections ?? settings.connections,
    duration,
    timeout: 30,
    requests: [
      {
        method: spec.method,
        path: pathOf(),
        headers: spec.headers,
        body: bodyOf(),
        ...(dynamic ? { setupRequest: (request: RawRequest) => ({ ...request, path: pathOf(), body: bodyOf() }) } : {}),
      },
    ],
  });
}

/** Warm-up, then `hooks.start`, the measured run, `hooks.stop`. */
export async function measureLoad(spec: LoadSpec, hooks: { start?(): void; stop?(): void } = {}): Promise<LoadResult> {
  await once(spec, spec.seconds?.warmup ?? settings.warmupSeconds);
  hooks.start?.();
  const result = await once(spec, spec.seconds?.measured ?? settings.durationSeconds);
  hooks.stop?.();
  const statusCodes: Record<string, number> = {};
  for (const [code, { count }] of Object.entries(result.statusCodeStats)) statusCodes[code] = Number(count);
  const expected = spec.expectStatus ?? 200;
  const served = statusCodes[String(expected)] ?? 0;
  const total = Object.values(statusCodes).reduce((a, b) => a + b, 0);
  return {
    rps: served / result.duration,
    p50: result.latency.p50,
    p90: result.latency.p90,
    p99: result.latency.p99,
    meanMs: result.latency.mean,
    served,
    failed: total - served + result.errors + result.timeouts,
    statusCodes,
    seconds: result.duration,
    connections: spec.connections ?? settings.connections,
  };
}

/** The median run by `value` (throughput unless told), its other figures kept together with it. */
export function medianRun<T extends { rps: number }>(runs: T[]): T | undefined;
export function medianRun<T>(runs: T[], value: (run: T) => number): T | undefined;
export function medianRun<T>(runs: T[], value = (run: T) => (run as { rps: number }).rps): T | undefined {
  const sorted = [...runs].sort((a, b) => value(a) - value(b));
  return sorted[Math.floor((sorted.length - 1) / 2)];
}

export function percentile(values: number[], p: number): number {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}
