// The demo shop: made once on an empty store, never on a store that has merchants, and a whole
// purchase over real HTTP — the shop's server calls this server through the typed client.
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { BhuktaniClient } from '../client/index.js';
import type { Db } from '../db/db.js';
import { migrate } from '../db/migrate.js';
import { openPglite } from '../db/pglite.js';
import { readServerValue } from '../http/server-secret.js';
import { payerBrowser } from '../../test/portal-client.js';
import { freePort } from '../../test/processes.js';
import { newMerchant, startTestApp, type TestApp } from '../../test/test-app.js';
import { logIn } from '../merchants/log-in.js';
import { NO_PASSWORD } from '../people/password.js';
import { DEMO_KEY_NAME, DEMO_MERCHANT, ensureDemoMerchant } from './ensure-demo-merchant.js';

/** A migrated store with nothing in it (the run's database is shared by every file on PostgreSQL). */
async function emptyStore(): Promise<Db> {
  const dump = inject('pgliteDump');
  if (dump) return openPglite({ loadDataDir: new Blob([readFileSync(dump)]) });
  const db = await openPglite();
  await migrate(db);
  return db;
}

const demoMerchants = async (db: Db) =>
  (await db.query<{ n: number }>('SELECT count(*)::int AS n FROM merchants WHERE email = $1', [DEMO_MERCHANT.email]))[0].n;

let t: TestApp;
let origin: string;

beforeAll(async () => {
  // The shop calls the API at PUBLIC_URL, so the server listens where its public URL says.
  const port = await freePort();
  origin = `http://127.0.0.1:${port}`;
  t = await startTestApp({ config: { publicUrl: origin } });
  await t.app.listen({ port, host: '127.0.0.1' });
});

afterAll(async () => {
  await t?.close();
});

describe('the demo merchant', () => {
  it('is made once on an empty store, and /demo says so politely until then', async () => {
    const store = await emptyStore();
    const fresh = await startTestApp({ db: store });
    try {
      const before = await fresh.app.inject({ url: '/demo' });
      expect(before.statusCode).toBe(404);
      expect(before.body).toContain('The demo shop is not set up on this server');

      const first = await ensureDemoMerchant(fresh.ctx);
      expect(first).toMatchObject({ created: true, merchant: { name: 'Demo Shop', email: 'demo@bhuktani.local' } });
      expect(first!.testSecretKey).toMatch(/^test_secret_key_[0-9a-f]{32}$/);
      expect(await readServerValue(store, DEMO_KEY_NAME)).toBe(first!.testSecretKey);

      const second = await ensureDemoMerchant(fresh.ctx);
      expect(second).toEqual({ ...first, created: false });
      expect(await demoMerchants(store)).toBe(1);

      const after = await fresh.app.inject({ url: '/demo' });
      expect(after.statusCode).toBe(200);
      expect(after.body).toContain('Ilam First Flush');

      // Nobody can log in as the demo shop: it has no password at all (and a first start no scrypt).
      const [owner] = await store.query<{ password_hash: string }>('SELECT p.password_hash FROM merchant_users u JOIN merchant_people p ON p.id = u.person_id WHERE u.merchant_id = $1', [first!.merchant.id]);
      expect(owner.password_hash).toBe(NO_PASSWORD);
      await expect(logIn(fresh.ctx, { email: DEMO_MERCHANT.email, password: NO_PASSWORD, ip: '10.8.0.1' })).rejects.toThrow('Wrong email or password.');
    } finally {
      await fresh.close();
      await store.close();
    }
  }, 90_000);

  it('is not made on a store that already has merchants', async () => {
    await newMerchant(t.ctx);
    expect(await ensureDemoMerchant(t.ctx)).toBeUndefined();
    expect(await demoMerchants(t.db)).toBe(0);
    expect(await readServerValue(t.db, DEMO_KEY_NAME)).toBeUndefined();
  });

  it('is made once when several instances start on one empty store at the same time', async () => {
    const storeIsEmpty = async () => true;
    const made = await Promise.all([1, 2, 3].map(() => ensureDemoMerchant(t.ctx, { storeIsEmpty })));
    expect(made.filter((m) => m?.created)).toHaveLength(1);
    expect(new Set(made.map((m) => m?.testSecretKey)).size).toBe(1);
    expect(await demoMerchants(t.db)).toBe(1);
  });
});

/** A browser without JavaScript over real HTTP: keeps cookies, reads the form's CSRF token. */
function shopper() {
  const cookies = new Map<string, string>();
  let csrf = '';
  const request = async (url: string, init: RequestInit = {}) => {
    const response = await fetch(new URL(url, origin), {
      ...init,
      redirect: 'manual',
      headers: { ...(init.headers as Record<string, string>), cookie: [...cookies].map(([k, v]) => `${k}=${v}`).join('; ') },
    });
    for (const line of response.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const at = pair.indexOf('=');
      cookies.set(pair.slice(0, at), pair.slice(at + 1));
    }
    const body = await response.text();
    csrf = /name="csrf_token" value="([^"]+)"/.exec(body)?.[1] ?? csrf;
    return { status: response.status, body, location: response.headers.get('location'), headers: response.headers };
  };
  return {
    get: (url: string) => request(url),
    buy: (product: string, token = csrf) =>
      request('/demo/buy', {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ csrf_token: token, product }).toString(),
      }),
  };
}

describe('buying in the demo shop', () => {
  beforeAll(async () => {
    await ensureDemoMerchant(t.ctx, { storeIsEmpty: async () => true });
  });

  it('goes from Buy to the hosted page and back to "Order paid", confirmed by lookup', async () => {
    const browser = shopper();
    const shop = await browser.get('/demo');
    expect(shop.status).toBe(200);
    expect(shop.body).toContain('Kathmandu Masala Chai');
    expect(shop.headers.get('content-security-policy')).toContain(`form-action 'self' ${origin}`);

    const bought = await browser.buy('masala-chai');
    expect(bought.status).toBe(303);
    const paymentUrl = new URL(bought.location!);
    expect(paymentUrl.origin).toBe(origin);
    expect(paymentUrl.pathname).toBe('/pay/');
    const pidx = paymentUrl.searchParams.get('pidx')!;

    const page = await browser.get(`${paymentUrl.pathname}${paymentUrl.search}`);
    expect(page.body).toContain('Demo Shop');
    expect(page.body).toContain('Rs. 520.00');

    const paid = await payerBrowser(t.app).pay(pidx);
    expect(paid.status).toBe(303);
    const returned = new URL(paid.location!);
    expect(`${returned.origin}${returned.pathname}`).toBe(`${origin}/demo/return`);

    const result = await browser.get(`${returned.pathname}${returned.search}`);
    expect(result.status).toBe(200);
    expect(result.body).toContain('<h1>Order paid</h1>');
    expect(result.body).toContain(returned.searchParams.get('transaction_id')!);
    expect(result.body).toContain('Kathmandu Masala Chai');

    const demo = (await ensureDemoMerchant(t.ctx))!;
    const lookup = await new BhuktaniClient({ baseUrl: origin, secretKey: demo.testSecretKey }).lookup(pidx);
    expect(lookup).toMatchObject({ status: 'Completed', total_amount: 52000, transaction_id: returned.searchParams.get('transaction_id') });
  });

  it('shows a canceled payment as canceled', async () => {
    const browser = shopper();
    await browser.get('/demo');
    const bought = await browser.buy('golden-tips');
    const pidx = new URL(bought.location!).searchParams.get('pidx')!;
    const payer = payerBrowser(t.app);
    await payer.open(pidx);
    const canceled = await payer.cancel(pidx);
    const returned = new URL(canceled.location!);
    const result = await browser.get(`${returned.pathname}${returned.search}`);
    expect(result.status).toBe(200);
    expect(result.body).toContain('<h1>Payment canceled</h1>');
    expect(result.body).toContain('User canceled');
  });

  it('refuses a return link that Bhuktani did not sign', async () => {
    const browser = shopper();
    await browser.get('/demo');
    const bought = await browser.buy('ilam-first-flush');
    const pidx = new URL(bought.location!).searchParams.get('pidx')!;
    const paid = await payerBrowser(t.app).pay(pidx);
    const forged = new URL(paid.location!);
    forged.searchParams.set('purchase_order_name', '<script>alert(1)</script>');
    const result = await browser.get(`${forged.pathname}${forged.search}`);
    expect(result.status).toBe(400);
    expect(result.body).toContain('Payment not verified');
    expect(result.body).not.toContain('<script>');

    expect((await browser.get('/demo/return')).status).toBe(400);
  });

  it('refuses a buy without the form token, and an unknown product', async () => {
    const browser = shopper();
    await browser.get('/demo');
    expect((await browser.buy('masala-chai', 'forged.token')).status).toBe(403);
    const unknown = await browser.buy('coffee');
    expect(unknown.status).toBe(400);
    expect(unknown.body).toContain('Pick one of the teas below.');
    const stranger = shopper();
    expect((await stranger.buy('masala-chai', '')).status).toBe(403);
  });
});
