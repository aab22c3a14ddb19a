// `bhuktani merchant create`, run as a real process.
import { afterAll, describe, expect, it } from 'vitest';
import { merchantBrowser, pageText } from '../../test/dashboard-client.js';
import { esewaForm, ESEWA_FORM, postForm } from '../../test/esewa-client.js';
import { runCli, startServer, tempDir, type ServerProcess } from '../../test/processes.js';
import { startTestApp } from '../../test/test-app.js';
import { loadConfig } from '../config.js';
import { openDb } from '../db/open.js';
import { NO_BANK_ACCOUNT } from '../settlements/request-payout.js';

// Generous: each process starts tsx and a PGlite, seconds each on a busy machine.
const PROCESS_TIMEOUT = 300_000;

const dirs: ReturnType<typeof tempDir>[] = [];
const servers: ServerProcess[] = [];
afterAll(() => {
  for (const server of servers) server.kill();
  for (const dir of dirs) dir.remove();
});

function dataDir() {
  const dir = tempDir('bhuktani-cli-');
  dirs.push(dir);
  return dir.path;
}

const create = (args: Record<string, string>, env: Record<string, string>) =>
  runCli(['merchant', 'create', ...Object.entries(args).flatMap(([name, value]) => [`--${name}`, value]), '--json'], env);

const inMemory = { DATABASE_URL: 'memory:' };

describe('bhuktani merchant create', () => {
  it(
    '--json prints one JSON object with idx, name, email and both secret keys',
    async () => {
      const result = await create({ name: 'Himalayan Tea House', email: 'tea@example.com', password: 'correct horse battery' }, inMemory);
      expect(result.code).toBe(0);
      const lines = result.stdout.trim().split('\n');
      expect(lines).toHaveLength(1);
      const merchant = JSON.parse(lines[0]);
      expect(merchant).toMatchObject({ name: 'Himalayan Tea House', email: 'tea@example.com', fee_bps: 300 });
      expect(merchant.idx).toMatch(/^[A-Za-z0-9_-]{22}$/);
      expect(merchant.test_secret_key).toMatch(/^test_secret_key_[0-9a-f]{32}$/);
      expect(merchant.live_secret_key).toMatch(/^live_secret_key_[0-9a-f]{32}$/);
      expect(merchant).not.toHaveProperty('password');
    },
    PROCESS_TIMEOUT,
  );

  it(
    'a duplicate email, in any letter case, exits 1 with a clear message',
    async () => {
      const env = { DATA_DIR: dataDir() };
      const first = await create({ name: 'First', email: 'owner@example.com', password: 'correct horse battery' }, env);
      expect(first.code).toBe(0);
      for (const email of ['owner@example.com', 'Owner@Example.COM']) {
        const again = await create({ name: 'Second', email, password: 'correct horse battery' }, env);
        expect(again.code).toBe(1);
        expect(again.stdout).toBe('');
        expect(again.stderr).toContain('bhuktani: --email: A merchant with this email already exists.');
      }
    },
    PROCESS_TIMEOUT,
  );

  it(
    'makes an approved merchant whose owner counts as confirmed: no notice to confirm, live payouts asked from the dashboard',
    async () => {
      const env = { DATA_DIR: dataDir() };
      const result = await create({ name: 'Operator Made', email: 'made@example.com', password: 'correct horse battery' }, env);
      expect(result.code, result.stderr).toBe(0);
      const db = await openDb(loadConfig(env), 'command');
      const t = await startTestApp({ db });
      try {
        const [owner] = await db.query<{ email_verified_at: Date | null }>("SELECT email_verified_at FROM merchant_people WHERE email = 'made@example.com'");
        expect(owner.email_verified_at).toBeInstanceOf(Date);
        const browser = merchantBrowser(t.app);
        await browser.logIn('made@example.com', 'correct horse battery');
        await browser.useEnvironment('live');
        expect((await browser.get('/dashboard/settlements')).body).not.toContain('data-testid="verify-email"');
        // Refused for the missing bank account (the form is on the Business page), not for an unconfirmed e-mail.
        const asked = await browser.post('/dashboard/settlements/payouts', { payout: 'all' });
        expect(pageText(asked.body)).not.toContain('Confirm your e-mail address first');
        expect(pageText(asked.body)).toContain(NO_BANK_ACCOUNT);
      } finally {
        await t.close();
        await db.close();
      }
    },
    PROCESS_TIMEOUT,
  );

  it(
    '--json adds each environment’s eSewa product code and secret key, which a server on the store accepts',
    async () => {
      const env = { DATA_DIR: dataDir() };
      const result = await create({ name: 'eSewa Shop', email: 'esewa@example.com', password: 'correct horse battery' }, env);
      expect(result.code, result.stderr).toBe(0);
      const { esewa } = JSON.parse(result.stdout);
      expect(esewa).toEqual({
        test: { product_code: expect.stringMatching(/^BK-TEST-[0-9A-Z]{8}$/), secret_key: expect.stringMatching(/^[\w-]{32}$/) },
        live: { product_code: expect.stringMatching(/^BK-LIVE-[0-9A-Z]{8}$/), secret_key: expect.stringMatching(/^[\w-]{32}$/) },
      });
      const db = await openDb(loadConfig(env), 'command');
      const t = await startTestApp({ db });
      try {
        for (const environment of ['test', 'live'] as const) {
          const answer = await postForm(t.app, ESEWA_FORM, esewaForm(esewa[environment]));
          expect(answer.status, answer.body).toBe(302);
        }
        const [row] = await db.query<{ sealed: string }>('SELECT secret_key_sealed AS sealed FROM esewa_credentials WHERE product_code = $1', [esewa.test.product_code]);
        expect(row.sealed).not.toContain(esewa.test.secret_key);
      } finally {
        await t.close();
        await db.close();
      }
    },
    PROCESS_TIMEOUT,
  );

  it(
    'a bad email exits 1 with a clear message',
    async () => {
      const result = await create({ name: 'Shop', email: 'not-an-email', password: 'correct horse battery' }, inMemory);
      expect(result.code).toBe(1);
      expect(result.stdout).toBe('');
      expect(result.stderr).toContain('bhuktani: --email: Enter a valid email address.');
    },
    PROCESS_TIMEOUT,
  );

  it(
    'missing options are all named at once',
    async () => {
      const result = await runCli(['merchant', 'create', '--json'], inMemory);
      expect(result.code).toBe(1);
      expect(result.stderr).toContain('--name: This field is required.');
      expect(result.stderr).toContain('--email: This field is required.');
      expect(result.stderr).toContain('--password: This field is required.');
    },
    PROCESS_TIMEOUT,
  );

  it(
    'refuses a data directory held by a running server, and says so',
    async () => {
      const dir = dataDir();
      const server = await startServer({ DATA_DIR: dir, PORT: '0' });
      servers.push(server);
      try {
        const result = await create({ name: 'Shop', email: 'locked@example.com', password: 'correct horse battery' }, { DATA_DIR: dir });
        expect(result.code).toBe(1);
        expect(result.stdout).toBe('');
        expect(result.stderr).toMatch(/^bhuktani: .*data directory/m);
        expect(result.stderr).toContain(dir);
      } finally {
        expect(await server.stop()).toBe(0);
      }
      // Once the server has stopped, the directory is free again.
      const after = await create({ name: 'Shop', email: 'locked@example.com', password: 'correct horse battery' }, { DATA_DIR: dir });
      expect(after.code).toBe(0);
    },
    PROCESS_TIMEOUT * 2,
  );
});
