// Processes the harness starts (the service, the reference server, the CLI) and what /proc says
// about them while they run: resident memory and CPU time.
import { spawn, type ChildProcess } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import http from 'node:http';
import { createServer } from 'node:net';
import { ROOT } from './settings.js';

/** A TCP port nobody listens on right now. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.on('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

/** The environment of a child: only what the harness says, nothing of the caller's store settings. */
export function childEnv(env: Record<string, string>): NodeJS.ProcessEnv {
  const base: NodeJS.ProcessEnv = { ...process.env };
  for (const name of ['DATABASE_URL', 'DATA_DIR', 'PORT', 'HOST', 'PUBLIC_URL', 'NODE_OPTIONS', 'PGOPTIONS', 'LOG_LEVEL', 'REDIS_URL']) delete base[name];
  return { ...base, ...env };
}

export interface Proc {
  pid: number;
  child: ChildProcess;
  /** The last 64 KiB it wrote. */
  output(): string;
  onLine(listener: (line: string) => void): void;
  exited: Promise<number | null>;
  stop(): Promise<number | null>;
}

export function startProcess(command: string, args: string[], env: Record<string, string>): Proc {
  const child = spawn(command, args, { cwd: ROOT, env: childEnv(env), stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  let partial = '';
  const listeners: ((line: string) => void)[] = [];
  const onData = (chunk: Buffer) => {
    const text = chunk.toString();
    output = (output + text).slice(-65536);
    if (listeners.length === 0) return;
    const lines = (partial + text).split('\n');
    partial = lines.pop()!;
    for (const line of lines) for (const listener of listeners) listener(line);
  };
  child.stdout!.on('data', onData);
  child.stderr!.on('data', onData);
  let running = true;
  const exited = new Promise<number | null>((resolve) => child.on('close', (code) => ((running = false), resolve(code))));
  return {
    pid: child.pid!,
    child,
    output: () => output,
    onLine: (listener) => listeners.push(listener),
    exited,
    async stop() {
      if (running) child.kill('SIGTERM');
      const timer = setTimeout(() => running && child.kill('SIGKILL'), 15_000);
      try {
        return await exited;
      } finally {
        clearTimeout(timer);
      }
    },
  };
}

/**
 * What `npm start` runs, from package.json's `start` script (`node [options] <entry>`): the bench
 * starts the service with the same options operators get, plus its own (`extra`, before the entry).
 */
export function npmStartArgs(extra: string[] = []): string[] {
  const script: string = JSON.parse(readFileSync(`${ROOT}/package.json`, 'utf8')).scripts.start;
  const [command, ...args] = script.trim().split(/\s+/);
  if (command !== 'node' || args.length === 0) throw new Error(`npm start runs "${script}"; the bench expects "node [options] <entry>"`);
  return [...args.slice(0, -1), ...extra, args.at(-1)!];
}

/** GET on 127.0.0.1; the status, or 0 when nothing answers. */
export function httpStatus(port: number, path: string): Promise<number> {
  return new Promise((resolve) => {
    const request = http.get({ host: '127.0.0.1', port, path, agent: false, timeout: 2000 }, (response) => {
      response.resume();
      response.on('end', () => resolve(response.statusCode ?? 0));
    });
    request.on('error', () => resolve(0));
    request.on('timeout', () => request.destroy());
  });
}

/** Polls `path` every `everyMs` until it answers 200; throws when the process exits first or time runs out. */
export async function waitForHttp(proc: Proc, port: number, path = '/health', timeoutMs = 120_000, everyMs = 50): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let exited = false;
  void proc.exited.then(() => (exited = true));
  while (Date.now() < deadline) {
    if (exited) throw new Error(`process ${proc.pid} exited before ${path} answered:\n${proc.output().slice(-4000)}`);
    if ((await httpStatus(port, path)) === 200) return;
    await new Promise((r) => setTimeout(r, everyMs));
  }
  await proc.stop();
  throw new Error(`no 200 from ${path} on port ${port} after ${timeoutMs} ms:\n${proc.output().slice(-4000)}`);
}

/** `bhuktani <args>` from the build, as an operator runs it. */
export async function runCli(args: string[], env: Record<string, string>): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, ['bin/bhuktani.js', ...args], { cwd: ROOT, env: childEnv(env), stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (c) => (stdout += c));
  child.stderr.on('data', (c) => (stderr += c));
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

export function run(command: string, args: string[], options: { env?: Record<string, string>; cwd?: string } = {}): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(command, args, { cwd: options.cwd ?? ROOT, env: { ...process.env, ...options.env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (c) => (stdout += c));
  child.stderr.on('data', (c) => (stderr += c));
  return new Promise((resolve) => {
    child.on('error', (error) => resolve({ code: -1, stdout, stderr: String(error) }));
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

// ---- /proc ----

const TICKS_PER_SECOND = 100;

export function rssBytes(pid: number): number | undefined {
  try {
    const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) * 1024 : undefined;
  } catch {
    return undefined;
  }
}

/** User + system CPU seconds a process has used so far. */
export function cpuSeconds(pid: number): number | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND;
  } catch {
    return undefined;
  }
}

/** PostgreSQL backends serving `database` (their command line names it). */
function postgresBackends(database: string): number[] {
  const pids: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const cmdline = readFileSync(`/proc/${entry}/cmdline`, 'utf8');
      if (cmdline.startsWith('postgres: ') && cmdline.includes(` ${database} `)) pids.push(Number(entry));
    } catch {
      // gone meanwhile
    }
  }
  return pids;
}

function machineTicks(): { busy: number; total: number } {
  const cpu = readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/).slice(1).map(Number);
  const idle = cpu[3] + cpu[4];
  const total = cpu.reduce((a, b) => a + b, 0);
  return { busy: total - idle, total };
}

export interface CpuSplit {
  seconds: number;
  /** Cores used on average over the window, by role (1.0 = one core fully busy). */
  cores: Record<string, number>;
  /** The whole machine's busy share, 0..1, everything included (other users too). */
  machineBusy: number;
  loadAverage: number;
}

/**
 * CPU used by each role over a window: named processes, the PostgreSQL backends of a database, the
 * harness itself (the load generator), and the machine as a whole.
 */
export function cpuWindow(roles: Record<string, number | undefined>, database?: string, exclude: () => number[] = () => []): { stop(): CpuSplit } {
  const started = performance.now();
  const machineStart = machineTicks();
  const harnessStart = process.cpuUsage();
  const start = new Map<string, number>();
  const last = new Map<string, number>();
  for (const [name, pid] of Object.entries(roles)) if (pid) start.set(name, cpuSeconds(pid) ?? 0);
  const trackRoles = () => {
    for (const [name, pid] of Object.entries(roles)) {
      const now = pid ? cpuSeconds(pid) : undefined;
      if (now !== undefined) last.set(name, now);
    }
  };
  const pgStart = new Map<number, number>();
  const pgLast = new Map<number, number>();
  const trackBackends = (atStart: boolean) => {
    if (!database) return;
    // A backend first seen after the start was born inside the window: all its CPU counts. The last
    // value seen is kept, as a backend may be gone (its client disconnected) when the window ends.
    const excluded = new Set(exclude());
    for (const pid of postgresBackends(database)) {
      if (excluded.has(pid)) continue;
      const now = cpuSeconds(pid);
      if (now === undefined) continue;
      if (!pgStart.has(pid)) pgStart.set(pid, atStart ? now : 0);
      pgLast.set(pid, now);
    }
  };
  trackBackends(true);
  const timer = setInterval(() => (trackRoles(), trackBackends(false)), 200);
  return {
    stop() {
      trackRoles();
      trackBackends(false);
      clearInterval(timer);
      const seconds = (performance.now() - started) / 1000;
      const cores: Record<string, number> = {};
      for (const [name, pid] of Object.entries(roles)) {
        if (!pid) continue;
        cores[name] = ((last.get(name) ?? start.get(name)!) - start.get(name)!) / seconds;
      }
      if (database) {
        let used = 0;
        const excluded = new Set(exclude());
        for (const [pid, from] of pgStart) if (!excluded.has(pid)) used += (pgLast.get(pid) ?? from) - from;
        cores.postgres = used / seconds;
      }
      const harness = process.cpuUsage(harnessStart);
      cores['load generator (harness)'] = (harness.user + harness.system) / 1e6 / seconds;
      const machineEnd = machineTicks();
      return {
        seconds,
        cores,
        machineBusy: (machineEnd.busy - machineStart.busy) / Math.max(1, machineEnd.total - machineStart.total),
        loadAverage: Number(readFileSync('/proc/loadavg', 'utf8').split(' ')[0]),
      };
    },
  };
}

/** The largest RSS of `pid` seen while sampling every `everyMs`. */
export function rssSampler(pid: number, everyMs = 100): { stop(): { maxBytes: number; samples: number } } {
  let maxBytes = rssBytes(pid) ?? 0;
  let samples = 1;
  const timer = setInterval(() => {
    const rss = rssBytes(pid);
    if (rss !== undefined) {
      maxBytes = Math.max(maxBytes, rss);
      samples++;
    }
  }, everyMs);
  return {
    stop() {
      clearInterval(timer);
      return { maxBytes, samples };
    },
  };
}
