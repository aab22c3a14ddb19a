// The server and the CLI as real processes, as an operator runs them: for what only a process shows
// (the data directory lock, a restart, exit codes). Each starts from the sources compiled for this
// run (compiled.ts).
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { compiled } from './compiled.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

/**
 * The environment of a child: the store is only what `env` says (by default the embedded PGlite in
 * DATA_DIR), whatever the test run itself uses.
 */
function childEnv(env: Record<string, string>): NodeJS.ProcessEnv {
  const base: NodeJS.ProcessEnv = { ...process.env, LOG_LEVEL: 'info' };
  for (const name of ['DATABASE_URL', 'DATA_DIR', 'PORT', 'HOST', 'PUBLIC_URL', 'NODE_OPTIONS', 'TIME_ZONE']) delete base[name];
  return { ...base, ...env };
}

function spawnTs(script: string, args: string[], env: Record<string, string>): ChildProcess {
  return spawn(process.execPath, [compiled(script), ...args], { cwd: ROOT, env: childEnv(env), stdio: ['ignore', 'pipe', 'pipe'] });
}

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** `bhuktani <args>`; resolves when the process has exited. */
export function runCli(args: string[], env: Record<string, string>): Promise<CliResult> {
  const child = spawnTs('src/cli/main.ts', args, env);
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (chunk) => (stdout += chunk));
  child.stderr!.on('data', (chunk) => (stderr += chunk));
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

export interface ServerProcess {
  pid: number;
  /** Everything it wrote so far, standard output and error. */
  output(): string;
  /** SIGTERM, then the exit code once it has stopped. */
  stop(): Promise<number | null>;
  /** SIGKILL if it still runs; for clean-up after a failed test. */
  kill(): void;
}

/** `npm start` from the sources; resolves once it logs "Bhuktani is ready" (in either log format). */
export function startServer(env: Record<string, string>, timeoutMs = 90_000): Promise<ServerProcess> {
  const child = spawnTs('src/main.ts', [], env);
  let output = '';
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  let running = true;
  void exited.then(() => (running = false));
  const server: ServerProcess = {
    pid: child.pid!,
    output: () => output,
    async stop() {
      if (running) child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
      try {
        return await exited;
      } finally {
        clearTimeout(timer);
      }
    },
    kill() {
      if (running) child.kill('SIGKILL');
    },
  };
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      server.kill();
      reject(new Error(`the server was not ready after ${timeoutMs} ms:\n${output}`));
    }, timeoutMs);
    const onData = (chunk: Buffer) => {
      output += chunk;
      if (output.includes('Bhuktani is ready')) {
        clearTimeout(timer);
        resolve(server);
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`the server exited with code ${code} before it was ready:\n${output}`));
    });
  });
}

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

/** A fresh temporary directory and its removal. */
export function tempDir(prefix: string): { path: string; remove(): void } {
  const path = mkdtempSync(join(tmpdir(), prefix));
  return { path, remove: () => rmSync(path, { recursive: true, force: true }) };
}

/** The postmaster of a PostgreSQL data directory and every backend of it (its children), from /proc. */
export function postgresProcesses(dataDir: string): number[] {
  const postmaster = Number(readFileSync(join(dataDir, 'postmaster.pid'), 'utf8').split('\n')[0]);
  const children = readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .filter((pid) => {
      try {
        // The parent pid is the 4th field, after the command name in parentheses.
        return Number(readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ')[1]) === postmaster;
      } catch {
        return false;
      }
    })
    .map(Number);
  return [postmaster, ...children];
}
