// Pages during an outage (issue 15), against a real database taken away: while PostgreSQL is down the
// hosted page and the dashboard answer their own "briefly unavailable" page (503, Retry-After), the
// API its JSON 503; a statement that waits longer than DB_STATEMENT_TIMEOUT_MS is given up and
// answered 503 too. The database is a private cluster or a proxy (private-postgres.ts), never the
// shared test server itself.
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import type { Db } from '../../src/db/db.js';
import { openDb } from '../../src/db/open.js';
import { merchantApi } from '../api-client.js';
import { merchantBrowser } from '../dashboard-client.js';
import { expectApiUnavailable, expectOutagePage } from '../outage-pages.js';
import { startTestApp, type TestApp } from '../test-app.js';
import { openOutageDatabase, outageDatabaseKind, type OutageDatabase } from './private-postgres.js';

const STATEMENT_TIMEOUT_MS = 600;
const outageKind = outageDatabaseKind();

describe.skipIf(!outageKind)(`pages during an outage (${outageKind ?? 'no PostgreSQL to take down'})`, () => {
  let database: OutageDatabase;
  let db: Db;
  let t: TestApp;
  let key: string;
  let pidx: string;
  let dashboard: ReturnType<typeof merchantBrowser>;

  beforeAll(async () => {
    database = await openOutageDatabase('pages');
    const config = { databaseUrl: database.url, dbStatementTimeoutMs: loadConfig({ DB_STATEMENT_TIMEOUT_MS: String(STATEMENT_TIMEOUT_MS) }).dbStatementTimeoutMs };
    db = await openDb({ ...loadConfig({}), ...config }, 'server');
    t = await startTestApp({ db, config });
    dashboard = merchantBrowser(t.app);
    key = (await dashboard.signUp()).keys.test;
    pidx = (await merchantApi(t.app, key).initiate()).body.pidx;
  }, 180_000);
  afterAll(async () => {
    await t?.close();
    await db?.close();
    await database?.remove();
  });

  const inject = async (method: 'GET' | 'POST', url: string, payload?: object) => {
    const response = await t.app.inject({ method, url, headers: { authorization: `Key ${key}` }, ...(payload ? { payload } : {}) });
    return { status: response.statusCode, headers: response.headers, body: response.body };
  };

  it('a statement waiting longer than DB_STATEMENT_TIMEOUT_MS is given up and answered 503; a shorter wait is served', async () => {
    const holder = new pg.Client({ connectionString: database.url });
    await holder.connect();
    try {
      await holder.query('BEGIN');
      await holder.query('LOCK TABLE payments IN ACCESS EXCLUSIVE MODE');
      expectApiUnavailable(await inject('POST', '/api/v2/epayment/lookup/', { pidx }));
      // Given up by the limit itself (pg's query_timeout), not by a connection lost: its own error.
      expect(t.logs.some((line) => line.includes('request failed') && line.includes('Query read timeout'))).toBe(true);
      expectOutagePage(await inject('GET', `/pay/${pidx}`), 'portal');
      // Released before the timeout: the statement waits for it and is answered. The ROLLBACK is
      // awaited too: the lookup may be answered before the holder has read the ROLLBACK's reply, and
      // ending the holder then would fail the ROLLBACK with nobody to hear it.
      const lookup = inject('POST', '/api/v2/epayment/lookup/', { pidx });
      const rollback = new Promise((resolve) => setTimeout(resolve, STATEMENT_TIMEOUT_MS / 3)).then(() => holder.query('ROLLBACK'));
      const [answer] = await Promise.all([lookup, rollback]);
      expect(answer.status).toBe(200);
    } finally {
      await holder.end();
    }
  }, 60_000);

  it('while PostgreSQL is down: the pages in their own look with Retry-After, the API its JSON; all well again once it is back', async () => {
    expect((await dashboard.get('/dashboard')).status).toBe(200);
    await database.down();
    try {
      expectOutagePage(await inject('GET', `/pay/${pidx}`), 'portal');
      expectOutagePage(await inject('POST', `/pay/${pidx}/wallet`, { mobile: '9800000001', mpin: '1111' }), 'portal');
      expectOutagePage(await dashboard.get('/dashboard'), 'dashboard');
      expectApiUnavailable(await inject('POST', '/api/v2/epayment/lookup/', { pidx }));
      expectApiUnavailable(await inject('GET', `/api/v2/epayment/lookup/?pidx=${pidx}`));
      expectApiUnavailable(await inject('POST', '/api/v2/epayment/initiate/', { amount: 1000 }));
    } finally {
      await database.up();
    }
    expect((await inject('GET', `/pay/${pidx}`)).status).toBe(200);
    expect((await dashboard.get('/dashboard')).status).toBe(200);
    expect((await inject('POST', '/api/v2/epayment/lookup/', { pidx })).status).toBe(200);
  }, 120_000);
});
