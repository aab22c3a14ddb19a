// Fuzz of the console's payments, wallets and merchants forms (issue 16): an admin posts hostile
// text into every field of every form, with a valid CSRF token. Each answer is a page (303 after an
// act, 400 with the reason, 404 for an unknown object), never a server error, never the text
// unescaped; and whatever was accepted, the ledger still balances.
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyLedger } from '../../src/ledger/verify-ledger.js';
import { merchantApi, validInitiate } from '../api-client.js';
import { newOperator, operatorBrowser, type OperatorBrowser } from '../console-client.js';
import { merchantIn } from '../merchant-approval.js';
import { operatorWallet, payerBrowser } from '../portal-client.js';
import { newMerchant, startTestApp, type TestApp } from '../test-app.js';
import { FUZZ_RUNS, fuzzOptions, fuzzTimeout, hostileString, numericStrings } from './hostile.js';

const RUNS = Math.max(20, Math.round(FUZZ_RUNS / 10));

let t: TestApp;
let admin: OperatorBrowser;
let forms: { page: string; action: string; fields: string[] }[];

beforeAll(async () => {
  t = await startTestApp();
  admin = operatorBrowser(t.app, t.ctx);
  await admin.signIn(await newOperator(t.ctx, 'admin'));
  const api = merchantApi(t.app, (await newMerchant(t.ctx)).test_secret_key);
  const { body } = await api.initiate(validInitiate());
  await payerBrowser(t.app).pay(body.pidx, '9800000007');
  const wallet = (await operatorWallet(t.ctx, { balance: 1000 })).wallet.idx;
  const merchant = (await merchantIn(t.ctx, 'applied')).merchant.idx;
  const payment = `/console/payments/${body.pidx}`;
  forms = [
    { page: payment, action: `${payment}/resolve`, fields: ['resolution', 'reason'] },
    { page: '/console/wallets', action: '/console/wallets', fields: ['mobile', 'name', 'mpin', 'environment'] },
    ...['topup', 'freeze', 'unfreeze'].map((verb) => ({ page: `/console/wallets/${wallet}`, action: `/console/wallets/${wallet}/${verb}`, fields: ['amount', 'reason'] })),
    ...['approve', 'reject', 'suspend', 'reactivate', 'fee'].map((verb) => ({ page: `/console/merchants/${merchant}`, action: `/console/merchants/${merchant}/${verb}`, fields: ['reason', 'fee_bps'] })),
  ];
});
afterAll(() => t.close());

describe('console forms under hostile input', () => {
  it(
    'answer every post with a page, never a server error or unescaped text, and keep the ledger balanced',
    async () => {
      const value = fc.oneof(hostileString, numericStrings, fc.constantFrom('Completed', 'User canceled', 'live', 'test', '100', '9712345678', '1234'));
      await fc.assert(
        fc.asyncProperty(fc.nat(), fc.array(value, { minLength: 4, maxLength: 4 }), async (pick, values) => {
          const form = forms[pick % forms.length];
          await admin.get(form.page);
          const fields = Object.fromEntries(form.fields.map((name, i) => [name, values[i]]));
          const answer = await admin.post(form.action, fields);
          expect([303, 400, 404]).toContain(answer.status);
          expect(answer.body).not.toContain('<script>alert(1)</script>');
        }),
        fuzzOptions(RUNS),
      );
      for (const q of ['<script>alert(1)</script>', "' OR 1=1 --", '\u0000', '%', '_']) {
        for (const page of ['/console/payments?q=', '/console/wallets?mobile=', '/console/merchants?q=']) {
          const answer = await admin.get(`${page}${encodeURIComponent(q)}`);
          expect(answer.status).toBe(200);
          expect(answer.body).not.toContain('<script>alert(1)</script>');
        }
      }
      expect((await verifyLedger(t.db)).filter((r) => !r.holds)).toEqual([]);
    },
    fuzzTimeout(RUNS, 400),
  );
});
