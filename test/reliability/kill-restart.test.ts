// A supervisor restarts a crashed server at once: SIGKILL, and `npm start` again on the same data
// directory without waiting, round after round. Every start must get the embedded store's lock (a
// killed holder frees it even while a zombie), and while a server runs, the CLI still refuses it.
//
// Fast (every CI run): 3 rounds. RELIABILITY_LONG=1: 20.
import { afterAll, describe, expect, it } from 'vitest';
import { freePort, runCli, startServer, tempDir, type ServerProcess } from '../processes.js';

const ROUNDS = process.env.RELIABILITY_LONG === '1' ? 20 : 3;

const dir = tempDir('bhuktani-kill-restart-');
const servers: ServerProcess[] = [];
afterAll(() => {
  for (const server of servers) server.kill();
  dir.remove();
});

describe('a server killed and started again at once', () => {
  it(`starts every time, ${ROUNDS} rounds`, async () => {
    const env = { DATA_DIR: dir.path, HOST: '127.0.0.1', PORT: String(await freePort()) };
    let server = await startServer(env);
    servers.push(server);
    for (let round = 1; round <= ROUNDS; round++) {
      server.kill();
      server = await startServer(env);
      servers.push(server);
      expect(server.output(), `round ${round}`).toContain('"msg":"Bhuktani is ready"');
    }
    const refused = await runCli(['ledger', 'verify'], { DATA_DIR: dir.path });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(new RegExp(`^bhuktani: the data directory .* is in use by a server \\(pid ${server.pid}\\)`));
    expect(await server.stop(), server.output()).toBe(0);
  }, 40_000 * (ROUNDS + 2));
});
