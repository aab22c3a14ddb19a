// PGlite's WebAssembly, made ready before its JavaScript is loaded: a process that will open the
// embedded store starts compiling the 9 MB module on V8's background threads first thing, while its
// own modules load on the main thread. PGlite reads its file system image (6 MB) itself: given as a
// Blob, it was copied out again chunk by chunk, 5% of a restart.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { setFlagsFromString } from 'node:v8';

/*
 * V8 runs PGlite's WebAssembly with its baseline compiler first, and recompiles a function with its
 * optimising compiler on background threads once it has run enough. PostgreSQL's start runs enough
 * of its code to send hundreds of functions there, about 1.2 s of CPU that the start itself then
 * waits behind on two cores. Ten times V8's default budget leaves the start alone; the functions that
 * stay hot are still optimised within a few thousand statements (measured: as many statements per
 * second as with the default after 3,000). Set before the module is compiled.
 */
const WASM_TIERING_BUDGET = 10 * 1_800_000;

/**
 * V8's flags for PGlite's WebAssembly (the bench gives its reference the same). V8 compiles a
 * function of the module when it first runs; with --wasm-lazy-validation it checks (validates) it
 * then too, rather than the whole 9 MB module up front on its background threads: about 20 ms of CPU
 * of every start, on the two cores the store's thread is booting on. A function that never runs (most
 * of PostgreSQL's, in a start) is never checked; one that is not valid WebAssembly still fails to
 * compile, when first called instead of at the module's compile.
 */
export const STORE_FLAGS = `--wasm-tiering-budget=${WASM_TIERING_BUDGET} --wasm-lazy-validation`;

const requireHere = createRequire(import.meta.url);
const PGLITE_DIST = dirname(requireHere.resolve('@electric-sql/pglite'));

/** Compiled once per process: every store the process opens (the tests open many) instantiates it. */
let module: Promise<WebAssembly.Module> | undefined;

/** The module compiled from PGlite's own file. */
const compile = () => WebAssembly.compile(readFileSync(join(PGLITE_DIST, 'pglite.wasm')));

/** V8's flags for the store's code; process-wide, and the same every time. */
export function setStoreFlags(): void {
  setFlagsFromString(STORE_FLAGS);
}

/** Starts compiling the module, for an open to come. */
export function prepareStoreCode(): void {
  if (!module) {
    setStoreFlags();
    // Read at once (a few milliseconds from the page cache), so that the compile has started before
    // the caller goes on to load its modules, which would hold up a callback for seconds.
    module = compile();
    // Awaited by the open; a failure there is the one reported.
    module.catch(() => {});
  }
}

/** Starts compiling the module and gives it (the server's thread hands it to the store's). */
export function compiledStoreCode(): Promise<WebAssembly.Module> {
  prepareStoreCode();
  return module!;
}

/** The module compiled elsewhere (the server's thread), for the opens to come; `null`: compile it here. */
export function useStoreCode(compiled: Promise<WebAssembly.Module | null>): void {
  module ??= compiled.then((given) => given ?? compile());
  module.catch(() => {});
}

/** PGlite.create's option for its code: the compiled module. */
export async function storeCode(): Promise<{ pgliteWasmModule: WebAssembly.Module }> {
  prepareStoreCode();
  return { pgliteWasmModule: await module! };
}

/** PGlite's JavaScript, its CommonJS build, as the store's thread (a script, src/build/bundle.ts) loads it. */
export function pgliteModule(): typeof import('@electric-sql/pglite') {
  return requireHere('@electric-sql/pglite') as typeof import('@electric-sql/pglite');
}
