// Embedded start: what `npm start` runs, with no DATABASE_URL, timed from spawn to the first 200 from
// GET /health: a restart on a data directory an earlier start created, and a first start on an empty
// one, each against its reference in the same round: the restart against a plain PGlite open of the
// same directory (bench/store-open.mjs --plain: PGlite's defaults, answering one query), with the
// store's own tuned open beside it; the first start against the restart. The four alternate within
// each round (the order reversed every other round), so a machine shared with other work slows them
// alike; each ratio is the median of its rounds' ratios.
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { STORE_FLAGS } from '../src/db/pglite-code.js';
import { readProfile } from './evidence.js';
import { client, inParallel } from './http.js';
import { profileResult, type ProfileResult } from './profile.js';
import { cpuSeconds, freePort, npmStartArgs, startProcess, waitForHttp } from './processes.js';
import { initiateBody } from './service.js';
import { settings } from './settings.js';

/** Payments the first start stores, so later starts open a directory with some history. */
const PAYMENTS = 500;
/** V8's flags for PGlite's WebAssembly (tiering budget, lazy validation), as the service sets them. */
const STORE_NODE_ARGS = STORE_FLAGS.split(' ');

/** Seconds from spawn to ready, and the CPU seconds the process had used by then (all its threads). */
export interface Start {
  seconds: number;
  cpuSeconds: number;
}

export interface EmbeddedStart {
  /** PGlite's plain open of the restarts' directory (its defaults), each round: the restart's reference. */
  plainOpens: Start[];
  /** The store's own, tuned open of it, each round: shown beside. */
  floors: Start[];
  /** `npm start` on that directory, each round. */
  restarts: Start[];
  /** `npm start` on an empty data directory of its own, each round. */
  firstStarts: Start[];
  plainMedian: number;
  floorMedian: number;
  median: number;
  firstMedian: number;
  /** Median over rounds of restart ÷ plain open, of restart ÷ tuned open, and of first start ÷ restart. */
  restartRatio: number;
  tunedRatio: number;
  firstRatio: number;
  /** The start that created the restarts' directory. */
  firstStartSeconds: number;
  /** One more restart under `node --cpu-prof`: where the time to /health goes. */
  profile?: ProfileResult;
}

async function startOnce(dataDir: string, first = false, nodeArgs: string[] = []): Promise<Start> {
  const port = await freePort();
  const started = performance.now();
  const proc = startProcess(process.execPath, npmStartArgs(nodeArgs), { DATA_DIR: dataDir, PORT: String(port), LOG_LEVEL: first ? 'info' : 'warn', RATE_LIMIT_TEST: '100000' });
  try {
    await waitForHttp(proc, port, '/health', 120_000, 10);
    const start = { seconds: (performance.now() - started) / 1000, cpuSeconds: cpuSeconds(proc.pid) ?? NaN };
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
    return start;
  } finally {
    const code = await proc.stop();
    if (code !== 0) throw new Error(`the embedded server stopped with code ${code}:\n${proc.output().slice(-2000)}`);
  }
}

/** PGlite alone opening `dataDir` (the server keeps its store in DATA_DIR/pglite): plain (its defaults) or tuned as the store opens it. */
async function storeOpen(dataDir: string, how: 'plain' | 'tuned'): Promise<Start> {
  const started = performance.now();
  const args = how === 'plain' ? ['bench/store-open.mjs', join(dataDir, 'pglite'), '--plain'] : [...STORE_NODE_ARGS, 'bench/store-open.mjs', join(dataDir, 'pglite')];
  const proc = startProcess(process.execPath, args, {});
  try {
    await new Promise<void>((resolve, reject) => {
      proc.onLine((line) => line === 'ready' && resolve());
      void proc.exited.then(() => reject(new Error(`the store's open exited first:\n${proc.output().slice(-2000)}`)));
    });
    return { seconds: (performance.now() - started) / 1000, cpuSeconds: cpuSeconds(proc.pid) ?? NaN };
  } finally {
    await proc.stop();
  }
}

/** A first start on an empty data directory, removed after. */
async function firstStart(): Promise<Start> {
  const dataDir = mkdtempSync(join(tmpdir(), 'bhuktani-bench-first-'));
  try {
    return await startOnce(dataDir);
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

export async function embeddedStart(log: (line: string) => void = () => {}): Promise<EmbeddedStart> {
  const dataDir = mkdtempSync(join(tmpdir(), 'bhuktani-bench-data-'));
  try {
    // Creates the directory: migrations, sandbox wallets, the demo merchant, some payments.
    const firstStartSeconds = (await startOnce(dataDir, true)).seconds;
    const plainOpens: Start[] = [];
    const floors: Start[] = [];
    const restarts: Start[] = [];
    const firstStarts: Start[] = [];
    for (let round = 0; round < settings.embeddedStarts; round++) {
      const steps = [
        async () => plainOpens.push(await storeOpen(dataDir, 'plain')),
        async () => floors.push(await storeOpen(dataDir, 'tuned')),
        async () => restarts.push(await startOnce(dataDir)),
        async () => firstStarts.push(await firstStart()),
      ];
      for (const step of round % 2 ? steps.reverse() : steps) await step();
      log(`  round ${round + 1}: plain open ${plainOpens[round].seconds.toFixed(2)} s, tuned open ${floors[round].seconds.toFixed(2)} s, restart ${restarts[round].seconds.toFixed(2)} s, first start ${firstStarts[round].seconds.toFixed(2)} s`);
    }
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
    const seconds = (starts: Start[]) => starts.map((s) => s.seconds);
    return {
      plainOpens,
      floors,
      restarts,
      firstStarts,
      plainMedian: median(seconds(plainOpens)),
      floorMedian: median(seconds(floors)),
      median: median(seconds(restarts)),
      firstMedian: median(seconds(firstStarts)),
      restartRatio: median(restarts.map((r, i) => r.seconds / plainOpens[i].seconds)),
      tunedRatio: median(restarts.map((r, i) => r.seconds / floors[i].seconds)),
      firstRatio: median(firstStarts.map((f, i) => f.seconds / restarts[i].seconds)),
      firstStartSeconds,
      profile,
    };
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}
