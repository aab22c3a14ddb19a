// `npm start`. The embedded store's thread starts first (store-thread.ts), then this thread loads the
// server's code, a bundle of its own (serve.ts, dist/bundle/serve.cjs): PostgreSQL starts on its
// thread while this one compiles and runs the server's modules and builds its routes. This file
// stays small, so the thread starts within the first few milliseconds of the process.
import { join } from 'node:path';
import { enableCompileCache } from './compile-cache.js';
import { embeddedDataDir, loadConfig } from './config.js';
import { compiledStoreCode, setStoreFlags } from './db/pglite-code.js';
import { openStoreThread } from './db/store-thread.js';
import { runCached } from './script-cache.js';

/** Settings and a data directory in use are told in one line; anything else with its stack. */
function fail(error: unknown): never {
  const known = error instanceof Error && (error.name === 'ConfigError' || error.name === 'DataDirBusyError');
  console.error(known ? `bhuktani: ${error.message}` : error);
  process.exit(1);
}

enableCompileCache();
// V8's flags are part of a code cache's key: the store's, set here before anything is compiled, so
// every start compiles the server's code under the same ones.
setStoreFlags();
try {
  // The store's thread before the settings are checked (an operator's time zone is checked through
  // ICU, about 25 ms): settings that fail end the process, and the thread with it.
  const dataDir = embeddedDataDir();
  const store = dataDir === undefined ? undefined : openStoreThread(dataDir, 'server', undefined, compiledStoreCode);
  const config = loadConfig();
  // The two cores to the store's thread booting and its code compiling, before this one loads the server's.
  await store?.codeHandedOver;
  // A store lost while serving (its thread stopped) cannot come back in this process: stop, and let
  // the process manager start it again, rather than answer every request with an error.
  void store?.lost?.then(fail);
  // The server's code, bundled beside this file (npm run build).
  const server = runCached<typeof import('./serve.js')>(join(import.meta.dirname, 'serve.cjs'));
  await server.exports.serve(config, store);
  server.keep();
} catch (error) {
  fail(error);
}
