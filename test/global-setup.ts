// Prepares one migrated database for the whole run, so no test file pays for initdb:
// on PGlite a dump that every test file loads; on PostgreSQL (DATABASE_URL) a fresh schema.
// And compiles the sources once for the tests that start processes (compiled.ts).
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { initialDump } from '../src/db/initial-store.js';
import { migrate } from '../src/db/migrate.js';
import { openPglite } from '../src/db/pglite.js';
import { openPostgres } from '../src/db/postgres.js';
import { compileForProcesses } from './compiled.js';

declare module 'vitest' {
  export interface ProvidedContext {
    pgliteDump: string;
  }
}

export default async function setup(project: TestProject) {
  // esbuild compiles in a process of its own while the store is prepared here.
  const [compiled, store] = await Promise.all([compileForProcesses(), prepareStore()]);
  project.provide('compiledDir', compiled.dir);
  project.provide('pgliteDump', store.dump);
  return () => {
    compiled.remove();
    store.remove();
  };
}

/** On PostgreSQL, the test database's schema migrated from empty; on PGlite, a migrated store's dump. */
async function prepareStore(): Promise<{ dump: string; remove(): void }> {
  const url = process.env.DATABASE_URL;
  if (url?.startsWith('postgres')) {
    const db = openPostgres(url);
    // The test database is throwaway: start every run from an empty schema.
    await db.exec('DROP SCHEMA IF EXISTS public CASCADE; CREATE SCHEMA public;');
    await migrate(db);
    await db.close();
    return { dump: '', remove: () => {} };
  }
  const dir = mkdtempSync(join(tmpdir(), 'bhuktani-test-'));
  // The build's prepared store when there is one (a smaller dump, without initdb's template
  // databases), brought up to date by migrations added since.
  const db = await openPglite({ loadDataDir: initialDump() });
  await migrate(db);
  const dump = await db.dump();
  await db.close();
  const file = join(dir, 'migrated.tar');
  writeFileSync(file, Buffer.from(await dump.arrayBuffer()));
  return { dump: file, remove: () => rmSync(dir, { recursive: true, force: true }) };
}
