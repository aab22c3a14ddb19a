// Payments outlive the process that took them: a restart on the same data directory, and two
// instances on one PostgreSQL.
import { afterAll, describe, expect, it } from 'vitest';
import { merchantApi, validInitiate } from './api-client.js';
import { freePort, runCli, startServer, tempDir, type ServerProcess } from './processes.js';
import { newMerchant, openTestDb, startTestApp } from './test-app.js';

const dir = tempDir('bhuktani-restart-');
const servers: ServerProcess[] = [];
afterAll(() => {
  for (const server of servers) server.kill();
  dir.remove();
});

async function post(base: string, path: string, key: string, body: unknown) {
  const response = await fetch(`${base}${path}`, {
    method: 'POST',
    headers: { authorization: `Key ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: response.status, body: await response.json() };
}

describe('a start with a setting that fails', () => {
  it('ends at once with the reason in one line, though the store had begun to open', async () => {
    // A start that hung instead would fail as not ready (startServer's timeout), not as exited.
    const failed = await startServer({ DATA_DIR: `${dir.path}/refused`, LOG_LEVEL: 'loud', PORT: String(await freePort()) }).then(
      () => undefined,
      (error: Error) => error.message,
    );
    expect(failed).toMatch(/exited with code 1 before it was ready/);
    expect(failed).toContain('bhuktani: LOG_LEVEL must be one of');
  }, 60_000);
});

describe('a restart', () => {
  it(
    'keeps the payments: initiate, SIGTERM, start again, look the payment up',
    async () => {
      const env = { DATA_DIR: dir.path };
      const created = await runCli(['merchant', 'create', '--name', 'Restart Shop', '--email', 'restart@example.com', '--password', 'correct horse battery', '--json'], env);
      expect(created.code).toBe(0);
      const { test_secret_key: key } = JSON.parse(created.stdout);

      const port = await freePort();
      const base = `http://127.0.0.1:${port}`;
      const serverEnv = { ...env, PORT: String(port), HOST: '127.0.0.1' };

      const first = await startServer(serverEnv);
      servers.push(first);
      const order = validInitiate({ amount: 2500, merchant_extra: 'kept' });
      const initiated = await post(base, '/api/v2/epayment/initiate/', key, order);
      expect(initiated.status, first.output()).toBe(200);
      expect(initiated.body.payment_url).toBe(`http://localhost:${port}/pay/?pidx=${initiated.body.pidx}`);
      expect(await first.stop(), first.output()).toBe(0);

      const second = await startServer(serverEnv);
      servers.push(second);
      try {
        const lookup = await post(base, '/api/v2/epayment/lookup/', key, { pidx: initiated.body.pidx });
        expect(lookup, second.output()).toStrictEqual({
          status: 200,
          body: {
            pidx: initiated.body.pidx,
            total_amount: 2500,
            status: 'Initiated',
            transaction_id: null,
            fee: 75,
            refunded: false,
            purchase_order_id: order.purchase_order_id,
            expires_at: initiated.body.expires_at,
            refunded_amount: 0,
          },
        });
        // The hosted page from the bundle (written in ASCII, src/build/bundle.ts) keeps its text's characters.
        const page = await fetch(`${base}/pay/?pidx=${initiated.body.pidx}`);
        expect(page.status).toBe(200);
        const text = await page.text();
        expect(text).toContain('नेपाली');
        expect(text).toContain('Bhuktani · Never share your MPIN or OTP');
      } finally {
        expect(await second.stop(), second.output()).toBe(0);
      }
    },
    300_000,
  );
});

const onPostgres = process.env.DATABASE_URL?.startsWith('postgres') ?? false;

describe('two instances on one PostgreSQL', () => {
  it.skipIf(!onPostgres)('see the same payments and keys', async () => {
    const a = await startTestApp({ db: await openTestDb() });
    const b = await startTestApp({ db: await openTestDb() });
    try {
      expect(a.db).not.toBe(b.db);
      const { test_secret_key } = await newMerchant(a.ctx);
      const viaA = merchantApi(a.app, test_secret_key);
      const viaB = merchantApi(b.app, test_secret_key);

      const fromA = await viaA.initiate();
      expect(fromA.status).toBe(200);
      const seenByB = await viaB.lookup(fromA.body.pidx);
      expect(seenByB.status).toBe(200);
      expect(seenByB.body).toStrictEqual((await viaA.lookup(fromA.body.pidx)).body);

      const fromB = await viaB.initiate();
      expect((await viaA.lookup(fromB.body.pidx)).body).toMatchObject({ pidx: fromB.body.pidx, status: 'Initiated' });
    } finally {
      await a.close();
      await b.close();
      await a.db.close();
      await b.db.close();
    }
  });
});
