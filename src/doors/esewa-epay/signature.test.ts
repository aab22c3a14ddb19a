// eSewa's signature and the `data` it signs (contract section 12), pure: the published test vector,
// the order of signed_field_names, and a comparison that refuses anything but a real signature.
import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { readResultData, resultData, resultDataVerified, signResult } from './result-data.js';
import { esewaSignature, signatureMatches, signedMessage, signFields } from './signature.js';

const KEY = '8gBm/:&EnhH.1/q';
const VECTOR = { message: 'total_amount=110,transaction_uuid=241028,product_code=EPAYTEST', signature: 'i94zsd3oXF6ZsSr/kGqT4sSzYQzjj1W/waxjWyRwaME=' };

describe('the signature', () => {
  it('is the published test vector', () => {
    expect(signedMessage({ total_amount: '110', transaction_uuid: '241028', product_code: 'EPAYTEST', amount: '100' }, ['total_amount', 'transaction_uuid', 'product_code'])).toBe(VECTOR.message);
    expect(esewaSignature(KEY, VECTOR.message)).toBe(VECTOR.signature);
    expect(signFields(KEY, { product_code: 'EPAYTEST', total_amount: '110', transaction_uuid: '241028' }, ['total_amount', 'transaction_uuid', 'product_code'])).toBe(VECTOR.signature);
    expect(signatureMatches([KEY], VECTOR.message, VECTOR.signature)).toBe(true);
  });

  it('follows signed_field_names’ order: the same fields in another order sign something else', () => {
    const fields = { total_amount: '110', transaction_uuid: '241028', product_code: 'EPAYTEST' };
    expect(signedMessage(fields, ['product_code', 'total_amount', 'transaction_uuid'])).toBe('product_code=EPAYTEST,total_amount=110,transaction_uuid=241028');
    expect(signFields(KEY, fields, ['product_code', 'total_amount', 'transaction_uuid'])).not.toBe(VECTOR.signature);
  });

  it('matches under any of the keys given (a rotation’s grace period), never under another', () => {
    expect(signatureMatches(['another key', KEY], VECTOR.message, VECTOR.signature)).toBe(true);
    expect(signatureMatches(['another key'], VECTOR.message, VECTOR.signature)).toBe(false);
    expect(signatureMatches([], VECTOR.message, VECTOR.signature)).toBe(false);
  });

  it.each([
    ['another message', VECTOR.signature, 'total_amount=111,transaction_uuid=241028,product_code=EPAYTEST'],
    ['base64url instead of base64', VECTOR.signature.replaceAll('/', '_'), VECTOR.message],
    ['no padding', VECTOR.signature.slice(0, -1), VECTOR.message],
    ['surrounding space', ` ${VECTOR.signature}`, VECTOR.message],
    ['a character outside base64', `${VECTOR.signature.slice(0, 10)}!${VECTOR.signature.slice(11)}`, VECTOR.message],
    ['hex', createHmac('sha256', KEY).update(VECTOR.message).digest('hex'), VECTOR.message],
    ['the empty string', '', VECTOR.message],
    ['a longer digest', createHmac('sha512', KEY).update(VECTOR.message).digest('base64'), VECTOR.message],
  ])('refuses %s', (_what, signature, message) => {
    expect(signatureMatches([KEY], message, signature)).toBe(false);
  });
});

describe('data', () => {
  it('carries the result and its own signature over signed_field_names, itself included', () => {
    const result = { transaction_code: '000AWEO', status: 'COMPLETE', total_amount: '1000.0', transaction_uuid: '250610-162413', product_code: 'EPAYTEST' } as const;
    const signed = signResult(KEY, result);
    expect(signed.signed_field_names).toBe('transaction_code,status,total_amount,transaction_uuid,product_code,signed_field_names');
    const message = `transaction_code=000AWEO,status=COMPLETE,total_amount=1000.0,transaction_uuid=250610-162413,product_code=EPAYTEST,signed_field_names=${signed.signed_field_names}`;
    expect(signed.signature).toBe(createHmac('sha256', KEY).update(message).digest('base64'));
    const data = resultData(KEY, result);
    expect(readResultData(data)).toEqual(signed);
    expect(resultDataVerified([KEY], data)).toBe(true);
    expect(resultDataVerified(['another key'], data)).toBe(false);
  });

  it('without a transaction code when nothing was paid', () => {
    const signed = signResult(KEY, { status: 'CANCELED', total_amount: '110.0', transaction_uuid: 'x-1', product_code: 'EPAYTEST' });
    expect(signed.signed_field_names).toBe('status,total_amount,transaction_uuid,product_code,signed_field_names');
    expect('transaction_code' in signed).toBe(false);
  });

  it('a tampered data does not verify; what is not data reads as nothing', () => {
    const data = resultData(KEY, { transaction_code: 'abc', status: 'COMPLETE', total_amount: '110.0', transaction_uuid: 'x-1', product_code: 'EPAYTEST' });
    const fields = readResultData(data)!;
    const tampered = Buffer.from(JSON.stringify({ ...fields, total_amount: '1.0' })).toString('base64');
    expect(resultDataVerified([KEY], tampered)).toBe(false);
    for (const junk of ['', 'not base64!', Buffer.from('[1,2]').toString('base64'), Buffer.from('{"a":1}').toString('base64')]) {
      expect(resultDataVerified([KEY], junk)).toBe(false);
    }
  });
});
