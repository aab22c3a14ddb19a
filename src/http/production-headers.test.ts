// What a production gateway sends a browser, asked as a browser asks: HSTS under an https
// PUBLIC_URL (and none under http), pages never indexed and never compressed (BREACH), and their
// stylesheets and scripts at fingerprinted addresses, cached a year, compressed as the browser takes.
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { merchantApi, validInitiate } from '../../test/api-client.js';
import { newMerchant, startTestApp, type TestApp } from '../../test/test-app.js';
import { paymentPath } from '../payments/payment-url.js';
import { chosenEncoding } from './assets.route.js';

let t: TestApp;
let secure: TestApp;
beforeAll(async () => {
  t = await startTestApp();
  secure = await startTestApp({ config: { publicUrl: 'https://pay.example.com' } });
});
afterAll(async () => {
  await t?.close();
  await secure?.close();
});

const BROWSER = { 'accept-encoding': 'gzip, deflate, br, zstd' };

describe('headers a production gateway sends', () => {
  it('tells browsers to use https only when PUBLIC_URL is https: pages, the API and assets alike', async () => {
    for (const url of ['/health', '/api/v2/epayment/lookup/', '/console/login', '/assets/portal.css']) {
      expect((await secure.app.inject({ method: 'GET', url })).headers['strict-transport-security'], url).toBe('max-age=31536000');
      expect((await t.app.inject({ method: 'GET', url })).headers['strict-transport-security'], url).toBeUndefined();
    }
  });

  it('keeps every page out of search engines, and sends pages uncompressed even to a browser that asks', async () => {
    const merchant = await newMerchant(t.ctx);
    const { body } = await merchantApi(t.app, merchant.test_secret_key).initiate(validInitiate());
    for (const url of [paymentPath(body.pidx), '/console/login', '/dashboard/login', '/demo']) {
      const page = await t.app.inject({ method: 'GET', url, headers: BROWSER });
      expect(page.headers['content-type'], url).toMatch(/^text\/html/);
      expect(page.headers['x-robots-tag'], url).toBe('noindex, nofollow');
      expect(page.headers['content-encoding'], url).toBeUndefined();
      // Every stylesheet and script it links is fingerprinted.
      const linked = [...page.body.matchAll(/(?:href|src)="(\/assets\/[^"]+)"/g)].map((m) => m[1]);
      expect(linked.length, url).toBeGreaterThan(0);
      expect(linked.filter((asset) => !/^\/assets\/[\w-]+\.[0-9a-f]{10}\.(css|js)$/.test(asset)), url).toEqual([]);
    }
    expect((await t.app.inject({ method: 'GET', url: '/docs' })).headers['x-robots-tag']).toBeUndefined();
  });

  it('serves a fingerprinted asset for a year, compressed as the browser takes it, each the same file', async () => {
    const page = await t.app.inject({ method: 'GET', url: '/console/login' });
    const stylesheet = /href="(\/assets\/console\.[0-9a-f]{10}\.css)"/.exec(page.body)![1];
    const plain = await t.app.inject({ method: 'GET', url: stylesheet });
    expect(plain.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.headers.vary).toBe('accept-encoding');

    const br = await t.app.inject({ method: 'GET', url: stylesheet, headers: BROWSER });
    expect(br.headers['content-encoding']).toBe('br');
    expect(brotliDecompressSync(br.rawPayload).equals(plain.rawPayload)).toBe(true);
    expect(br.rawPayload.length).toBeLessThan(plain.rawPayload.length / 2);

    const gzip = await t.app.inject({ method: 'GET', url: stylesheet, headers: { 'accept-encoding': 'gzip' } });
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gzip.rawPayload).equals(plain.rawPayload)).toBe(true);

    // By its plain name, an hour; by another release's fingerprint, this release's file, never kept.
    expect((await t.app.inject({ method: 'GET', url: '/assets/console.css' })).headers['cache-control']).toBe('public, max-age=3600');
    const older = await t.app.inject({ method: 'GET', url: '/assets/console.0123456789.css' });
    expect([older.statusCode, older.headers['cache-control'], older.body]).toEqual([200, 'no-cache', plain.body]);
    expect((await t.app.inject({ method: 'GET', url: '/assets/nothing.0123456789.css' })).statusCode).toBe(404);
  });

  it('reads Accept-Encoding by its weights', () => {
    expect(chosenEncoding('gzip, deflate, br')).toBe('br');
    expect(chosenEncoding('br;q=0, gzip')).toBe('gzip');
    expect(chosenEncoding('br;q=0.1, gzip;q=0')).toBe('br');
    expect(chosenEncoding('*')).toBe('br');
    expect(chosenEncoding('identity')).toBeUndefined();
    expect(chosenEncoding(undefined)).toBeUndefined();
    expect(chosenEncoding('deflate')).toBeUndefined();
  });
});
