// Pages while the database cannot be reached, fast: a store whose every statement fails as a refused
// connection does (test/reliability/outage-pages.test.ts does it with a real database taken away).
import type { InjectOptions } from 'fastify';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Db, Queryable } from '../db/db.js';
import { merchantApi } from '../../test/api-client.js';
import { merchantBrowser } from '../../test/dashboard-client.js';
import { expectApiUnavailable, expectOutagePage } from '../../test/outage-pages.js';
import { payerBrowser } from '../../test/portal-client.js';
import { openTestDb, startTestApp, type TestApp } from '../../test/test-app.js';

let down = false;
const refused = () => Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });
const gate = <T>(work: () => Promise<T>): Promise<T> => (down ? Promise.reject(refused()) : work());
const gated = (q: Queryable): Queryable => ({ query: (sql, params) => gate(() => q.query(sql, params)), exec: (sql) => gate(() => q.exec(sql)) });

function switchable(db: Db): Db {
  return {
    kind: db.kind,
    ...gated(db),
    batches: db.batches && gated(db.batches),
    transaction: (work) => gate(() => db.transaction((tx) => work(gated(tx)))),
    close: () => db.close(),
  };
}

let store: Db;
let t: TestApp;
let key: string;
let dashboard: ReturnType<typeof merchantBrowser>;

beforeAll(async () => {
  store = await openTestDb();
  t = await startTestApp({ db: switchable(store) });
  dashboard = merchantBrowser(t.app);
  key = (await dashboard.signUp()).keys.test;
});
afterAll(async () => {
  await t.close();
  await store.close();
});
afterEach(() => {
  down = false;
});

const inject = async (options: InjectOptions) => {
  const response = await t.app.inject(options);
  return { status: response.statusCode, headers: response.headers, body: response.body };
};

describe('while the database cannot be reached', () => {
  it("the hosted page's GET and POST answer the portal's 'briefly unavailable' page", async () => {
    const { pidx } = (await merchantApi(t.app, key).initiate()).body;
    const payer = payerBrowser(t.app);
    expect((await payer.open(pidx)).status).toBe(200);
    down = true;
    // At the page's address (the payment in the query) and at the one given out before.
    for (const url of [`/pay/?pidx=${pidx}`, `/pay/${pidx}`]) {
      const page = await inject({ method: 'GET', url });
      expectOutagePage(page, 'portal');
      expect(page.body).toContain(`href="/pay/?pidx=${pidx}"`);
    }
    for (const url of [`/pay/wallet?pidx=${pidx}`, `/pay/${pidx}/wallet`]) {
      const posted = await payer.post(url, { mobile: '9800000001', mpin: '1111' });
      expect(posted.status).toBe(503);
      expect(posted.body).toContain('This service is briefly unavailable.');
      expect(posted.body).toContain(`href="/pay/?pidx=${pidx}"`);
    }
    down = false;
    expect((await payer.open(pidx)).status).toBe(200);
  });

  it("the dashboard answers its own page, the session lookup's failure included", async () => {
    expect((await dashboard.get('/dashboard')).status).toBe(200);
    down = true;
    const cookie = String((await dashboard.get('/dashboard')).headers['set-cookie'] ?? '');
    expect(cookie, 'the session cookie is kept').not.toMatch(/bhuktani_session=;/);
    for (const url of ['/dashboard', '/dashboard/transactions?status=Completed']) {
      const page = await dashboard.get(url);
      expectOutagePage(page, 'dashboard');
      expect(page.body).toContain(`href="${url.replace('&', '&amp;')}"`);
    }
    expectOutagePage(await dashboard.get('/dashboard/login'), 'dashboard');
    down = false;
    expect((await dashboard.get('/dashboard')).status).toBe(200);
  });

  it('the API keeps its JSON 503', async () => {
    down = true;
    const headers = { authorization: `Key ${key}` };
    expectApiUnavailable(await inject({ method: 'POST', url: '/api/v2/epayment/lookup/', headers, payload: { pidx: 'x' } }));
    expectApiUnavailable(await inject({ method: 'GET', url: '/api/v2/epayment/lookup/?pidx=x', headers }));
    expectApiUnavailable(await inject({ method: 'GET', url: '/api/v2/merchant-transaction/', headers }));
  });
});
