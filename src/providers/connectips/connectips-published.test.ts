// The connectIPS connector against NCHL's own published examples (fixtures/nchl-gateway.ts, each with
// its page and section): the login page's form in NCHL's order with its TOKEN over NCHL's message, the
// validation's request and token as NCHL's example builds them, and NCHL's answer. The messages are
// built here from the fixtures, never from the connector's code; the tokens are checked with the
// certificate's public key, as NCHL checks them.
import { verify } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { answering, attemptToStart } from '../../../test/connector-harness.js';
import type { ProviderSetup } from '../provider-setup.js';
import { connectipsConnector } from './connectips-connector.js';
import { formTokenMessage, validationTokenMessage } from './connectips-token.js';
import { LOGIN_FORM, LOGIN_PAGE, LOGIN_TOKEN, VALIDATION, VALIDATION_STATUSES } from './fixtures/nchl-gateway.js';
import { certificateKey, makePfx } from './sandbox-certificate.js';

const BASE = 'https://uat.connectips.com';
const PASSPHRASE = 'creditor';
const pfx = makePfx(PASSPHRASE);
const publicKey = certificateKey(pfx, PASSPHRASE);
const setup = {
  name: 'connectips',
  environment: 'test',
  enabled: true,
  sandbox: false,
  settings: { gateway_url: BASE, api_url: BASE, merchant_id: '550', app_id: 'MER-550-APP-1', app_name: 'Test Merchant Name' },
  credentials: { password: 'secret', pfx: pfx.toString('base64'), key_passphrase: PASSPHRASE },
} satisfies ProviderSetup;

/** Signed as NCHL checks: SHA256withRSA over the message, base64. */
const signedOver = (message: string, token: string) => verify('sha256', Buffer.from(message, 'utf8'), publicKey, Buffer.from(token, 'base64'));

/** NCHL's message for a form: its fields in NCHL's published order as NAME=value, then TOKEN=TOKEN. */
const nchlLoginMessage = (fields: Record<string, string>) =>
  [...LOGIN_PAGE.parameters.filter((p) => p.name !== 'TOKEN').map((p) => `${p.name}=${fields[p.name]}`), 'TOKEN=TOKEN'].join(',');


// 15 March 2022 in Nepal (UTC+5:45) although still the 14th in UTC.
const attempt = (idx: string, amount: number) => attemptToStart({ idx, amount, createdAt: new Date('2022-03-14T19:00:00Z'), orderName: 'RMKS-001', merchantName: 'PART-001' });

describe('the token’s message', () => {
  it('is NCHL’s example, character for character', () => {
    expect(nchlLoginMessage(LOGIN_TOKEN.fields)).toBe(LOGIN_TOKEN.message);
    expect(formTokenMessage(LOGIN_TOKEN.fields)).toBe(LOGIN_TOKEN.message);
  });

  it('the validation’s is NCHL’s example', () => {
    expect(validationTokenMessage({ merchantId: '550', appId: 'MER-550-APP-1', referenceId: 'txn-123', txnAmt: 500 })).toBe(VALIDATION.message);
  });
});

describe('the login page’s form', () => {
  it('posts NCHL’s fields in NCHL’s order, within their lengths, like NCHL’s example, signed over NCHL’s message', async () => {
    const { redirect } = await connectipsConnector(setup, answering({}).transport).start(attempt('txn-123', 500));
    expect(redirect).toMatchObject({ method: 'POST', url: `${BASE}${LOGIN_PAGE.path}` });
    const fields = redirect.method === 'POST' ? redirect.fields : [];
    expect(fields.map(([name]) => name)).toEqual(LOGIN_PAGE.parameters.map((p) => p.name));
    for (const { name, type, length } of LOGIN_PAGE.parameters) {
      const value = fields.find(([n]) => n === name)![1];
      expect(value.length, name).toBeLessThanOrEqual(length);
      if (type === 'Integer') expect(value, name).toMatch(/^\d+$/);
    }
    const sent = Object.fromEntries(fields);
    // NCHL's example request, but for the reference (the connector's is the TXNID, which connectIPS sends back).
    expect({ ...sent, TOKEN: undefined, REFERENCEID: 'REF-001' }).toEqual({ ...Object.fromEntries(LOGIN_FORM.fields), TOKEN: undefined });
    expect(sent.REFERENCEID).toBe(sent.TXNID);
    expect(signedOver(nchlLoginMessage(sent), sent.TOKEN)).toBe(true);
    // Another order of the same fields is another message: the token is over NCHL's.
    expect(signedOver(Object.entries(sent).filter(([n]) => n !== 'TOKEN').reverse().map(([n, v]) => `${n}=${v}`).join(',') + ',TOKEN=TOKEN', sent.TOKEN)).toBe(false);
  });
});

describe('the validation', () => {
  it('asks as NCHL’s example request does, with basic authentication and a token over NCHL’s message', async () => {
    const { asked, transport } = answering(VALIDATION.answer);
    const answer = await connectipsConnector(setup, transport).status(attempt('txn-123', 500));
    expect(asked).toHaveLength(1);
    expect(asked[0]).toMatchObject({ url: `${BASE}${VALIDATION.path}`, method: 'POST' });
    expect(asked[0].headers).toMatchObject({ authorization: `Basic ${Buffer.from(`${VALIDATION.user}:secret`).toString('base64')}`, 'content-type': 'application/json' });
    const body = JSON.parse(asked[0].body!);
    const { token: _published, ...published } = VALIDATION.request;
    expect(Object.keys(body)).toEqual(Object.keys(VALIDATION.request));
    expect({ ...body, token: undefined }).toEqual({ ...published, token: undefined });
    expect(signedOver(VALIDATION.message, body.token)).toBe(true);
    expect(answer).toEqual({ kind: 'paid', transactionId: 'txn-123', fee: 0, detail: 'connectIPS: SUCCESS (TRANSACTION SUCESSFULL)' });
  });

  // SUCCESS is paid; FAILED is not paid (yet: the payer may still be on connectIPS's pages); ERROR is undecided.
  const meaning = { SUCCESS: 'paid', FAILED: 'open', ERROR: 'unknown' } as const;

  it.each(VALIDATION_STATUSES.statuses)('%s, in NCHL’s answer', async (status) => {
    const answer = await connectipsConnector(setup, answering({ ...VALIDATION.answer, status }).transport).status(attempt('txn-123', 500));
    expect(answer.kind).toBe(meaning[status]);
  });

  it('NCHL’s SUCCESS for another amount, or another TXNID, is not a payment', async () => {
    expect((await connectipsConnector(setup, answering(VALIDATION.answer).transport).status(attempt('txn-123', 501))).kind).toBe('unknown');
    expect((await connectipsConnector(setup, answering(VALIDATION.answer).transport).status(attempt('txn-124', 500))).kind).toBe('unknown');
  });
});
