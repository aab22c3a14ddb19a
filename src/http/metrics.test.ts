import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { merchantApi } from '../../test/api-client.js';
import { newMerchant, startTestApp, type TestApp } from '../../test/test-app.js';
import { startMetricsListener } from './metrics-routes.js';

const TOKEN = 'metrics-token-0123456789abcdef';
let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ config: { metricsToken: TOKEN } });
});
afterAll(() => t.close());

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

it('GET /metrics reports requests by route and status, latency, and payments by status in Prometheus text', async () => {
  const api = merchantApi(t.app, (await newMerchant(t.ctx)).test_secret_key);
  const { body } = await api.initiate();
  await api.lookup(body.pidx);
  await api.lookup('unknown-pidx');
  const response = await t.app.inject({ method: 'GET', url: '/metrics', headers: bearer(TOKEN) });
  expect(response.statusCode).toBe(200);
  expect(response.headers['content-type']).toContain('text/plain');
  const text = response.body;
  expect(text).toMatch(/bhuktani_http_requests_total\{route="\/api\/v2\/epayment\/initiate\/",method="POST",status="200"\} 1/);
  expect(text).toMatch(/bhuktani_http_requests_total\{route="\/api\/v2\/epayment\/lookup\/",method="POST",status="404"\} 1/);
  expect(text).toMatch(/bhuktani_http_request_duration_seconds_bucket\{le="\+Inf",route="\/api\/v2\/epayment\/lookup\/",method="POST"\} 2/);
  expect(text).toMatch(/bhuktani_payments\{environment="test",status="Initiated"\} \d+/);
  expect(text).toContain('bhuktani_webhook_deliveries_total');
  expect(text).not.toContain(body.pidx);
});

describe('who may read /metrics', () => {
  it('on the public port with METRICS_TOKEN: 401 without the bearer token or with a wrong one, 200 with it; /health stays public', async () => {
    const anonymous = await t.app.inject({ method: 'GET', url: '/metrics' });
    expect(anonymous.statusCode).toBe(401);
    expect(anonymous.headers['www-authenticate']).toBe('Bearer');
    expect(anonymous.json()).toEqual({ detail: 'Authentication credentials were not provided.', status_code: 401 });
    for (const authorization of [`Bearer ${TOKEN}x`, `Bearer ${TOKEN.slice(0, -1)}`, `Key ${TOKEN}`, TOKEN]) {
      const wrong = await t.app.inject({ method: 'GET', url: '/metrics', headers: { authorization } });
      expect(wrong.statusCode, authorization).toBe(401);
      expect(wrong.body).not.toContain('bhuktani_');
    }
    expect((await t.app.inject({ method: 'GET', url: '/metrics', headers: bearer(TOKEN) })).statusCode).toBe(200);
    expect((await t.app.inject({ method: 'GET', url: '/health' })).statusCode).toBe(200);
  });

  it('not served on the public port by default (neither METRICS_PORT nor METRICS_TOKEN), nor there when METRICS_PORT is set', async () => {
    for (const config of [{}, { metricsPort: 9464, metricsToken: TOKEN }]) {
      const other = await startTestApp({ db: t.db, config });
      try {
        for (const headers of [{}, bearer(TOKEN)]) {
          const response = await other.app.inject({ method: 'GET', url: '/metrics', headers });
          expect(response.statusCode).toBe(404);
          expect(response.json()).toEqual({ detail: 'Not found.', status_code: 404 });
        }
        expect((await other.app.inject({ method: 'GET', url: '/health' })).statusCode).toBe(200);
      } finally {
        await other.close();
      }
    }
  });

  it("METRICS_PORT's listener serves /metrics without a token (and only /metrics), with METRICS_TOKEN behind it too, and is gone once closed", async () => {
    const open = await startMetricsListener(t.ctx.metrics, { metricsHost: '127.0.0.1', metricsPort: 0, metricsToken: undefined });
    const base = `http://127.0.0.1:${(open.server.address() as AddressInfo).port}`;
    const scraped = await fetch(`${base}/metrics`);
    expect(scraped.status).toBe(200);
    expect(await scraped.text()).toContain('bhuktani_http_requests_total');
    expect((await fetch(`${base}/health`)).status).toBe(404);
    await open.close();
    await expect(fetch(`${base}/metrics`)).rejects.toThrow();

    const guarded = await startMetricsListener(t.ctx.metrics, { metricsHost: '127.0.0.1', metricsPort: 0, metricsToken: TOKEN });
    try {
      const guardedBase = `http://127.0.0.1:${(guarded.server.address() as AddressInfo).port}`;
      expect((await fetch(`${guardedBase}/metrics`)).status).toBe(401);
      expect((await fetch(`${guardedBase}/metrics`, { headers: bearer(TOKEN) })).status).toBe(200);
    } finally {
      await guarded.close();
    }
  });
});
