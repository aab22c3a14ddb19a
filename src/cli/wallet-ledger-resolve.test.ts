// The operator's CLI as real processes, on an embedded store in a temporary
// DATA_DIR: merchants, wallets, `ledger verify`, and `payment resolve` on a payment held through a
// real server. DATABASE_URL is never passed on: `memory:` would not keep data between processes, and
// the PostgreSQL test database must not see these rows.
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, runCli, startServer as startProcess, type ServerProcess } from '../../test/processes.js';
import { openPglite } from '../db/pglite.js';

// Each process opens PGlite: seconds each on a busy machine.
const SCENARIO_TIMEOUT = 300_000;

let base: string;
let template: string;
let copies = 0;
const servers = new Set<ServerProcess>();

const bhuktani = (dataDir: string, args: string[]) => runCli(args, { DATA_DIR: dataDir, LOG_LEVEL: 'warn' });

/** A migrated data directory of its own, copied from the template (no initdb per scenario). */
function freshDataDir(): string {
  copies += 1;
  const dir = join(base, `store-${copies}`);
  cpSync(template, dir, { recursive: true });
  return dir;
}

/** `npm start` on `dataDir`; resolves once the server logs that it is ready. */
async function startServer(dataDir: string) {
  const port = await freePort();
  const server = await startProcess({ DATA_DIR: dataDir, PORT: String(port), HOST: '127.0.0.1' });
  servers.add(server);
  return {
    port,
    url: `http://127.0.0.1:${port}`,
    /** SIGTERM, as a service manager stops it; resolves with the exit code. */
    stop: () => server.stop(),
  };
}

async function api(url: string, key: string, path: string, body: object) {
  const response = await fetch(`${url}${path}`, {
    method: 'POST',
    headers: { authorization: `Key ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: response.status, body: await response.json() };
}

const field = (html: string, name: string) => new RegExp(`name="${name}" value="([^"]+)"`).exec(html)?.[1] ?? '';

/** A payer in a browser without JavaScript: the page, the wallet step, the OTP step. */
async function payThroughPortal(url: string, pidx: string, mobile: string, otp = '987654'): Promise<URL> {
  const page = await fetch(`${url}/pay/${pidx}`);
  expect(page.status).toBe(200);
  const cookie = page.headers.getSetCookie().find((c) => c.startsWith('bhuktani_csrf='))!.split(';')[0];
  const form = { 'content-type': 'application/x-www-form-urlencoded', cookie };
  const wallet = await fetch(`${url}/pay/${pidx}/wallet`, {
    method: 'POST',
    redirect: 'manual',
    headers: form,
    body: new URLSearchParams({ csrf_token: field(await page.text(), 'csrf_token'), mobile, mpin: '1111' }),
  });
  expect(wallet.status).toBe(303);
  const otpPage = await fetch(new URL(wallet.headers.get('location')!, url), { headers: { cookie } });
  const html = await otpPage.text();
  expect(html).toContain('name="otp"');
  const confirm = await fetch(`${url}/pay/${pidx}/confirm`, {
    method: 'POST',
    redirect: 'manual',
    headers: form,
    body: new URLSearchParams({ csrf_token: field(html, 'csrf_token'), attempt: field(html, 'attempt'), otp }),
  });
  expect(confirm.status).toBe(303);
  return new URL(confirm.headers.get('location')!);
}

beforeAll(async () => {
  base = mkdtempSync(join(tmpdir(), 'bhuktani-cli-'));
  template = join(base, 'template');
  const migrated = await bhuktani(template, ['migrate']);
  expect(migrated, migrated.stderr).toMatchObject({ code: 0 });
  expect(migrated.stdout).toMatch(/^Schema up to date: 001_merchants_payments, /);
}, SCENARIO_TIMEOUT);

afterAll(() => {
  for (const server of servers) server.kill();
  if (base) rmSync(base, { recursive: true, force: true });
});

describe.concurrent('bhuktani', () => {
  it('merchant create, wallet create and topup, ledger verify', async () => {
    const dir = freshDataDir();
    const merchant = await bhuktani(dir, ['merchant', 'create', '--name', 'Ram Store', '--email', 'ram@example.com', '--password', 'correct horse', '--json']);
    expect(merchant.code, merchant.stderr).toBe(0);
    expect(JSON.parse(merchant.stdout)).toEqual({
      idx: expect.stringMatching(/^[\w-]{22}$/),
      name: 'Ram Store',
      email: 'ram@example.com',
      fee_bps: 300,
      test_secret_key: expect.stringMatching(/^test_secret_key_[0-9a-f]{32}$/),
      live_secret_key: expect.stringMatching(/^live_secret_key_[0-9a-f]{32}$/),
      esewa: {
        test: { product_code: expect.stringMatching(/^BK-TEST-/), secret_key: expect.any(String) },
        live: { product_code: expect.stringMatching(/^BK-LIVE-/), secret_key: expect.any(String) },
      },
    });

    const created = await bhuktani(dir, ['wallet', 'create', '--mobile', '9841000001', '--name', 'Ram', '--mpin', '1234', '--env', 'live', '--json']);
    expect(created.code, created.stderr).toBe(0);
    expect(JSON.parse(created.stdout)).toEqual({ idx: expect.stringMatching(/^[\w-]{22}$/), mobile: '9841000001', name: 'Ram', environment: 'live', balance: 0 });

    const topup = await bhuktani(dir, ['wallet', 'topup', '--mobile', '9841000001', '--amount', '50000', '--env', 'live', '--json']);
    expect(topup.code, topup.stderr).toBe(0);
    expect(JSON.parse(topup.stdout)).toEqual({ mobile: '9841000001', environment: 'live', balance: 50000 });
    const again = await bhuktani(dir, ['wallet', 'topup', '--mobile', '9841000001', '--amount', '25', '--env', 'live']);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stdout.trim()).toBe('Wallet 9841000001 (live) topped up; balance Rs. 500.25.');

    const json = await bhuktani(dir, ['ledger', 'verify', '--json']);
    expect(json.code, json.stderr).toBe(0);
    const report = JSON.parse(json.stdout);
    expect(report.ok).toBe(true);
    expect(report.invariants).toHaveLength(15);
    for (const invariant of report.invariants) expect(invariant).toEqual({ invariant: expect.any(String), holds: true, violations: [] });

    const text = await bhuktani(dir, ['ledger', 'verify']);
    expect(text.code, text.stderr).toBe(0);
    expect(text.stdout.trim().split('\n')).toEqual([...report.invariants.map((r: { invariant: string }) => `ok   ${r.invariant}`), 'The ledger is consistent.']);
  }, SCENARIO_TIMEOUT);

  it('refuses bad input with exit 1 and a clear message, bad usage with exit 2', async () => {
    const dir = freshDataDir();
    const expectFailure = async (args: string[], code: number, message: string | RegExp) => {
      const run = await bhuktani(dir, args);
      expect({ args, code: run.code }).toEqual({ args, code });
      expect(run.stderr).toMatch(message);
      expect(run.stdout).toBe('');
    };
    await expectFailure(['wallet', 'create', '--mobile', '9841000002', '--name', 'Sita', '--mpin', '12ab', '--env', 'live'], 1, 'bhuktani: --mpin: The MPIN must be 4 digits.');

    const created = await bhuktani(dir, ['wallet', 'create', '--mobile', '9841000002', '--name', 'Sita', '--mpin', '1234', '--env', 'live']);
    expect(created.code, created.stderr).toBe(0);
    expect(created.stdout).toContain('Wallet 9841000002 (Sita) created in live');
    await expectFailure(['wallet', 'create', '--mobile', '9841000002', '--name', 'Sita again', '--mpin', '4321', '--env', 'live'], 1, 'bhuktani: --mobile: A live wallet with this mobile number already exists.');
    await expectFailure(['wallet', 'topup', '--mobile', '9841000099', '--amount', '100', '--env', 'live'], 1, 'bhuktani: --mobile: No wallet with this mobile number in this environment.');
    // The live wallet is not a test wallet.
    await expectFailure(['wallet', 'topup', '--mobile', '9841000002', '--amount', '100', '--env', 'test'], 1, 'No wallet with this mobile number in this environment.');
    await expectFailure(['payment', 'resolve', 'no-such-pidx', '--status', 'Completed'], 1, 'bhuktani: Not found.');

    await expectFailure(['frobnicate'], 2, /^usage: bhuktani <command>/);
    await expectFailure(['payment', 'resolve', '--status', 'Completed'], 2, /give exactly one PIDX\nusage: bhuktani payment resolve PIDX/);
    await expectFailure(['payment', 'resolve', 'abc', '--status', 'Done'], 2, '--status must be Completed or "User canceled"');
    await expectFailure(['wallet', 'create', '--bogus'], 2, /usage: bhuktani wallet create/);

    // Without --env, a wallet is a test wallet (a live one needs real OTPs): the server still starts.
    const test = await bhuktani(dir, ['wallet', 'create', '--mobile', '9841000003', '--name', 'Hari', '--mpin', '1234']);
    expect(test.stdout).toContain('created in test');
    const toppedUp = await bhuktani(dir, ['wallet', 'topup', '--mobile', '9841000003', '--amount', '100', '--json']);
    expect(JSON.parse(toppedUp.stdout)).toEqual({ mobile: '9841000003', environment: 'test', balance: 100 });
  }, SCENARIO_TIMEOUT);

  it('--help shows the default of every optional value', async () => {
    const help = await bhuktani(freshDataDir(), ['--help']);
    const optionalValues = help.stdout.split('\n').flatMap((line) => [...line.matchAll(/\[--[\w-]+ ([^\]]+)\]/g)].map((m) => `${line.trim().split(' ').slice(1, 3).join(' ')}: ${m[0]}`));
    expect(optionalValues.length).toBeGreaterThan(5);
    expect(optionalValues.filter((v) => !/\(default[ :]/.test(v) && !/\[--(reason|mobile|key-passphrase) /.test(v))).toEqual([]);
  }, SCENARIO_TIMEOUT);

  it('ledger verify exits 1 and lists the broken invariant', async () => {
    const dir = freshDataDir();
    const db = await openPglite({ dataDir: join(dir, 'pglite') });
    await db.query(`UPDATE ledger_accounts SET balance = balance + 1 WHERE id = (SELECT min(id) FROM ledger_accounts WHERE kind = 'wallet')`);
    await db.close();

    const text = await bhuktani(dir, ['ledger', 'verify']);
    expect(text.code).toBe(1);
    const lines = text.stdout.trim().split('\n');
    expect(lines).toContain('FAIL each wallet balance equals the sum of its postings');
    expect(lines).toContain('ok   every journal sums to zero');
    expect(lines.at(-1)).toBe('The ledger has broken invariants (listed above).');

    const json = await bhuktani(dir, ['ledger', 'verify', '--json']);
    expect(json.code).toBe(1);
    const report = JSON.parse(json.stdout);
    expect(report.ok).toBe(false);
    expect(report.invariants.filter((r: { holds: boolean }) => !r.holds).map((r: { invariant: string }) => r.invariant)).toEqual([
      'each wallet balance equals the sum of its postings',
    ]);
  }, SCENARIO_TIMEOUT);

  it('payment resolve decides a payment held through the real server', async () => {
    const dir = freshDataDir();
    const merchant = await bhuktani(dir, ['merchant', 'create', '--name', 'Held Shop', '--email', 'held@example.com', '--password', 'correct horse', '--json']);
    expect(merchant.code, merchant.stderr).toBe(0);
    const key = JSON.parse(merchant.stdout).test_secret_key as string;

    let server = await startServer(dir);
    const held: { pidx: string; transaction_id: string }[] = [];
    for (const order of ['order-1', 'order-2']) {
      const initiated = await api(server.url, key, '/api/v2/epayment/initiate/', {
        return_url: 'https://shop.example.com/return',
        website_url: 'https://shop.example.com',
        amount: 5000,
        purchase_order_id: order,
        purchase_order_name: 'Held order',
      });
      expect(initiated.status).toBe(200);
      expect(initiated.body.payment_url).toBe(`http://localhost:${server.port}/pay/?pidx=${initiated.body.pidx}`);
      const callback = await payThroughPortal(server.url, initiated.body.pidx, '9800000007');
      expect(callback.searchParams.get('status')).toBe('Pending');
      const transactionId = callback.searchParams.get('transaction_id')!;
      expect(transactionId).toMatch(/^[\w-]{22}$/);
      const lookup = await api(server.url, key, '/api/v2/epayment/lookup/', { pidx: initiated.body.pidx });
      expect(lookup).toMatchObject({ status: 200, body: { status: 'Pending', transaction_id: null } });
      held.push({ pidx: initiated.body.pidx, transaction_id: transactionId });
    }

    // While the server holds the embedded store, the CLI refuses to open it.
    const busy = await bhuktani(dir, ['payment', 'resolve', held[0].pidx, '--status', 'Completed']);
    expect(busy.code).toBe(1);
    expect(busy.stderr).toMatch(/^bhuktani: the data directory .* is in use by a server \(pid \d+\)/);
    expect(await server.stop()).toBe(0);

    const completed = await bhuktani(dir, ['payment', 'resolve', held[0].pidx, '--status', 'Completed']);
    expect(completed.code, completed.stderr).toBe(0);
    expect(completed.stdout.trim()).toBe(`Payment ${held[0].pidx} is now Completed.`);
    const canceled = await bhuktani(dir, ['payment', 'resolve', held[1].pidx, '--status', 'User canceled', '--json']);
    expect(canceled.code, canceled.stderr).toBe(0);
    expect(JSON.parse(canceled.stdout)).toEqual({ pidx: held[1].pidx, status: 'User canceled', transaction_id: held[1].transaction_id });

    const twice = await bhuktani(dir, ['payment', 'resolve', held[0].pidx, '--status', 'Completed']);
    expect(twice.code).toBe(1);
    expect(twice.stderr.trim()).toBe('bhuktani: Only a Pending payment can be resolved; this one is Completed.');

    const verify = await bhuktani(dir, ['ledger', 'verify', '--json']);
    expect(verify.code, verify.stdout).toBe(0);
    expect(JSON.parse(verify.stdout).ok).toBe(true);

    server = await startServer(dir);
    try {
      const paid = await api(server.url, key, '/api/v2/epayment/lookup/', { pidx: held[0].pidx });
      expect(paid).toMatchObject({ status: 200, body: { status: 'Completed', transaction_id: held[0].transaction_id, total_amount: 5000, fee: 150 } });
      const released = await api(server.url, key, '/api/v2/epayment/lookup/', { pidx: held[1].pidx });
      expect(released).toMatchObject({ status: 400, body: { status: 'User canceled', transaction_id: null } });
      const list = await fetch(`${server.url}/api/v2/merchant-transaction/`, { headers: { authorization: `Key ${key}` } });
      const records = (await list.json()).records as { idx: string; state: { name: string } }[];
      expect(records.find((r) => r.idx === held[0].transaction_id)?.state.name).toBe('Completed');
    } finally {
      expect(await server.stop()).toBe(0);
    }
  }, SCENARIO_TIMEOUT);
});
