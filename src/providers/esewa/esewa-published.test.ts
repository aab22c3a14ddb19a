// The eSewa connector against eSewa's own published examples (fixtures/epay-v2.ts, each with its
// page and section): the form it posts, signed as eSewa's vector; eSewa's returned data; the status
// check's query and every answer eSewa documents.
import { describe, expect, it } from 'vitest';
import { answering, attemptToStart } from '../../../test/connector-harness.js';
import type { ProviderSetup } from '../provider-setup.js';
import { esewaConnector } from './esewa-connector.js';
import { FORM, STATUS_ANSWERS, STATUS_REQUEST, SUCCESS_DATA, UAT } from './fixtures/epay-v2.js';
import { ESEWA_TEST_PAIR } from './test-pair.js';

const setup = {
  name: 'esewa',
  environment: 'test',
  enabled: true,
  sandbox: false,
  settings: { form_url: UAT.form_url, status_url: UAT.status_url, product_code: UAT.product_code },
  credentials: { secret_key: UAT.secret_key },
} satisfies ProviderSetup;


const attempt = (idx: string, amount: number) =>
  attemptToStart({ idx, amount, returnUrl: (outcome) => (outcome === 'success' ? 'https://developer.esewa.com.np/success' : 'https://developer.esewa.com.np/failure') });

it('the sandbox answers to the test pair eSewa publishes', () => {
  expect(ESEWA_TEST_PAIR).toEqual({ product_code: UAT.product_code, secret_key: UAT.secret_key });
});

describe('the form the connector posts', () => {
  it('has the published form’s fields in its order, and Rs 110 of transaction 241028 signs as eSewa’s vector', async () => {
    const { redirect } = await esewaConnector(setup, answering({}).transport).start(attempt('241028', 11000));
    expect(redirect.method).toBe('POST');
    expect(redirect.url).toBe(UAT.form_url);
    const fields = redirect.method === 'POST' ? redirect.fields : [];
    expect(fields.map(([name]) => name)).toEqual(FORM.fields.map(([name]) => name));
    const sent = Object.fromEntries(fields);
    const published = Object.fromEntries(FORM.fields);
    for (const name of ['total_amount', 'transaction_uuid', 'product_code', 'product_service_charge', 'product_delivery_charge', 'success_url', 'failure_url', 'signed_field_names', 'signature'] as const) {
      expect(sent[name], name).toBe(published[name]);
    }
    // eSewa's rule: total_amount = amount + tax_amount + product_service_charge + product_delivery_charge.
    expect(Number(sent.amount) + Number(sent.tax_amount) + Number(sent.product_service_charge) + Number(sent.product_delivery_charge)).toBe(Number(sent.total_amount));
  });
});

describe('the data eSewa sends back', () => {
  const data = Buffer.from(JSON.stringify(SUCCESS_DATA.fields)).toString('base64');

  it('eSewa’s published success data claims paid for its transaction, and for no other', () => {
    const connector = esewaConnector(setup, answering({}).transport);
    expect(connector.readReturn([SUCCESS_DATA.fields.transaction_uuid, 'success'], { data })).toEqual({ attemptIdx: '250610-162413', claim: 'paid', signed: true });
    // eSewa's signature, over another transaction's data: nothing of this one.
    expect(connector.readReturn(['250610-162414', 'success'], { data })).toEqual({ attemptIdx: '250610-162414', claim: 'unclear', signed: false });
    expect(connector.readReturn(['250610-162413', 'success'], { data: data.slice(0, -8) })).toMatchObject({ claim: 'unclear', signed: false });
  });

  it('the published decoded body, its total a JSON number (1000.0), claims paid too: the number is read as eSewa wrote it', () => {
    const printed = Buffer.from(SUCCESS_DATA.decodedAsPrinted).toString('base64');
    expect(esewaConnector(setup, answering({}).transport).readReturn(['250610-162413', 'success'], { data: printed }).claim).toBe('paid');
  });

  it('carries the total as a string ("1000.0"), as the first line of the published base64 shows', () => {
    expect(Buffer.from(SUCCESS_DATA.base64FirstLine, 'base64').toString('utf8')).toContain('"total_amount":"1000.0"');
    expect(data.startsWith(SUCCESS_DATA.base64FirstLine)).toBe(true);
  });
});

describe('the status check', () => {
  it('asks as eSewa’s testing URL does', async () => {
    const { asked, transport } = answering(STATUS_REQUEST.answer);
    const answer = await esewaConnector(setup, transport).status(attempt('123', 10000));
    expect(asked).toEqual([{ url: STATUS_REQUEST.url, method: 'GET', headers: { accept: 'application/json' } }]);
    expect(answer).toEqual({ kind: 'paid', transactionId: '0001TS9', fee: 0, detail: 'eSewa: COMPLETE' });
  });

  // What each documented answer means for an attempt: only COMPLETE is paid; a refund Bhuktani did
  // not make, or eSewa's own "ambiguous", is for an operator to look at.
  const meaning = { COMPLETE: 'paid', PENDING: 'open', NOT_FOUND: 'open', CANCELED: 'failed', FULL_REFUND: 'unknown', PARTIAL_REFUND: 'unknown', AMBIGUOUS: 'unknown' } as const;

  it.each(Object.entries(STATUS_ANSWERS.answers))('%s, as eSewa documents it', async (status, body) => {
    const { transport } = answering(body);
    const answer = await esewaConnector(setup, transport).status(attempt(body.transaction_uuid, body.total_amount * 100));
    expect(answer.kind).toBe(meaning[status as keyof typeof meaning]);
    if (answer.kind === 'paid') expect(answer.transactionId).toBe(body.ref_id);
  });

  it('a documented COMPLETE for another amount, or another transaction, is not a payment', async () => {
    const body = STATUS_ANSWERS.answers.COMPLETE;
    expect((await esewaConnector(setup, answering(body).transport).status(attempt(body.transaction_uuid, 10050))).kind).toBe('unknown');
    expect((await esewaConnector(setup, answering(body).transport).status(attempt('240508-10109', 10000))).kind).toBe('unknown');
  });

  it.each([200, 503])('eSewa’s "Service is currently unavailable" (answered %i) is an unknown outcome, the provider’s fault', async (code) => {
    const answer = await esewaConnector(setup, answering(STATUS_ANSWERS.unavailable, code).transport).status(attempt('123', 10000));
    expect(answer).toMatchObject({ kind: 'unknown', fault: true });
  });
});
