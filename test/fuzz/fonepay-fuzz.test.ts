// Fuzzing Fonepay's addresses: the QR page and its wait (/pay/qr/<attempt>, …/wait), Fonepay's return
// (/pay/return/fonepay/…, with PRN, UID, DV and the rest hostile or forged) and its sandbox simulator's
// pages and APIs. Whatever the path and query, the answer is never a 5xx, and no payment moves: a
// return or a question completes nothing that Fonepay's own server has not said was paid.
// Size: FUZZ_RUNS runs per property.
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { merchantApi, validInitiate } from '../api-client.js';
import { newMerchant, startTestApp } from '../test-app.js';
import { fuzzOptions, fuzzTimeout, hostileString, uriEncode } from './hostile.js';

const t = await startTestApp();
afterAll(() => t.close());
const api = merchantApi(t.app, (await newMerchant(t.ctx)).test_secret_key);
const { body: payment } = await api.initiate(validInitiate({ amount: 150_00 }));

const segment = fc.oneof(hostileString, fc.string({ unit: 'grapheme', maxLength: 40 }), fc.constantFrom('', '.', '..', '%00', payment.pidx, 'a'.repeat(300)));
const returnFields = ['PRN', 'PID', 'PS', 'RC', 'UID', 'BC', 'INI', 'P_AMT', 'R_AMT', 'DV', 'way'];
const query = fc.dictionary(fc.constantFrom(...returnFields, 'ask', 'qr', 'idx'), fc.oneof(hostileString, fc.constantFrom('true', 'successful', '150', '150.00', '1', payment.pidx)), { maxKeys: 8 });
const address = fc.constantFrom(
  (s: string) => `/pay/qr/${s}`,
  (s: string) => `/pay/qr/${s}/wait`,
  (s: string) => `/pay/return/fonepay/${s}`,
  (s: string) => `/pay/return/fonepay/${s}/qr`,
  (s: string) => `/pay/return/fonepay/${s}/success`,
  () => '/sandbox/fonepay/checkout',
  () => '/sandbox/fonepay/bank-app',
  () => '/sandbox/fonepay/api/merchantRequest',
  () => '/sandbox/fonepay/api/merchantRequest/verificationMerchant',
);

describe('Fonepay’s addresses', () => {
  it(
    'hostile paths and queries: never a 5xx, and the payment stays Initiated',
    async () => {
      await fc.assert(
        fc.asyncProperty(address, segment, query, fc.constantFrom('GET', 'POST'), async (path, s, q, method) => {
          const search = Object.entries(q).map(([k, v]) => `${k}=${uriEncode(String(v))}`).join('&');
          const url = `${path(uriEncode(s))}${search ? `?${search}` : ''}`;
          const response = await t.app.inject({ method: method as 'GET' | 'POST', url, ...(method === 'POST' ? { headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: search } : {}) });
          expect(response.statusCode, `${method} ${url}`).toBeLessThan(500);
        }),
        fuzzOptions(),
      );
      expect((await api.lookup(payment.pidx)).body.status).toBe('Initiated');
    },
    fuzzTimeout(),
  );
});
