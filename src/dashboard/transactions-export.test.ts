// The CSV export streams: pages of 7 records here, so a few hundred span dozens of pages. The store is
// watched (each page read counted, and one of them held back on demand) to show that rows go out
// while later pages are still unread, that a client that leaves stops the reading, and that records
// written during an export are neither repeated nor out of order.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { merchantApi } from '../../test/api-client.js';
import { merchantBrowser, paidPayment, type MerchantBrowser } from '../../test/dashboard-client.js';
import { openTestDb, startTestApp, type TestApp } from '../../test/test-app.js';
import type { Db } from '../db/db.js';
import { csvLine } from '../http/csv.js';
import type { TransactionRecord } from '../transactions/transaction-record.js';
import { CSV_HEADER, transactionCsvRow } from './transactions-csv.js';

const PAGE_ROWS = 7;

let t: TestApp;
let store: Db;
let port: number;

/** Page reads of an export so far; `hold` keeps one of them waiting until released. */
let pageReads = 0;
let held: { read: number; reached(): void; release: Promise<void> } | undefined;
const isPageRead = (sql: string) => /ORDER BY t\.created_at DESC, t\.id DESC\s+LIMIT 7\b/.test(sql);

function holdRead(read: number): { reached: Promise<void>; release(): void } {
  let reached!: () => void;
  let release!: () => void;
  const reachedP = new Promise<void>((resolve) => (reached = resolve));
  held = { read, reached, release: new Promise<void>((resolve) => (release = resolve)) };
  return { reached: reachedP, release };
}

beforeAll(async () => {
  store = await openTestDb();
  const watched: Db = {
    ...store,
    async query<T>(sql: string, params?: unknown[]): Promise<T[]> {
      if (isPageRead(sql)) {
        pageReads += 1;
        if (held && held.read === pageReads) {
          held.reached();
          await held.release;
        }
      }
      return store.query<T>(sql, params);
    },
  };
  t = await startTestApp({ db: watched, config: { exportPageRows: PAGE_ROWS } });
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  port = (t.app.server.address() as AddressInfo).port;
});
afterAll(async () => {
  await t.close();
  await store.close();
});

let seedRun = 0;

/** A merchant with one paid payment and `count` more records of it written straight to the store, in
 * threes sharing a time (to the microsecond), from `newest` back, a minute and a bit apart. */
async function merchantWithHistory(count: number, options: { spacing?: string } = {}) {
  const browser = merchantBrowser(t.app);
  const { keys } = await browser.signUp();
  const paid = await paidPayment(t.app, keys.test);
  seedRun += 1;
  await store.query(
    `INSERT INTO transactions (idx, merchant_id, environment, type, state, pidx, purchase_order_id, amount, fee_amount,
       refunded, payer_idx, payer_mobile, payer_name, created_at)
     SELECT 'seed-${process.pid}-${seedRun}-' || g, merchant_id, environment, 'Refund',
            (ARRAY['Completed', 'Confirmed', 'Canceled'])[1 + g % 3], pidx, purchase_order_id, g, 0, false,
            payer_idx, payer_mobile, payer_name, created_at - interval '1 second' - (g / 3) * $2::interval
       FROM transactions, generate_series(1, $3::int) g
      WHERE idx = $1`,
    [paid.transactionId, options.spacing ?? '61.000123 seconds', count],
  );
  return { browser, key: keys.test, api: merchantApi(t.app, keys.test), paid };
}

/** Every record the API lists, all pages of 100. */
async function apiRecords(api: ReturnType<typeof merchantApi>, query: Record<string, string> = {}): Promise<TransactionRecord[]> {
  const records: TransactionRecord[] = [];
  for (let page = 1; ; page++) {
    const { status, body } = await api.transactions({ ...query, page_size: 100, page });
    expect(status).toBe(200);
    records.push(...body.records);
    if (page >= body.total_pages) return records;
  }
}

/** What the export held all in memory wrote: the header, then each record the list gives, in its order. */
const csvOf = (records: TransactionRecord[]) => csvLine(CSV_HEADER) + records.map((r) => csvLine(transactionCsvRow(r))).join('');
const idxsOf = (csv: string) => csv.trimEnd().split('\r\n').slice(1).map((line) => line.split(',')[1]);

/** GET over a real socket, with the browser's session, answered as it arrives. */
function openExport(browser: MerchantBrowser, path: string): Promise<http.IncomingMessage> {
  const cookie = [...browser.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  return new Promise((resolve, reject) => {
    http.get({ host: '127.0.0.1', port, path, headers: { cookie }, agent: false }, resolve).on('error', reject);
  });
}

const firstChunk = (response: http.IncomingMessage) => new Promise<string>((resolve) => response.once('data', (chunk: Buffer) => resolve(chunk.toString())));
const openConnections = () => new Promise<number>((resolve, reject) => t.app.server.getConnections((error, n) => (error ? reject(error) : resolve(n))));

async function until(condition: () => Promise<boolean>, what: string) {
  for (let i = 0; i < 200; i++) {
    if (await condition()) return;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error(`timed out waiting: ${what}`);
}

describe('the streamed CSV export', () => {
  it('has every record once, in the list’s order, as the whole-list export wrote it, over dozens of pages', async () => {
    const { browser, api, paid } = await merchantWithHistory(300);
    const queries: Record<string, string>[] = [{}, { status: 'Canceled' }, { q: paid.pidx }];
    for (const query of queries) {
      const expected = csvOf(await apiRecords(api, 'q' in query ? {} : query));
      pageReads = 0;
      const response = await browser.get(`/dashboard/transactions.csv?${new URLSearchParams(query)}`);
      expect(response.status).toBe(200);
      expect(response.headers['content-type']).toBe('text/csv; charset=utf-8');
      expect(response.headers['content-disposition']).toMatch(/^attachment; filename="bhuktani-test-transactions-\d{4}-\d{2}-\d{2}\.csv"$/);
      expect(response.body).toBe(expected);
      const rows = idxsOf(expected).length;
      expect(new Set(idxsOf(response.body)).size).toBe(rows);
      expect(pageReads).toBe(Math.floor(rows / PAGE_ROWS) + 1);
    }
    expect(idxsOf((await browser.get('/dashboard/transactions.csv')).body)).toHaveLength(301);
  });

  it('sends the first rows before the later pages are read', async () => {
    const { browser, api } = await merchantWithHistory(60);
    const expected = csvOf(await apiRecords(api));
    pageReads = 0;
    const third = holdRead(3);
    const response = await openExport(browser, '/dashboard/transactions.csv');
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('text/csv; charset=utf-8');
    const received: Buffer[] = [];
    response.on('data', (chunk: Buffer) => received.push(chunk));
    const ended = new Promise((resolve) => response.on('end', resolve));
    await third.reached;
    await until(async () => received.length > 0, 'the first rows');
    // Page 3 of 9 is still being read, and the header and page 1 (perhaps page 2) are here.
    const early = Buffer.concat(received).toString();
    expect(early.startsWith(expected.split('\r\n').slice(0, 1 + PAGE_ROWS).join('\r\n') + '\r\n')).toBe(true);
    expect(expected.startsWith(early)).toBe(true);
    expect(early.length).toBeLessThan(expected.length / 2);
    third.release();
    await ended;
    expect(Buffer.concat(received).toString()).toBe(expected);
    held = undefined;
  });

  it('stops reading pages when the client goes away', async () => {
    const { browser } = await merchantWithHistory(60);
    pageReads = 0;
    const third = holdRead(3);
    const response = await openExport(browser, '/dashboard/transactions.csv');
    await firstChunk(response);
    await third.reached;
    response.destroy();
    await until(async () => (await openConnections()) === 0, 'the server to see the client leave');
    third.release();
    held = undefined;
    // Other requests are served; the export reads nothing after the page it was reading.
    for (let i = 0; i < 5; i++) expect((await browser.get('/dashboard/transactions')).status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(pageReads).toBe(3);
  });

  it('neither repeats nor misorders a record written during the export, and serves other requests meanwhile', async () => {
    // Records seconds apart, all in the hour still open, so the list counts them live.
    const { browser, key, api, paid } = await merchantWithHistory(40, { spacing: '1 second' });
    const before = await apiRecords(api);
    pageReads = 0;
    const third = holdRead(3);
    const exported = browser.get('/dashboard/transactions.csv');
    await third.reached;
    // While page 3 waits: a new payment (newer than the export's first page) and a write that
    // commits late with an older time (another instance's clock), below where the export has reached.
    t.clock.advance(1);
    const newer = await paidPayment(t.app, key);
    const [{ created_at: middle }] = await store.query<{ created_at: Date }>(
      `SELECT created_at FROM transactions WHERE idx LIKE 'seed-${process.pid}-${seedRun}-%' ORDER BY created_at LIMIT 1 OFFSET 10`,
    );
    await store.query(
      `INSERT INTO transactions (idx, merchant_id, environment, type, state, pidx, purchase_order_id, amount, fee_amount,
         refunded, payer_idx, payer_mobile, payer_name, created_at)
       SELECT $2, merchant_id, environment, 'Refund', 'Completed', pidx, purchase_order_id, 5, 0, false, payer_idx, payer_mobile, payer_name, $3
         FROM transactions WHERE idx = $1`,
      [paid.transactionId, `late-${process.pid}-${seedRun}`, middle],
    );
    third.release();
    held = undefined;
    const csv = (await exported).body;

    const after = await apiRecords(api);
    const exportedIdxs = idxsOf(csv);
    expect(new Set(exportedIdxs).size).toBe(exportedIdxs.length);
    // In the list's order, every record there at the start, the late one in its place, not the new one.
    expect(exportedIdxs).toEqual(after.map((r) => r.idx).filter((idx) => exportedIdxs.includes(idx)));
    for (const record of before) expect(exportedIdxs).toContain(record.idx);
    expect(exportedIdxs).toContain(`late-${process.pid}-${seedRun}`);
    expect(exportedIdxs).not.toContain(newer.transactionId);
    expect(exportedIdxs).toHaveLength(before.length + 1);
  });
});
