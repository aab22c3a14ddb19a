// The `data` the eSewa door adds to its redirects, pure: signed over its own signed_field_names.
import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { SUCCESS_DATA } from '../../providers/esewa/fixtures/epay-v2.js';
import { readResultData, resultData, resultDataVerified, signResult } from './result-data.js';

const KEY = '8gBm/:&EnhH.1/q';

describe('data', () => {
  it('carries the result and its own signature over signed_field_names, itself included', () => {
    const result = { transaction_code: '000AWEO', status: 'COMPLETE', total_amount: '1000.0', transaction_uuid: '250610-162413', product_code: 'EPAYTEST' } as const;
    const signed = signResult(KEY, result);
    expect(signed.signed_field_names).toBe('transaction_code,status,total_amount,transaction_uuid,product_code,signed_field_names');
    const message = `transaction_code=000AWEO,status=COMPLETE,total_amount=1000.0,transaction_uuid=250610-162413,product_code=EPAYTEST,signed_field_names=${signed.signed_field_names}`;
    expect(signed.signature).toBe(createHmac('sha256', KEY).update(message).digest('base64'));
    // eSewa's own published data for this result carries the same signature.
    expect(signed.signature).toBe(SUCCESS_DATA.fields.signature);
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
