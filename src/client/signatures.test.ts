import { describe, expect, it } from 'vitest';
import { callbackMessage, signCallback, signWebhook, verifyCallback, verifyWebhook } from './signatures.js';

const secret = 'signing_secret_0123456789abcdef0123456789abcdef';
const params = {
  pidx: 'abc',
  transaction_id: 'tx1',
  tidx: 'tx1',
  amount: '1000',
  total_amount: '1000',
  mobile: '98XXXXXXX1',
  status: 'Completed',
  purchase_order_id: 'order 1',
  purchase_order_name: 'Tea & cakes',
};

describe('callback signatures', () => {
  it('sign the documented canonical message', () => {
    expect(callbackMessage(params)).toBe(
      'pidx=abc&transaction_id=tx1&tidx=tx1&amount=1000&total_amount=1000&mobile=98XXXXXXX1&status=Completed&purchase_order_id=order%201&purchase_order_name=Tea%20%26%20cakes',
    );
    // txnId (the real gateway's name for transaction_id) stays outside it: signatures are what they were.
    expect(callbackMessage({ ...params, txnId: 'tx1' })).toBe(callbackMessage(params));
  });
  it('verify, and refuse any change', () => {
    const signature = signCallback(params, secret);
    expect(verifyCallback({ ...params, signature }, secret)).toBe(true);
    expect(verifyCallback({ ...params, amount: '10', signature }, secret)).toBe(false);
    expect(verifyCallback({ ...params, status: 'Pending', signature }, secret)).toBe(false);
    expect(verifyCallback({ ...params, signature }, `${secret}x`)).toBe(false);
    expect(verifyCallback(params, secret)).toBe(false);
    expect(verifyCallback(new URLSearchParams({ ...params, signature }), secret)).toBe(true);
  });
});

describe('webhook signatures', () => {
  it('verify within the tolerance and refuse tampering or replay', () => {
    const now = new Date('2026-11-22T00:00:00Z');
    const t = now.getTime() / 1000;
    const body = '{"id":"evt_1","type":"payment.completed"}';
    const header = signWebhook(body, secret, t);
    expect(header).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/);
    expect(verifyWebhook(body, header, secret, { now })).toBe(true);
    expect(verifyWebhook(body.replace('completed', 'canceled'), header, secret, { now })).toBe(false);
    expect(verifyWebhook(body, header, 'other', { now })).toBe(false);
    expect(verifyWebhook(body, header, secret, { now: new Date(now.getTime() + 301_000) })).toBe(false);
    expect(verifyWebhook(body, undefined, secret, { now })).toBe(false);
  });
});
