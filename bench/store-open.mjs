// The references of an embedded start (bench/embedded-start.ts): PGlite alone, from node_modules,
// opening a data directory and answering one query. `--plain`: as PGlite opens it by default, what
// anyone embedding PGlite gets; otherwise tuned with the service's store settings (16MB of shared
// buffers, src/db/pglite.ts; V8's flags for its WebAssembly are given on the command line, as
// src/db/pglite-code.ts sets them). Prints "ready" once the query is answered, then waits for SIGTERM.
import { PGlite } from '@electric-sql/pglite';

const [dataDir, plain] = [process.argv[2], process.argv[3] === '--plain'];
const pg = await PGlite.create(plain ? { dataDir } : { dataDir, startParams: [...PGlite.defaultStartParams, '-c', 'shared_buffers=16MB'] });
await pg.query('SELECT 1');
process.stdout.write('ready\n');
process.on('SIGTERM', () => {
  void pg.close().then(() => process.exit(0));
});
