// Lookup under load: POST /api/v2/epayment/lookup/ over a thousand existing payments, 50 connections,
// with the service's resident memory sampled throughout (the memory target).
import { capturePostgresLog, startEvidenceService, statementsOf } from './evidence.js';
import { client, inParallel, type Client } from './http.js';
import { measureLoad, type LoadResult, type LoadSpec } from './load.js';
import { rssSampler, cpuWindow, type CpuSplit } from './processes.js';
import { initiateBody, poolSampler, type PoolProfile, type Service } from './service.js';
import { pg } from './settings.js';

export interface LookupRun extends LoadResult {
  maxRssBytes: number;
  cpu: CpuSplit;
  pool: PoolProfile;
}

/** Payments to look up, made through the API. */
export async function preparePayments(api: Client, key: string, count: number): Promise<string[]> {
  return inParallel(Array.from({ length: count }, (_, i) => i), 8, async (i) => {
    const answer = await api.json('POST', '/api/v2/epayment/initiate/', key, initiateBody(i));
    if (answer.status !== 200) throw new Error(`initiate answered ${answer.status}: ${answer.body}`);
    return JSON.parse(answer.body).pidx as string;
  });
}

export async function lookupRun(service: Service, key: string, pidxs: string[], seconds?: LoadSpec['seconds']): Promise<LookupRun> {
  let i = 0;
  let rss: ReturnType<typeof rssSampler> | undefined;
  let cpu: ReturnType<typeof cpuWindow> | undefined;
  let memory = { maxBytes: 0 };
  let split: CpuSplit | undefined;
  let pool: ReturnType<typeof poolSampler> | undefined;
  const result = await measureLoad(
    {
      port: service.port,
      method: 'POST',
      path: '/api/v2/epayment/lookup/',
      headers: { authorization: `Key ${key}`, 'content-type': 'application/json' },
      body: () => `{"pidx":"${pidxs[i++ % pidxs.length]}"}`,
      seconds,
    },
    {
      start: () => {
        rss = rssSampler(service.proc.pid);
        pool = poolSampler(service.port);
        cpu = cpuWindow({ service: service.proc.pid }, pg.serviceDb);
      },
      stop: () => {
        memory = rss!.stop();
        split = cpu!.stop();
      },
    },
  );
  return { ...result, maxRssBytes: memory.maxBytes, cpu: split!, pool: await pool!.stop() };
}

/** The statements one lookup and one initiate send to PostgreSQL, on an instance that logs them. */
export async function apiStatements(key: string, pidx: string): Promise<{ lookup: string[]; initiate: string[] } | undefined> {
  const evidence = await startEvidenceService();
  const api = client(evidence.port, 1);
  try {
    // Warm: the key cache, the pool's connections.
    await api.json('POST', '/api/v2/epayment/lookup/', key, { pidx });
    await api.json('POST', '/api/v2/epayment/initiate/', key, initiateBody(90_000_000));
    const lookup = await capturePostgresLog(pg.serviceDb, () => api.json('POST', '/api/v2/epayment/lookup/', key, { pidx }));
    const initiate = await capturePostgresLog(pg.serviceDb, () => api.json('POST', '/api/v2/epayment/initiate/', key, initiateBody(90_000_001)));
    if (!lookup.entries || !initiate.entries) return undefined;
    return { lookup: statementsOf(lookup.entries), initiate: statementsOf(initiate.entries) };
  } finally {
    api.close();
    await evidence.stop();
  }
}
