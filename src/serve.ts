// The server's code, loaded by main.ts once the embedded store's thread has started: the HTTP server
// (run-server.ts) on that store, or on PostgreSQL opened here.
import type { Config } from './config.js';
import { openDb } from './db/open.js';
import type { ServerStore } from './db/store-thread.js';
import { runServer } from './run-server.js';

export async function serve(config: Config, store?: ServerStore): Promise<void> {
  await runServer(config, store ?? { db: await openDb(config, 'server'), opened: Promise.resolve() });
}
