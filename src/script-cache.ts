// A CommonJS bundle run through V8's code cache: the server's own code (dist/bundle/serve.cjs, 3.7 MB)
// is parsed and compiled on every start, about a tenth of a second of the start's one thread before
// anything runs, and each function again when it first runs. V8 can keep what it compiled; Node 20
// offers that for scripts only (vm.Script's cachedData; Node 22's module compile cache is not here).
// The cache is kept beside the bundle, as trusted as the bundle itself, named by the bundle's size,
// time and Node's version: a build replaces the directory, and V8 refuses a cache of another V8 or of
// other flags. A directory that cannot be written (a read-only install) runs without one.
import { isAscii } from 'node:buffer';
import { readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import Module, { createRequire } from 'node:module';
import { basename, dirname, join } from 'node:path';
import vm from 'node:vm';

export interface CachedScript<T> {
  exports: T;
  /** Keeps what V8 has compiled so far (call it once the program has started), unless the cache it ran from holds it already. */
  keep(): void;
}

/** The script's text. ASCII, as the build writes the bundles, is read as such (a third faster than UTF-8's decoding). */
function sourceOf(file: string): string {
  const bytes = readFileSync(file);
  return bytes.toString(isAscii(bytes) ? 'latin1' : 'utf8');
}

export function runCached<T>(file: string): CachedScript<T> {
  const { size, mtimeMs } = statSync(file);
  const cacheFile = join(dirname(file), `.${basename(file)}.${size}-${Math.round(mtimeMs)}-${process.version}.v8cache`);
  let cachedData: Buffer | undefined;
  try {
    cachedData = readFileSync(cacheFile);
  } catch {
    // Not made yet.
  }
  const script = new vm.Script(Module.wrap(sourceOf(file)), {
    filename: file,
    cachedData,
    // An import() in it goes to Node's own loader, as a module's would.
    importModuleDynamically: vm.constants.USE_MAIN_CONTEXT_DEFAULT_LOADER,
  });
  const module = { exports: {} as T };
  (script.runInThisContext() as (...args: unknown[]) => void)(module.exports, createRequire(file), module, file, dirname(file));
  const kept = cachedData !== undefined && !script.cachedDataRejected;
  return {
    exports: module.exports,
    keep() {
      if (kept) return;
      try {
        const partial = `${cacheFile}.${process.pid}`;
        writeFileSync(partial, script.createCachedData());
        renameSync(partial, cacheFile);
      } catch {
        // A directory this process may not write: the next start compiles again.
      }
    },
  };
}
