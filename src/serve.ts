// The server: configuration, the store, then the HTTP server (run-server.ts). The store opens while
// the server's modules load: PGlite's WebAssembly compiles on another core, and a first start copies
// the prepared store, while this thread compiles and runs the modules.
import { ConfigError, loadConfig } from './config.js';
import { DataDirBusyError } from './db/data-dir-lock.js';
import { openDb } from './db/open.js';

async function main() {
  const config = loadConfig();
  const opening = openDb(config, 'server');
  const server = import('./run-server.js');
  // Awaited below; a failure to open the store is the one reported.
  server.catch(() => {});
  const db = await opening;
  const { runServer } = await server.catch(async (error) => {
    await db.close();
    throw error;
  });
  await runServer(config, db);
}

main().catch((error) => {
  if (error instanceof ConfigError || error instanceof DataDirBusyError) {
    console.error(`bhuktani: ${error.message}`);
  } else {
    console.error(error);
  }
  process.exit(1);
});
