// Embedded start: what `npm start` runs, with no DATABASE_URL, timed from spawn to the first 200
// from GET /health: a first start on an empty data directory, and a restart on one an earlier start
// created.
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readProfile } from './evidence.js';
import { client, inParallel } from './http.js';
import { profileResult, type ProfileResult } from './profile.js';
import { freePort, npmStartArgs, startProcess, waitForHttp } from './processes.js';
import { initiateBody } from './service.js';
import { settings } from './settings.js';

/** Payments the first start stores, so later starts open a directory with some history. */
const PAYMENTS = 500;

export interface EmbeddedStart {
  /** Seconds to /health, each start after the first (a restart). */
  starts: number[];
  median: number;
  /** Seconds to /health, each on an empty data directory of its own. */
  firstStarts: number[];
  firstMedian: number;
  firstStartSeconds: number;
  /** One more start under `node --cpu-prof`: where the time to /health goes. */
  profile?: ProfileResult;
}

async function startOnce(dataDir: string, first = false, nodeArgs: string[] = []): Promise<number> {
  const port = await freePort();
  const started = performance.now();
  const proc = startProcess(process.execPath, npmStartArgs(nodeArgs), { DATA_DIR: dataDir, PORT: String(port), LOG_LEVEL: first ? 'info' : 'warn', RATE_LIMIT_TEST: '100000' });
  try {
    await waitForHttp(proc, port, '/health', 120_000, 10);
    const seconds = (performance.now() - started) / 1000;
    if (first) {
      // The demo merchant's sandbox key is in the first start's log; store some payments with it.
      await new Promise((r) => setTimeout(r, 500));
      const key = /"demo_test_secret_key":"(test_secret_key_\w+)"/.exec(proc.output())?.[1];
      if (key) {
        const api = client(port, 4);
        await inParallel(Array.from({ length: PAYMENTS }, (_, i) => i), 4, (i) => api.json('POST', '/api/v2/epayment/initiate/', key, initiateBody(i)));
        api.close();
      }
    }
    return seconds;
  } finally {
    const code = await proc.stop();
    if (code !== 0) throw new Error(`the embedded server stopped with code ${code}:\n${proc.output().slice(-2000)}`);
  }
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

/** Starts on empty data directories, each removed after. */
async function firstStarts(): Promise<number[]> {
  const seconds: number[] = [];
  for (let i = 0; i < settings.embeddedStarts; i++) {
    const dataDir = mkdtempSync(join(tmpdir(), 'bhuktani-bench-first-'));
    try {
      seconds.push(await startOnce(dataDir));
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  }
  return seconds;
}

export async function embeddedStart(): Promise<EmbeddedStart> {
  const first = await firstStarts();
  const dataDir = mkdtempSync(join(tmpdir(), 'bhuktani-bench-data-'));
  try {
    const firstStartSeconds = await startOnce(dataDir, true); // creates the directory: migrations, sandbox wallets, the demo merchant, some payments
    const starts: number[] = [];
    for (let i = 0; i < settings.embeddedStarts; i++) starts.push(await startOnce(dataDir));
    let profile: ProfileResult | undefined;
    if (settings.evidence) {
      const profileDir = mkdtempSync(join(tmpdir(), 'bhuktani-bench-prof-'));
      try {
        await startOnce(dataDir, false, ['--cpu-prof', `--cpu-prof-dir=${profileDir}`]);
        const file = readdirSync(profileDir).find((f) => f.endsWith('.cpuprofile'));
        if (file) profile = profileResult(readProfile(join(profileDir, file)), 'of every sample from spawn to exit');
      } finally {
        rmSync(profileDir, { recursive: true, force: true });
      }
    }
    return { starts, median: median(starts), firstStarts: first, firstMedian: median(first), firstStartSeconds, profile };
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}
