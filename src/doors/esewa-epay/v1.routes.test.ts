// ePay v1 (contract section 12), as older plugins drive it: the form (no signature), the payer back
// at su?oid=&amt=&refId= or fu?pid=, and the verification answering XML.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getPath, pidxOf, postForm, postMultipart, postRaw, statusCheck, v1Form } from '../../../test/esewa-client.js';
import { refund } from '../../../test/api-client.js';
import { payerBrowser } from '../../../test/portal-client.js';
import { newMerchant, startTestApp, type TestApp } from '../../../test/test-app.js';
import { findPayment } from '../../payments/payment-store.js';

let t: TestApp;
let merchant: Awaited<ReturnType<typeof newMerchant>>;
let scd: string;

beforeAll(async () => {
  t = await startTestApp();
  merchant = await newMerchant(t.ctx);
  scd = merchant.esewa.test.product_code;
});
afterAll(() => t.close());

const SUCCESS = '<response><response_code>Success</response_code></response>';
const FAILURE = '<response><response_code>failure</response_code></response>';

async function paidV1(overrides: Record<string, string> = {}) {
  const form = v1Form(scd, overrides);
  const started = await postForm(t.app, '/epay/main', form);
  expect(started.status, started.body).toBe(302);
  const pidx = pidxOf(started.location!);
  const done = await payerBrowser(t.app).pay(pidx, '9806800002', '1122', '123456');
  return { form, pidx, done, refId: new URL(done.location!).searchParams.get('refId')! };
}

const transrec = (fields: Record<string, string>) => postForm(t.app, '/epay/transrec', fields);

describe('POST /epay/main', () => {
  it('starts a payment (302 to the hosted page); paid, the browser goes to su with oid, amt and refId, keeping su’s query', async () => {
    const { form, pidx, done, refId } = await paidV1();
    const payment = (await findPayment(t.db, pidx))!;
    expect(payment).toMatchObject({ door: 'esewa-v1', amount: 11000, purchase_order_id: form.pid, status: 'Completed', amount_breakdown: [{ label: 'Amount', amount: 10000 }, { label: 'Tax', amount: 1000 }] });
    expect(done.status).toBe(303);
    const url = new URL(done.location!);
    expect(`${url.origin}${url.pathname}`).toBe('https://shop.example.com/esewa/su');
    expect(Object.fromEntries(url.searchParams)).toEqual({ q: 'su', oid: form.pid, amt: '110.0', refId: payment.transaction_id });
    expect(refId).toBe(payment.transaction_id);
  });

  it('a cancel sends the browser to fu?pid=', async () => {
    const form = v1Form(scd);
    const pidx = pidxOf((await postForm(t.app, '/epay/main', form)).location!);
    const browser = payerBrowser(t.app);
    await browser.open(pidx);
    const canceled = await browser.cancel(pidx);
    expect(Object.fromEntries(new URL(canceled.location!).searchParams)).toEqual({ q: 'fu', pid: form.pid });
    expect(canceled.location!.startsWith('https://shop.example.com/esewa/fu?')).toBe(true);
  });

  it('takes multipart/form-data, and GET with the fields in the query as v1 integrations send the browser', async () => {
    for (const send of [(form: Record<string, string>) => postMultipart(t.app, '/epay/main', form), (form: Record<string, string>) => getPath(t.app, `/epay/main?${new URLSearchParams(form)}`)]) {
      const form = v1Form(scd, { amt: '100.5', tAmt: '110.5' });
      const started = await send(form);
      expect(started.status, started.body).toBe(302);
      const done = await payerBrowser(t.app).pay(pidxOf(started.location!), '9806800002', '1122', '123456');
      expect(Object.fromEntries(new URL(done.location!).searchParams)).toMatchObject({ oid: form.pid, amt: '110.5' });
    }
  });

  it('a held payment (9800000007) goes to fu?pid=, not to su', async () => {
    const form = v1Form(scd);
    const held = await payerBrowser(t.app).pay(pidxOf((await postForm(t.app, '/epay/main', form)).location!), '9800000007');
    expect(held.location).toBe(`https://shop.example.com/esewa/fu?q=fu&pid=${form.pid}`);
  });
});

describe('a pid posted again (v1 has no signature: anyone can post a shop’s next pid first)', () => {
  const attacker = { su: 'https://attacker.example.net/su', fu: 'https://attacker.example.net/fu' };

  it('an earlier unpaid post never sends the shop’s payer to its su or fu: each post is a payment of its own', async () => {
    const shop = v1Form(scd);
    const squatted = await postForm(t.app, '/epay/main', { ...shop, ...attacker });
    const posted = await postForm(t.app, '/epay/main', shop);
    expect([squatted.status, posted.status]).toEqual([302, 302]);
    expect(pidxOf(posted.location!)).not.toBe(pidxOf(squatted.location!));
    const done = await payerBrowser(t.app).pay(pidxOf(posted.location!), '9806800002', '1122', '123456');
    expect(done.location!.startsWith('https://shop.example.com/esewa/su?q=su&oid=')).toBe(true);
        // One paid payment per pid: the earlier post can no longer be paid, and its payer is told so.
    const late = await payerBrowser(t.app).open(pidxOf(squatted.location!));
    expect([late.status, late.body.includes('Order already paid'), late.body.includes('name="mpin"')]).toEqual([409, true, false]);
    expect((await findPayment(t.db, pidxOf(squatted.location!)))!.status).toBe('Initiated');
  });

  it('an earlier unpaid post with other amounts never refuses the shop’s own post', async () => {
    const shop = v1Form(scd);
    expect((await postForm(t.app, '/epay/main', { ...shop, amt: '1', txAmt: '0', tAmt: '1' })).status).toBe(302);
    const posted = await postForm(t.app, '/epay/main', shop);
    expect(posted.status, posted.body).toBe(302);
    expect((await findPayment(t.db, pidxOf(posted.location!)))!.amount).toBe(11000);
  });

  it('once the pid is paid, the very same post goes to its outcome; any other post of it is refused', async () => {
    const { form } = await paidV1();
    const same = await postForm(t.app, '/epay/main', form);
    expect(same.location!.startsWith('https://shop.example.com/esewa/su?q=su&oid=')).toBe(true);
    for (const other of [{ ...form, ...attacker }, { ...form, amt: '105', txAmt: '5' }]) {
      const answer = await postForm(t.app, '/epay/main', other);
      expect([answer.status, answer.json()]).toEqual([400, { code: 0, error_message: 'This pid was already paid: use a new pid for a new payment.' }]);
    }
  });

  it('an order id of an older plugin (underscores, a hash sign) is taken as it is', async () => {
    const pid = `wc_order_${Date.now()}#2`;
    const { done } = await paidV1({ pid });
    expect(new URL(done.location!).searchParams.get('oid')).toBe(pid);
  });
});

describe('/epay/transrec', () => {
  it('says Success, as XML, for a paid payment matching amt, rid, pid and scd (POST, or GET as some plugins send it)', async () => {
    const { form, refId } = await paidV1();
    for (const amt of ['110', '110.0', '110.00']) {
      const answer = await transrec({ amt, rid: refId, pid: form.pid, scd });
      expect([answer.status, answer.contentType, answer.body]).toEqual([200, 'text/xml; charset=utf-8', SUCCESS]);
    }
    const got = await getPath(t.app, `/epay/transrec?${new URLSearchParams({ amt: '110', rid: refId, pid: form.pid, scd })}`);
    expect([got.status, got.body]).toEqual([200, SUCCESS]);
  });

  it('takes multipart/form-data, and POST with the fields in the query and an empty body', async () => {
    const { form, refId } = await paidV1();
    const fields = { amt: '110', rid: refId, pid: form.pid, scd };
    for (const answer of [await postMultipart(t.app, '/epay/transrec', fields), await postRaw(t.app, `/epay/transrec?${new URLSearchParams(fields)}`, ''), await postRaw(t.app, `/epay/transrec?${new URLSearchParams(fields)}`, '', 'application/x-www-form-urlencoded')]) {
      expect([answer.status, answer.body]).toEqual([200, SUCCESS]);
    }
    const file = await postMultipart(t.app, '/epay/transrec', fields, [{ name: 'x', filename: 'x.txt', content: 'x' }]);
    expect([file.status, file.body]).toEqual([415, FAILURE]);
  });

  it('finds the paid payment of a pid posted several times', async () => {
    const form = v1Form(scd);
    await postForm(t.app, '/epay/main', { ...form, su: 'https://attacker.example.net/su' });
    const { refId } = await paidV1({ pid: form.pid });
    await postForm(t.app, '/epay/main', { ...form, fu: 'https://attacker.example.net/fu' });
    expect((await transrec({ amt: '110', rid: refId, pid: form.pid, scd })).body).toBe(SUCCESS);
  });

  it('says failure (200) for anything that does not match a payment that stands', async () => {
    const { form, refId } = await paidV1();
    const other = await newMerchant(t.ctx);
    const good = { amt: '110', rid: refId, pid: form.pid, scd };
    for (const changed of [
      { amt: '110.01' },
      { amt: '11' },
      { rid: `${refId}x` },
      { pid: `${form.pid}x` },
      { scd: other.esewa.test.product_code },
      { scd: merchant.esewa.live.product_code },
      { scd: 'NO-SUCH-CODE' },
    ]) {
      const answer = await transrec({ ...good, ...changed });
      expect([answer.status, answer.body], JSON.stringify(changed)).toEqual([200, FAILURE]);
    }
    const unpaid = v1Form(scd);
    await postForm(t.app, '/epay/main', unpaid);
    expect((await transrec({ amt: '110', rid: '', pid: unpaid.pid, scd })).body).toBe(FAILURE);
  });

  it('a payment partly refunded still stands; wholly refunded, it does not', async () => {
    const { form, refId } = await paidV1();
    const verify = () => transrec({ amt: '110', rid: refId, pid: form.pid, scd });
    await refund(t.app, merchant.test_secret_key, refId, { amount: 1000 });
    expect((await verify()).body).toBe(SUCCESS);
    await refund(t.app, merchant.test_secret_key, refId);
    expect((await verify()).body).toBe(FAILURE);
  });

  it('a malformed verification is a 400 failure, in XML', async () => {
    const { form, refId } = await paidV1();
    for (const fields of [{}, { amt: '110', rid: refId, pid: form.pid }, { amt: 'abc', rid: refId, pid: form.pid, scd }, { amt: '-110', rid: refId, pid: form.pid, scd }]) {
      const answer = await transrec(fields as Record<string, string>);
      expect([answer.status, answer.contentType, answer.body], JSON.stringify(fields)).toEqual([400, 'text/xml; charset=utf-8', FAILURE]);
    }
    const json = await t.app.inject({ method: 'POST', url: '/epay/transrec', headers: { 'content-type': 'application/json' }, payload: '{"amt":' });
    expect([json.statusCode, json.body]).toEqual([400, FAILURE]);
  });

  it('v1 payments are not v2’s: the status check does not know their pid', async () => {
    const { form } = await paidV1();
    expect((await statusCheck(t.app, { product_code: scd, total_amount: '110', transaction_uuid: form.pid })).json().status).toBe('NOT_FOUND');
  });
});
