// The reference server as a process, and its three routes under load.
import { measureLoad, type LoadResult, type LoadSpec } from './load.js';
import { cpuWindow, freePort, startProcess, waitForHttp, type CpuSplit, type Proc } from './processes.js';
import { databaseUrl, pg } from './settings.js';

export interface ReferenceServer {
  proc: Proc;
  port: number;
  stop(): Promise<number | null>;
}

export async function startReferenceServer(): Promise<ReferenceServer> {
  const port = await freePort();
  const proc = startProcess(process.execPath, ['--import', 'tsx', 'bench/reference-server.ts'], {
    PORT: String(port),
    DATABASE_URL: databaseUrl(pg.referenceDb),
  });
  await waitForHttp(proc, port);
  return { proc, port, stop: () => proc.stop() };
}

export interface ReferenceRun extends LoadResult {
  cpu: CpuSplit;
}

async function withCpu(server: ReferenceServer, spec: Parameters<typeof measureLoad>[0]): Promise<ReferenceRun> {
  let window: ReturnType<typeof cpuWindow> | undefined;
  let cpu: CpuSplit | undefined;
  const result = await measureLoad(spec, {
    start: () => (window = cpuWindow({ reference: server.proc.pid }, pg.referenceDb)),
    stop: () => (cpu = window!.stop()),
  });
  return { ...result, cpu: cpu! };
}

/** HTTP ceiling: GET /json → {"ok":true}. */
export const jsonRoute = (server: ReferenceServer) => withCpu(server, { port: server.port, method: 'GET', path: '/json' });

/** One prepared primary-key SELECT, ids rotating over the table. */
export function selectRoute(server: ReferenceServer, seconds?: LoadSpec['seconds']) {
  let i = 0;
  return withCpu(server, { port: server.port, method: 'GET', path: () => `/select/${(i++ % 10_000) + 1}`, seconds });
}

/** One INSERT … RETURNING id per request, a JSON body parsed like the service's. */
export function insertRoute(server: ReferenceServer) {
  let i = 0;
  return withCpu(server, {
    port: server.port,
    method: 'POST',
    path: '/insert',
    headers: { 'content-type': 'application/json' },
    body: () => JSON.stringify({ amount: 1000 + (i++ % 500) }),
  });
}
