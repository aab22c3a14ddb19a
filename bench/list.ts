// The transaction list of one merchant with a year of history: the first page and a page in the
// middle of the history (page 25,000 of 50,000 at a million records), with and without a status
// filter, one request at a time (latency, not throughput).
import { capturePostgresLog, plansOf, startEvidenceService, statementsOf } from './evidence.js';
import { client } from './http.js';
import { percentile } from './load.js';
import type { Service } from './service.js';
import { pg, settings } from './settings.js';

export interface ListVariant {
  name: string;
  path: string;
  p50: number;
  p90: number;
  p99: number;
  samples: number;
  /** The first request of the variant on this instance (caches cold), before the warm-up. */
  coldMs: number;
  /** What the answer said, to show the page really was that deep. */
  recordRange: [number, number] | undefined;
  totalRecords: number | undefined;
  failed: number;
}

export interface ListEvidence {
  variant: string;
  statements: string[];
  plans: { durationMs: number; query: string; plan: string }[];
}

export function listVariants(): { name: string; path: string }[] {
  const base = '/api/v2/merchant-transaction/?page_size=20';
  return [
    { name: 'first page', path: `${base}&page=1` },
    { name: `page ${settings.listDeepPage.toLocaleString('en')}`, path: `${base}&page=${settings.listDeepPage}` },
    { name: 'first page, status=Completed', path: `${base}&page=1&status=Completed` },
    { name: `page ${settings.listDeepPage.toLocaleString('en')}, status=Completed`, path: `${base}&page=${settings.listDeepPage}&status=Completed` },
  ];
}

export async function listRun(service: Service, key: string): Promise<ListVariant[]> {
  const api = client(service.port, 1);
  const results: ListVariant[] = [];
  try {
    for (const variant of listVariants()) {
      // Warm-up: caches, plans, the pool's connections; the first request's time is kept apart.
      const coldMs = (await api.json('GET', variant.path, key)).ms;
      for (let i = 0; i < 4; i++) await api.json('GET', variant.path, key);
      const latencies: number[] = [];
      let failed = 0;
      let last: { record_range?: [number, number]; total_records?: number } = {};
      const stopAt = performance.now() + settings.listSecondsCap * 1000;
      for (let i = 0; i < settings.listSamples && performance.now() < stopAt; i++) {
        const answer = await api.json('GET', variant.path, key);
        if (answer.status !== 200) {
          failed++;
          continue;
        }
        latencies.push(answer.ms);
        if (i === 0) last = JSON.parse(answer.body);
      }
      results.push({
        ...variant,
        coldMs,
        p50: percentile(latencies, 50),
        p90: percentile(latencies, 90),
        p99: percentile(latencies, 99),
        samples: latencies.length,
        recordRange: last.record_range,
        totalRecords: last.total_records,
        failed,
      });
    }
  } finally {
    api.close();
  }
  return results;
}

/** The statements and EXPLAIN ANALYZE plans of one request per variant, on an instance that logs them. */
export async function listEvidence(key: string): Promise<ListEvidence[] | undefined> {
  const evidence = await startEvidenceService();
  const api = client(evidence.port, 1);
  const out: ListEvidence[] = [];
  try {
    for (const variant of listVariants()) {
      await api.json('GET', variant.path, key); // warm: key cache, connections
      const { entries } = await capturePostgresLog(pg.serviceDb, () => api.json('GET', variant.path, key));
      if (!entries) return undefined;
      out.push({ variant: variant.name, statements: statementsOf(entries), plans: plansOf(entries) });
    }
  } finally {
    api.close();
    await evidence.stop();
  }
  return out;
}
