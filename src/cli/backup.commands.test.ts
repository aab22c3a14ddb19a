// `bhuktani backup` and `bhuktani restore` as an operator runs them, on embedded stores in temporary
// DATA_DIRs: a backup of a running server taken while payers pay, restored into an empty directory
// and read back equal (every journal and posting as it was, every payment the backup holds as the
// store had it, the ledger whole, a server serving on it); sealed credentials in the backup, never
// PROVIDER_SECRETS_KEY, and a restore started with another key refused; and the bad input: a
// truncated, damaged or foreign file, a non-empty or running DATA_DIR, an existing --out, PostgreSQL.
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { overHttp } from '../../test/http-injector.js';
import { payerBrowser } from '../../test/portal-client.js';
import { freePort, runCli, startServer, type ServerProcess } from '../../test/processes.js';
import { openPglite } from '../db/pglite.js';

const SCENARIO_TIMEOUT = 300_000;
const SECRETS_KEY = 'a'.repeat(16) + 'b'.repeat(16) + 'c'.repeat(16) + 'd'.repeat(16);

let base: string;
const servers = new Set<ServerProcess>();
const dir = (name: string) => join(base, name);
const bhuktani = (dataDir: string, args: string[], env: Record<string, string> = {}) => runCli(args, { DATA_DIR: dataDir, LOG_LEVEL: 'warn', PROVIDER_SECRETS_KEY: SECRETS_KEY, ...env });

async function serve(dataDir: string, env: Record<string, string> = {}) {
  const port = await freePort();
  const server = await startServer({ DATA_DIR: dataDir, PORT: String(port), PROVIDER_SECRETS_KEY: SECRETS_KEY, RATE_LIMIT_TEST: '100000', ...env });
  servers.add(server);
  return { server, url: `http://127.0.0.1:${port}` };
}

/** What must come back equal: the ledger's journals and postings, and the payments. */
async function books(dataDir: string) {
  const db = await openPglite({ dataDir: join(dataDir, 'pglite') });
  try {
    return {
      journals: await db.query<Record<string, unknown>>('SELECT * FROM journals ORDER BY id'),
      postings: await db.query<Record<string, unknown>>('SELECT * FROM postings ORDER BY id'),
      payments: await db.query<{ pidx: string; status: string }>('SELECT pidx, status, amount, transaction_id, refunded_amount FROM payments ORDER BY pidx'),
    };
  } finally {
    await db.close();
  }
}

beforeAll(() => {
  base = mkdtempSync(join(tmpdir(), 'bhuktani-backup-'));
});
afterAll(() => {
  for (const server of servers) server.kill();
  if (base) rmSync(base, { recursive: true, force: true });
});

describe('bhuktani backup and restore', () => {
  it('backs up a running server while payers pay; the restore reads back equal and serves', async () => {
    const origin = dir('origin');
    const merchant = await bhuktani(origin, ['merchant', 'create', '--name', 'Tea', '--email', 'tea@example.com', '--password', 'correct horse', '--json']);
    expect(merchant.code, merchant.stderr).toBe(0);
    const key = JSON.parse(merchant.stdout).test_secret_key as string;
    // A live provider's credentials, sealed with PROVIDER_SECRETS_KEY.
    const provider = await bhuktani(origin, ['provider', 'set', 'khalti', '--env', 'live', '--base-url', 'https://khalti.com', '--secret-key', 'live_secret_key_0123456789abcdef0123456789abcdef']);
    expect(provider.code, provider.stderr).toBe(0);

    const { server, url } = await serve(origin);
    let paying = true;
    let paid = 0;
    const payer = async (n: number) => {
      for (let i = 0; paying; i++) {
        const answer = await fetch(`${url}/api/v2/epayment/initiate/`, {
          method: 'POST',
          headers: { authorization: `Key ${key}`, 'content-type': 'application/json' },
          body: JSON.stringify({ return_url: 'https://shop.example/r', website_url: 'https://shop.example', amount: 1000 + n, purchase_order_id: `o-${n}-${i}`, purchase_order_name: 'Tea' }),
        });
        const { pidx } = (await answer.json()) as { pidx: string };
        const done = await payerBrowser(overHttp(url)).pay(pidx);
        if (done.status === 303) paid++;
      }
    };
    const payers = [payer(1), payer(2)];
    while (paid < 5) await new Promise((resolve) => setTimeout(resolve, 50));

    const file = join(base, 'running.backup');
    const backedUp = await bhuktani(origin, ['backup', '--out', file]);
    expect(backedUp.code, backedUp.stderr).toBe(0);
    expect(backedUp.stdout.trim()).toMatch(/^Backed up the running server \(schema \d{3}_\w+\) to .*running\.backup: [\d.]+ MB, sha256 [0-9a-f]{16}…$/);
    // The server kept serving, and payments went on after the backup.
    const atBackup = paid;
    while (paid < atBackup + 3) await new Promise((resolve) => setTimeout(resolve, 50));
    paying = false;
    await Promise.all(payers);
    expect(await server.stop()).toBe(0);

    // The backup holds the sealed credentials, never the key that seals them.
    const bytes = readFileSync(file);
    const tar = gunzipSync(bytes.subarray(bytes.indexOf(0x0a, bytes.indexOf(0x0a) + 1) + 1));
    expect(tar.includes(Buffer.from(SECRETS_KEY))).toBe(false);
    expect(tar.includes(Buffer.from('live_secret_key_0123456789abcdef0123456789abcdef'))).toBe(false);

    const restored = dir('restored');
    const restore = await bhuktani(restored, ['restore', file]);
    expect(restore.code, restore.stderr).toBe(0);
    expect(restore.stdout).toContain(`Restored ${restored} from ${file}`);
    expect(readdirSync(restored).filter((name) => name.startsWith('pglite'))).toEqual(['pglite']);

    const [before, after] = [await books(origin), await books(restored)];
    // Journals and postings are never changed: the restore's are the origin's first ones, exactly.
    expect(after.journals.length).toBeGreaterThan(0);
    expect(after.journals).toEqual(before.journals.slice(0, after.journals.length));
    expect(after.postings).toEqual(before.postings.slice(0, after.postings.length));
    expect(after.journals.length).toBeLessThan(before.journals.length);
    // Every payment it holds is the origin's, and each Completed one is as the origin has it.
    const origins = new Map(before.payments.map((p) => [p.pidx, p]));
    expect(after.payments.filter((p) => !origins.has(p.pidx))).toEqual([]);
    const completed = after.payments.filter((p) => p.status === 'Completed');
    expect(completed.length).toBeGreaterThanOrEqual(5);
    for (const p of completed) expect(origins.get(p.pidx)).toEqual(p);

    const verified = await bhuktani(restored, ['ledger', 'verify']);
    expect(verified.code, verified.stdout).toBe(0);
    // Started with another PROVIDER_SECRETS_KEY, the restored store's live credentials do not open: refused.
    await expect(serve(restored, { PROVIDER_SECRETS_KEY: 'e'.repeat(64) })).rejects.toThrow(/sealed with another PROVIDER_SECRETS_KEY/);
    const again = await serve(restored);
    const lookup = await fetch(`${again.url}/api/v2/epayment/lookup/`, { method: 'POST', headers: { authorization: `Key ${key}`, 'content-type': 'application/json' }, body: JSON.stringify({ pidx: completed[0].pidx }) });
    expect(await lookup.json()).toMatchObject({ pidx: completed[0].pidx, status: 'Completed' });
    expect(await again.server.stop()).toBe(0);
  }, SCENARIO_TIMEOUT);

  it('refuses what is not a whole backup, a directory that is not empty or is running, an existing --out, and PostgreSQL', async () => {
    const origin = dir('stopped');
    expect((await bhuktani(origin, ['migrate'])).code).toBe(0);
    const file = join(base, 'stopped.backup');
    const made = await bhuktani(origin, ['backup', '--out', file]);
    expect(made.code, made.stderr).toBe(0);
    expect(made.stdout).toContain('Backed up the stopped store');
    const whole = readFileSync(file);

    const refused = async (bytes: Buffer | undefined, reason: RegExp, into = dir(`empty-${Math.random().toString(36).slice(2)}`)) => {
      const path = join(base, `bad-${Math.random().toString(36).slice(2)}`);
      if (bytes) writeFileSync(path, bytes);
      const answer = await bhuktani(into, ['restore', bytes ? path : file]);
      expect(answer.code, answer.stdout).toBe(1);
      expect(answer.stderr).toMatch(reason);
      return into;
    };
    const emptied = await refused(whole.subarray(0, whole.length - 1000), /^bhuktani: the backup is truncated: \d+ of its \d+ bytes/);
    // Nothing half-written is left.
    expect(existsSync(emptied) ? readdirSync(emptied).filter((name) => name.startsWith('pglite')) : []).toEqual([]);
    const flipped = Buffer.from(whole);
    flipped[flipped.length - 10] ^= 0xff;
    await refused(flipped, /the backup is damaged: its checksum does not hold/);
    await refused(Buffer.from('PGDMP\u0001\u000e\u0000custom dump of another program'), /not a Bhuktani backup/);
    await refused(Buffer.alloc(0), /not a Bhuktani backup/);
    await refused(undefined, /is not empty \(it holds pglite\): restore into an empty DATA_DIR/, origin);
    const { server } = await serve(origin);
    await refused(undefined, /in use by a server/, origin);
    await server.stop();

    const missing = await bhuktani(origin, ['restore', join(base, 'no-such-file')]);
    expect([missing.code, missing.stderr]).toEqual([1, expect.stringContaining('cannot be read: ENOENT')]);
    const over = await bhuktani(origin, ['backup', '--out', file]);
    expect([over.code, over.stderr]).toEqual([1, expect.stringContaining('exists already: give a new file to --out')]);
    expect(readFileSync(file).equals(whole)).toBe(true);
    const onPostgres = await bhuktani(origin, ['backup', '--out', join(base, 'pg.backup')], { DATABASE_URL: 'postgres://127.0.0.1:1/none' });
    expect([onPostgres.code, onPostgres.stderr]).toEqual([2, expect.stringContaining('pgBackRest')]);
    const usage = await bhuktani(origin, ['backup']);
    expect([usage.code, usage.stderr]).toEqual([2, expect.stringContaining('usage: bhuktani backup --out FILE')]);
  }, SCENARIO_TIMEOUT);
});
