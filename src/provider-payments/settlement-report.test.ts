// `bhuktani provider reconcile`'s matching: a provider's settlement report
// against what the ledger says it collected, every difference listed.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLI_ACTOR } from '../audit/audit-entry.js';
import { merchantApi, validInitiate } from '../../test/api-client.js';
import { providerPayer } from '../../test/provider-payer.js';
import { newMerchant, startTestApp, type TestApp } from '../../test/test-app.js';
import { localDay } from '../local-days.js';
import { lastReconciliations, parseCsv, reconcileReport } from './settlement-report.js';

let t: TestApp;
let api: ReturnType<typeof merchantApi>;

beforeAll(async () => {
  t = await startTestApp({ ownDb: true });
  api = merchantApi(t.app, (await newMerchant(t.ctx)).test_secret_key);
});
afterAll(() => t.close());

async function paid(name: 'khalti' | 'esewa' | 'connectips', amount: number) {
  const { body } = await api.initiate(validInitiate({ amount }));
  await providerPayer(t.app).pay(body.pidx, name, 'paid');
  const [attempt] = await t.db.query<{ idx: string; provider_transaction_id: string }>("SELECT idx, provider_transaction_id FROM provider_attempts WHERE pidx = $1 AND state = 'Paid'", [body.pidx]);
  return attempt;
}

describe('a settlement report matched against the ledger', () => {
  it('parses quoted fields, doubled quotes and both line ends', () => {
    expect(parseCsv('a,"b, c","say ""hi"""\r\n1,2,3\n\n')).toEqual([
      ['a', 'b, c', 'say "hi"'],
      ['1', '2', '3'],
    ]);
  });

  it('matches every collected attempt, and lists what is missing on either side or differs', async () => {
    const [one, two, three] = [await paid('esewa', 1000), await paid('esewa', 2050), await paid('esewa', 3000)];
    // Days as the report's provider writes them: in Nepal (TIME_ZONE).
    const day = localDay(t.clock.now(), t.ctx.config.timeZone);
    const csv = [
      'Ref ID,Total Amount,Date',
      `${one.provider_transaction_id},10.00,${day}`,
      `${two.provider_transaction_id},20.00,${day}`,
      `GHOST-1,5.00,${day}`,
      `,,${day}`,
    ].join('\n');
    const result = await reconcileReport(t.ctx, { actor: CLI_ACTOR, name: 'esewa', environment: 'test', fileName: 'esewa.csv', csv });
    expect(result.rows).toBe(4);
    expect(result.matched).toBe(1);
    expect(result.differences.map((d) => [d.key, d.problem])).toEqual([
      [two.provider_transaction_id, 'amount differs'],
      ['GHOST-1', 'not in the ledger'],
      ['line 5', 'bad row'],
      [three.provider_transaction_id, 'not in the report'],
    ]);
    const [last] = await lastReconciliations(t.db);
    expect(last).toMatchObject({ name: 'esewa', environment: 'test', rows: 4, matched: 1, file_name: 'esewa.csv' });
  });

  it('matches connectIPS by its TXNID and Khalti by its transaction id, fees included', async () => {
    const cips = await paid('connectips', 1500);
    const khalti = await paid('khalti', 1200);
    const connectips = await reconcileReport(t.ctx, { actor: CLI_ACTOR, name: 'connectips', environment: 'test', fileName: 'c.csv', csv: `TXN_ID,TXN_AMOUNT,CHARGE_AMOUNT\n${cips.idx},15,0\n` });
    expect(connectips).toEqual({ rows: 1, matched: 1, differences: [] });
    const k = await reconcileReport(t.ctx, { actor: CLI_ACTOR, name: 'khalti', environment: 'test', fileName: 'k.csv', csv: `transaction_id,amount,fee\n${khalti.provider_transaction_id},12.00,0.36\n` });
    expect(k.differences.map((d) => d.problem)).toEqual(['fee differs']);
  });
});
