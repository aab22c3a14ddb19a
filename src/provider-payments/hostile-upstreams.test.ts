// A provider's answer is input, never trusted: HTML where JSON was
// expected, a body of 100 MB, an answer that never ends, an answer for another payment or amount, a
// return with a forged signature. Each is unknown or refused, never paid.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { khaltiConnector } from '../providers/khalti/khalti-connector.js';
import { esewaConnector } from '../providers/esewa/esewa-connector.js';
import { signedFieldNames, signFields } from '../protocols/esewa-epay/signature.js';
import { connectipsConnector } from '../providers/connectips/connectips-connector.js';
import { validationAnswer } from '../providers/connectips/transformers.js';
import { initiated, lookupAnswer } from '../providers/khalti/transformers.js';
import { statusAnswer } from '../providers/esewa/transformers.js';
import { networkTransport, MAX_ANSWER_BYTES } from '../providers/provider-http.js';
import type { ProviderSetup } from '../providers/provider-setup.js';

let server: Server;
let base: string;
const hanging = new Set<import('node:http').ServerResponse>();

beforeAll(async () => {
  server = createServer((request, response) => {
    const path = request.url ?? '';
    if (path.includes('html')) return response.writeHead(200, { 'content-type': 'text/html' }).end('<html><body>Service unavailable</body></html>');
    if (path.includes('huge')) {
      response.writeHead(200, { 'content-type': 'application/json' });
      const chunk = Buffer.alloc(1 << 20, 0x20);
      let sent = 0;
      const write = () => {
        while (sent < 100 && response.write(chunk)) sent++;
        if (sent < 100) response.once('drain', write);
        else response.end('{}');
      };
      response.on('close', () => (sent = 100));
      return write();
    }
    if (path.includes('endless')) {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.write('{"status":');
      hanging.add(response);
      return;
    }
    if (path.includes('garbage')) return response.writeHead(200, { 'content-type': 'application/json' }).end('{"status": "Completed", ');
    if (path.includes('paid')) return response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ pidx: 'P1', total_amount: 1000, status: 'Completed', transaction_id: 'T1', fee: 0, refunded: false }));
    response.writeHead(500, { 'content-type': 'application/json' }).end('{"detail":"boom"}');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  for (const response of hanging) response.destroy();
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

const khaltiAt = (path: string) => ({ name: 'khalti', environment: 'test', enabled: true, sandbox: false, settings: { base_url: `${base}/${path}` }, credentials: { secret_key: 'test_secret_key_x' } }) satisfies ProviderSetup;
const attempt = { idx: 'A1', amount: 1000, environment: 'test' as const, providerReference: { pidx: 'P1' }, createdAt: new Date() };

describe('the transport refuses what is not a provider’s answer', () => {
  it.each([
    ['html', /not JSON/],
    ['garbage', /not valid JSON/],
    ['error', /answered 500/],
  ])('an answer of kind %s is unknown, never paid', async (path, reason) => {
    const answer = await khaltiConnector(khaltiAt(path), networkTransport(2000)).status(attempt);
    expect(answer).toMatchObject({ kind: 'unknown', fault: true });
    expect(answer.detail).toMatch(reason);
  });

  it('cuts off a body of 100 MB at 1 MB without reading it', async () => {
    const started = process.memoryUsage().rss;
    const answer = await khaltiConnector(khaltiAt('huge'), networkTransport(10_000)).status(attempt);
    expect(answer).toMatchObject({ kind: 'unknown', fault: true, detail: expect.stringMatching(new RegExp(`over ${MAX_ANSWER_BYTES}`)) });
    expect(process.memoryUsage().rss - started).toBeLessThan(60 * 1024 * 1024);
  });

  it('gives up on an answer that never ends, at the timeout', async () => {
    // The timeout's own answer (no wall-clock bound: a slow machine is no failure).
    const answer = await khaltiConnector(khaltiAt('endless'), networkTransport(400)).status(attempt);
    expect(answer).toMatchObject({ kind: 'unknown', fault: true, detail: 'no answer within 400 ms' });
  });

  it('takes a right answer as paid', async () => {
    expect(await khaltiConnector(khaltiAt('paid'), networkTransport(2000)).status(attempt)).toMatchObject({ kind: 'paid', transactionId: 'T1' });
  });

  it('refuses to start when the provider does not answer, so the payer is offered the others', async () => {
    const setup = { ...khaltiAt('error'), settings: { base_url: 'http://127.0.0.1:9' } };
    await expect(khaltiConnector(setup, networkTransport(500)).start({ ...attempt, providerReference: null, pidx: 'x', orderName: 'o', merchantName: 'm', websiteUrl: 'https://shop.example.com', customer: null, returnUrl: () => 'https://b.example.com/r' })).rejects.toThrow(/no answer/);
  });
});

const json = (body: unknown, status = 200) => ({ status, contentType: 'application/json', text: JSON.stringify(body) });

describe('an answer about another payment is not this one’s', () => {
  it('Khalti: an initiate answer whose payment_url names another pidx is refused', () => {
    expect(initiated(json({ pidx: 'P1', payment_url: 'https://pay.khalti.com/?pidx=P1' }))).toEqual({ pidx: 'P1', payment_url: 'https://pay.khalti.com/?pidx=P1' });
    expect(initiated(json({ pidx: 'P2', payment_url: 'https://pay.khalti.com/?pidx=P1' }))).toBe('initiate answered a payment_url of another pidx');
    expect(initiated(json({ pidx: 'P1', payment_url: 'javascript:alert(1)' }))).toMatch(/payment_url: .*https?/);
  });

  it('Khalti: another pidx, another amount, Completed without a transaction id, Pending, Refunded', () => {
    const expected = { pidx: 'P1', amount: 1000 };
    const completed = { pidx: 'P1', total_amount: 1000, status: 'Completed', transaction_id: 'T', fee: 30 };
    expect(lookupAnswer(json(completed), expected)).toMatchObject({ kind: 'paid', transactionId: 'T', fee: 30 });
    expect(lookupAnswer(json({ ...completed, pidx: 'P2' }), expected)).toMatchObject({ kind: 'unknown', fault: true });
    expect(lookupAnswer(json({ ...completed, total_amount: 10 }), expected)).toMatchObject({ kind: 'unknown' });
    expect(lookupAnswer(json({ ...completed, transaction_id: null }), expected)).toMatchObject({ kind: 'unknown' });
    expect(lookupAnswer(json({ ...completed, fee: 99_999 }), expected)).toMatchObject({ kind: 'paid', fee: 0 });
    expect(lookupAnswer(json({ ...completed, status: 'Pending' }), expected)).toMatchObject({ kind: 'unknown' });
    expect(lookupAnswer(json({ ...completed, status: 'Refunded' }), expected)).toMatchObject({ kind: 'unknown' });
    expect(lookupAnswer(json({ ...completed, status: 'Initiated' }), expected)).toMatchObject({ kind: 'open' });
    expect(lookupAnswer(json({ ...completed, status: 'Expired' }, 400), expected)).toMatchObject({ kind: 'failed' });
    expect(lookupAnswer(json({ detail: 'Not found.' }, 404), expected)).toMatchObject({ kind: 'unknown' });
  });

  it('eSewa: another transaction_uuid, product code or amount, AMBIGUOUS', () => {
    const expected = { transactionUuid: 'A1', productCode: 'EPAYTEST', amount: 1050 };
    const complete = { product_code: 'EPAYTEST', transaction_uuid: 'A1', total_amount: 10.5, status: 'COMPLETE', ref_id: 'R1' };
    expect(statusAnswer(json(complete), expected)).toMatchObject({ kind: 'paid', transactionId: 'R1' });
    expect(statusAnswer(json({ ...complete, transaction_uuid: 'A2' }), expected)).toMatchObject({ kind: 'unknown' });
    expect(statusAnswer(json({ ...complete, product_code: 'OTHER' }), expected)).toMatchObject({ kind: 'unknown' });
    expect(statusAnswer(json({ ...complete, total_amount: 10 }), expected)).toMatchObject({ kind: 'unknown' });
    expect(statusAnswer(json({ ...complete, status: 'AMBIGUOUS' }), expected)).toMatchObject({ kind: 'unknown' });
    expect(statusAnswer(json({ ...complete, status: 'CANCELED' }), expected)).toMatchObject({ kind: 'failed' });
  });

  it('connectIPS: another reference or amount, ERROR', () => {
    const expected = { referenceId: 'A1', amount: 500 };
    const success = { merchantId: 1, appId: 'APP', referenceId: 'A1', txnAmt: '500', token: null, status: 'SUCCESS', statusDesc: 'TRANSACTION SUCCESSFUL' };
    expect(validationAnswer(json(success), expected)).toMatchObject({ kind: 'paid' });
    expect(validationAnswer(json({ ...success, referenceId: 'A2' }), expected)).toMatchObject({ kind: 'unknown' });
    expect(validationAnswer(json({ ...success, txnAmt: '5000' }), expected)).toMatchObject({ kind: 'unknown' });
    expect(validationAnswer(json({ ...success, status: 'ERROR' }), expected)).toMatchObject({ kind: 'unknown' });
  });
});

describe('a returning browser’s claims', () => {
  const esewa = esewaConnector({ name: 'esewa', environment: 'test', enabled: true, sandbox: false, settings: { form_url: 'x', status_url: 'y', product_code: 'EPAYTEST' }, credentials: { secret_key: 'secret' } }, networkTransport(100));
  const data = (fields: Record<string, string>, key = 'secret') => {
    const names = 'transaction_code,status,total_amount,transaction_uuid,product_code,signed_field_names';
    const all = { ...fields, signed_field_names: names };
    return Buffer.from(JSON.stringify({ ...all, signature: signFields(key, all, signedFieldNames(names)) })).toString('base64');
  };
  const paid = { transaction_code: 'R1', status: 'COMPLETE', total_amount: '10.0', transaction_uuid: 'A1', product_code: 'EPAYTEST' };

  it('eSewa’s signed data claims paid only when its signature holds and it names this attempt', () => {
    expect(esewa.readReturn(['A1', 'success'], { data: data(paid) }).claim).toBe('paid');
    expect(esewa.readReturn(['A1', 'success'], { data: data(paid, 'forged') }).claim).toBe('unclear');
    expect(esewa.readReturn(['A2', 'success'], { data: data(paid) }).claim).toBe('unclear');
    expect(esewa.readReturn(['A1', 'success'], { data: 'not base64 json' }).claim).toBe('unclear');
  });

  it('eSewa’s data with an amount written as a JSON number holds its signature over the number as eSewa wrote it', () => {
    // eSewa's published example (developer.esewa.com.np, Epay-V2, "After Successful Payment"), its
    // test secret key and product code: the body carries 1000.0 as a number, signed as `total_amount=1000.0`.
    const published = esewaConnector({ name: 'esewa', environment: 'test', enabled: true, sandbox: false, settings: { form_url: 'x', status_url: 'y', product_code: 'EPAYTEST' }, credentials: { secret_key: '8gBm/:&EnhH.1/q' } }, networkTransport(100));
    const body = `{"transaction_code":"000AWEO","status":"COMPLETE","total_amount":1000.0,"transaction_uuid":"250610-162413","product_code":"EPAYTEST","signed_field_names":"transaction_code,status,total_amount,transaction_uuid,product_code,signed_field_names","signature":"62GcfZTmVkzhtUeh+QJ1AqiJrjoWWGof3U+eTPTZ7fA="}`;
    const data = Buffer.from(body).toString('base64');
    expect(published.readReturn(['250610-162413', 'success'], { data }).claim).toBe('paid');
    // The same as a string, and a number that is not what was signed.
    expect(published.readReturn(['250610-162413', 'success'], { data: Buffer.from(body.replace('1000.0', '"1000.0"')).toString('base64') }).claim).toBe('paid');
    expect(published.readReturn(['250610-162413', 'success'], { data: Buffer.from(body.replace('1000.0', '1000')).toString('base64') }).claim).toBe('unclear');
  });

  it('connectIPS names the attempt by TXNID only', () => {
    const connectips = connectipsConnector({ name: 'connectips', environment: 'test', enabled: true, sandbox: false, settings: { gateway_url: 'x', api_url: 'y', merchant_id: '1', app_id: 'A', app_name: 'N' }, credentials: { password: 'p', pfx: '', key_passphrase: '' } }, networkTransport(100));
    expect(connectips.readReturn(['success'], { TXNID: 'A1' })).toEqual({ attemptIdx: 'A1', claim: 'paid' });
  });
});
