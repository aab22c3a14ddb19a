// The tests that start real processes (the server, the CLI, the lock holder) start them from the
// sources compiled once per run, as `npm run build` compiles them, instead of through tsx: each
// process then skips tsx's loader, about a second of a CLI run on the 2-core machine. The server and
// the CLI run as the bundles `npm start` and bin/bhuktani.js run (src/build/bundle.ts); esbuild also
// writes each file as JavaScript (no bundling) into a directory laid out like the checkout, whose
// assets/, dist/ (the prepared store), package.json and node_modules are the checkout's own, so every
// path a module finds from its own address resolves as it does from the sources.
import { build } from 'esbuild';
import { mkdtempSync, readdirSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { isAbsolute, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { inject } from 'vitest';
import { bundle } from '../src/build/bundle.js';

declare module 'vitest' {
  export interface ProvidedContext {
    compiledDir: string;
  }
}

const ROOT = fileURLToPath(new URL('..', import.meta.url));
/** Scripts of test/ that run as processes of their own, beside every file of src/ but its tests. */
const TEST_SCRIPTS = ['test/data-dir-lock-holder.ts'];
const SHARED = ['assets', 'dist', 'node_modules', 'package.json'];
/** The entries run as bundles, as operators run them. */
const BUNDLES: Record<string, string> = { 'src/main.ts': 'bundle/server.js', 'src/cli/main.ts': 'bundle/cli.js' };

function sources(dir: string): string[] {
  return readdirSync(join(ROOT, dir), { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sources(path);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') && !entry.name.endsWith('.d.ts') ? [path] : [];
  });
}

/** Compiles src/ and the test scripts into a new temporary directory; for the global set-up. */
export async function compileForProcesses(): Promise<{ dir: string; remove(): void }> {
  const dir = mkdtempSync(join(tmpdir(), 'bhuktani-compiled-'));
  await build({
    entryPoints: [...sources('src'), ...TEST_SCRIPTS].map((path) => join(ROOT, path)),
    outbase: ROOT,
    outdir: dir,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    logLevel: 'warning',
  });
  await bundle(join(dir, 'bundle'));
  for (const name of SHARED) symlinkSync(join(ROOT, name), join(dir, name));
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/**
 * What `node` runs for a script of the checkout (`src/main.ts`, `src/cli/main.ts`, a test script):
 * its compiled file, from inside a test file.
 */
export function compiled(script: string): string {
  const path = isAbsolute(script) ? relative(ROOT, script) : script;
  const bundled = BUNDLES[path];
  return join(inject('compiledDir'), bundled ?? path.replace(/\.ts$/, '.js'));
}
