// The Khalti connector against Khalti's real sandbox (`npm run test:sandbox`), when
// KHALTI_SANDBOX_SECRET_KEY holds a sandbox merchant's secret key (test-admin.khalti.com); skipped
// otherwise. KHALTI_SANDBOX_BASE_URL is the root /api/v2/… is appended to (https://dev.khalti.com).
// Nobody pays: it starts a payment, and Khalti's lookup must say it is not paid yet.
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { attemptToStart } from '../../../test/connector-harness.js';
import { networkTransport } from '../provider-http.js';
import { khaltiConnector } from './khalti-connector.js';

const secretKey = process.env.KHALTI_SANDBOX_SECRET_KEY;
const baseUrl = process.env.KHALTI_SANDBOX_BASE_URL ?? 'https://dev.khalti.com';

describe.skipIf(!secretKey)('Khalti’s sandbox', () => {
  const connector = khaltiConnector(
    { name: 'khalti', environment: 'test', enabled: true, sandbox: false, settings: { base_url: baseUrl }, credentials: { secret_key: secretKey! } },
    networkTransport(30_000),
  );
  const attempt = (amount: number) => attemptToStart({ idx: randomUUID().replaceAll('-', '').slice(0, 17), amount, orderName: 'Bhuktani sandbox test' });

  it('starts a payment of Rs 10 at a payment_url, and its lookup says it is not paid yet', async () => {
    const started = attempt(1000);
    const { redirect, providerReference } = await connector.start(started);
    expect(redirect.method).toBe('GET');
    expect(redirect.url).toMatch(/^https:\/\//);
    expect(providerReference).toBeTruthy();
    expect(await connector.status({ ...started, providerReference: providerReference! })).toMatchObject({ kind: 'open', detail: 'Khalti: Initiated' });
  });

  it('refuses a payment below Rs 10, Khalti’s least', async () => {
    await expect(connector.start(attempt(999))).rejects.toThrow(/400/);
  });

  it('knows no pidx it did not give', async () => {
    expect((await connector.status({ ...attempt(1000), providerReference: { pidx: 'bhuktaniNoSuchPidx000' } })).kind).toBe('unknown');
  });
});
