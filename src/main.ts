// `npm start`. The embedded store's thread starts first (store-thread.ts), then this thread loads the
// server's code, a bundle of its own (serve.ts, dist/bundle/serve.js): PostgreSQL starts on its
// thread while this one compiles and runs the server's modules and builds its routes. This file
// stays small, so the thread starts within the first few milliseconds of the process.
import { pathToFileURL } from 'node:url';
import { join } from 'node:path';
import { enableCompileCache } from './compile-cache.js';
import { loadConfig } from './config.js';
import { openStoreThread } from './db/store-thread.js';

/** Settings and a data directory in use are told in one line; anything else with its stack. */
function fail(error: unknown): never {
  const known = error instanceof Error && (error.name === 'ConfigError' || error.name === 'DataDirBusyError');
  console.error(known ? `bhuktani: ${error.message}` : error);
  process.exit(1);
}

enableCompileCache();
try {
  const config = loadConfig();
  const store = config.databaseUrl ? undefined : openStoreThread(config.dataDir, 'server');
  // Beside this file: the bundle beside the bundle, tsc's serve.js beside tsc's main.js.
  const { serve } = (await import(pathToFileURL(join(import.meta.dirname, 'serve.js')).href)) as typeof import('./serve.js');
  await serve(config, store);
} catch (error) {
  fail(error);
}
