// The bundles `npm start` and the CLI run are written in ASCII (bundle.ts): one character outside it
// would make V8 hold the server's whole script as a two-byte string, read twice as slowly on every
// start. What they say is unchanged: test/persistence.test.ts reads a page of the bundled server.
import { isAscii } from 'node:buffer';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, inject, it } from 'vitest';

// The bundles as the build writes them, from this run's sources (test/compiled.ts).
const dir = join(inject('compiledDir'), 'bundle');

describe('the bundles', () => {
  it('are ASCII, though the sources hold Devanagari and typographic punctuation', () => {
    const files = readdirSync(dir).filter((name) => /\.(c?js)$/.test(name));
    expect(files).toEqual(expect.arrayContaining(['server.js', 'serve.cjs', 'cli.js', 'store-thread-worker.cjs']));
    for (const name of files) expect(isAscii(readFileSync(join(dir, name))), name).toBe(true);
    // "नेपाली" and "·", as escapes (esbuild's own in string literals, bundle.ts's in templates).
    const serve = readFileSync(join(dir, 'serve.cjs'), 'latin1');
    expect(serve).toMatch(/\\u0928\\u0947\\u092a\\u093e\\u0932\\u0940/i);
    expect(serve).toMatch(/\\u00b7/i);
  });
});
