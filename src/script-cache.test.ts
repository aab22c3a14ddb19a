// The server's code runs through V8's code cache: the first run keeps the cache beside the script,
// a later run starts from it, and a changed script (even of the same length, which V8 alone would
// not notice) runs its own code, never the cached one.
import { readdirSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { tempDir } from '../test/processes.js';
import { runCached } from './script-cache.js';

const dir = tempDir('bhuktani-script-cache-');
afterAll(() => dir.remove());
const script = join(dir.path, 'serve.cjs');
const caches = () => readdirSync(dir.path).filter((name) => name.endsWith('.v8cache'));
const source = (answer: string) => `exports.answer = () => ${JSON.stringify(answer)}; exports.dir = __dirname; exports.load = () => import('node:path');`;

describe('a script run through the code cache', () => {
  it('runs as a CommonJS module of its own directory, with import() of a module', async () => {
    writeFileSync(script, source('first'));
    const run = runCached<{ answer(): string; dir: string; load(): Promise<{ join: unknown }> }>(script);
    expect(run.exports.answer()).toBe('first');
    expect(run.exports.dir).toBe(dir.path);
    expect(typeof (await run.exports.load()).join).toBe('function');
    expect(caches()).toEqual([]);
    run.keep();
    expect(caches()).toHaveLength(1);
  });

  it('starts from the cache kept, and keeps no second one', () => {
    const [kept] = caches();
    const written = statSync(join(dir.path, kept)).mtimeMs;
    const run = runCached<{ answer(): string }>(script);
    expect(run.exports.answer()).toBe('first');
    run.keep();
    // V8 took it (a refused cache is written again).
    expect(caches()).toEqual([kept]);
    expect(statSync(join(dir.path, kept)).mtimeMs).toBe(written);
  });

  it('reads a script as UTF-8 unless it is ASCII', () => {
    writeFileSync(script, source('नेपाली · पहिलो'));
    expect(runCached<{ answer(): string }>(script).exports.answer()).toBe('नेपाली · पहिलो');
    writeFileSync(script, source('plain'));
    expect(runCached<{ answer(): string }>(script).exports.answer()).toBe('plain');
  });

  it('runs a changed script of the same length as written, not as cached', () => {
    writeFileSync(script, source('other'));
    utimesSync(script, new Date(), new Date(Date.now() + 5_000));
    const run = runCached<{ answer(): string }>(script);
    expect(run.exports.answer()).toBe('other');
  });
});
