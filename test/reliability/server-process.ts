// Servers as real processes for the reliability suites: started from the sources as `npm start`
// does, stopped with SIGTERM (and timed) or killed with SIGKILL at any moment, and always awaited.
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { compiled } from '../compiled.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
/** The output kept per process: enough for the last few hundred log lines. */
const OUTPUT_LIMIT = 400_000;

export interface Exit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

export interface ServerProcess {
  pid: number;
  port: number;
  /** http://127.0.0.1:PORT */
  base: string;
  /** The last part of what it wrote, standard output and error. */
  output(): string;
  /** Parsed JSON log lines of the output kept, in order. */
  logLines(): Record<string, unknown>[];
  /** Every log line but the per-request ones (warnings, errors, start and stop), however long it ran. */
  notableLines(): Record<string, unknown>[];
  running(): boolean;
  exited: Promise<Exit>;
  /** SIGKILL and wait for the exit. */
  kill(): Promise<Exit>;
  /** SIGTERM; resolves with the exit and how long it took (SIGKILL after `deadlineMs`). */
  terminate(deadlineMs?: number): Promise<Exit & { ms: number }>;
}

const started = new Set<ServerProcess>();
const PER_REQUEST = new Set(['incoming request', 'request completed']);

/** Kills every server still running (afterAll of each suite). */
export async function killAll(): Promise<void> {
  await Promise.all([...started].map((server) => server.kill()));
}

function childEnv(env: Record<string, string>): NodeJS.ProcessEnv {
  const base: NodeJS.ProcessEnv = { ...process.env };
  for (const name of ['DATABASE_URL', 'DATA_DIR', 'PORT', 'HOST', 'PUBLIC_URL', 'NODE_OPTIONS', 'REDIS_URL', 'VITEST', 'VITEST_WORKER_ID', 'VITEST_POOL_ID']) {
    delete base[name];
  }
  return {
    ...base,
    LOG_LEVEL: 'info',
    HOST: '127.0.0.1',
    // The suites drive hundreds of requests from one address and one key: the limits are not under test here.
    RATE_LIMIT_TEST: '1000000',
    RATE_LIMIT_LIVE: '1000000',
    PAYER_ATTEMPTS_PER_MINUTE: '1000000',
    ...env,
  };
}

/**
 * Starts the server (`src/main.ts`, compiled for this run) on `port`; resolves once it logs that it is ready.
 * `env` adds the store (DATA_DIR or DATABASE_URL) and anything else.
 */
export function startServer(port: number, env: Record<string, string>, readyTimeoutMs = 120_000): Promise<ServerProcess> {
  const child: ChildProcess = spawn(process.execPath, [compiled('src/main.ts')], {
    cwd: ROOT,
    env: childEnv({ PORT: String(port), PUBLIC_URL: `http://127.0.0.1:${port}`, ...env }),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  let partial = '';
  const notable: Record<string, unknown>[] = [];
  let ready = false;
  let alive = true;
  const exited = new Promise<Exit>((resolve) =>
    child.on('exit', (code, signal) => {
      alive = false;
      resolve({ code, signal });
    }),
  );
  const server: ServerProcess = {
    pid: child.pid!,
    port,
    base: `http://127.0.0.1:${port}`,
    output: () => output,
    logLines: () =>
      output
        .split('\n')
        .filter((line) => line.startsWith('{'))
        .flatMap((line) => {
          try {
            return [JSON.parse(line) as Record<string, unknown>];
          } catch {
            return [];
          }
        }),
    notableLines: () => notable,
    running: () => alive,
    exited,
    async kill() {
      if (alive) child.kill('SIGKILL');
      const exit = await exited;
      started.delete(server);
      return exit;
    },
    async terminate(deadlineMs = 20_000) {
      const t0 = Date.now();
      if (alive) child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), deadlineMs);
      try {
        const exit = await exited;
        started.delete(server);
        return { ...exit, ms: Date.now() - t0 };
      } finally {
        clearTimeout(timer);
      }
    },
  };
  started.add(server);
  const onData = (chunk: Buffer) => {
    output += chunk;
    const lines = (partial + chunk.toString('utf8')).split('\n');
    partial = lines.pop()!;
    for (const line of lines) {
      if (!line.startsWith('{')) continue;
      try {
        const parsed = JSON.parse(line) as Record<string, unknown>;
        if ((parsed.level as number) >= 40 || !PER_REQUEST.has(parsed.msg as string)) notable.push(parsed);
      } catch {
        // not a log line
      }
    }
    if (!ready && output.includes('"msg":"Bhuktani is ready"')) {
      ready = true;
      readyResolve();
    }
    if (output.length > OUTPUT_LIMIT * 2) output = output.slice(-OUTPUT_LIMIT);
  };
  let readyResolve: () => void = () => {};
  child.stdout!.on('data', onData);
  child.stderr!.on('data', onData);
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      void server.kill();
      reject(new Error(`the server on port ${port} was not ready after ${readyTimeoutMs} ms:\n${output.slice(-4000)}`));
    }, readyTimeoutMs);
    readyResolve = () => {
      clearTimeout(timer);
      resolve(server);
    };
    void exited.then((exit) => {
      if (ready) return;
      clearTimeout(timer);
      started.delete(server);
      reject(new Error(`the server on port ${port} exited (${exit.code ?? exit.signal}) before it was ready:\n${output.slice(-4000)}`));
    });
  });
}

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Polls `check` until it returns a value other than undefined, or throws after `timeoutMs`. */
export async function waitFor<T>(what: string, check: () => Promise<T | undefined> | T | undefined, timeoutMs: number, everyMs = 250): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await sleep(everyMs);
  }
}
