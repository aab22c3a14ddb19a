import { afterAll, beforeAll, expect, it } from 'vitest';
import { merchantApi } from '../../test/api-client.js';
import { newMerchant, startTestApp, type TestApp } from '../../test/test-app.js';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

it('GET /metrics reports requests by route and status, latency, and payments by status in Prometheus text', async () => {
  const api = merchantApi(t.app, (await newMerchant(t.ctx)).test_secret_key);
  const { body } = await api.initiate();
  await api.lookup(body.pidx);
  await api.lookup('unknown-pidx');
  const response = await t.app.inject({ method: 'GET', url: '/metrics' });
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
