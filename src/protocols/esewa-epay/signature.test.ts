// eSewa's signature, pure: eSewa's published vectors (the form's, and the returned data's), the
// order of signed_field_names, and a comparison that refuses anything but a real signature.
import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { FORM, INPUT_EXAMPLE, SUCCESS_DATA, UAT } from '../../providers/esewa/fixtures/epay-v2.js';
import { esewaSignature, REQUIRED_SIGNED_FIELDS, signatureMatches, signedBy, signedFieldNames, signedMessage, signFields } from './signature.js';

const KEY = UAT.secret_key;
const form = Object.fromEntries(FORM.fields) as Record<string, string>;

describe('the signature', () => {
  it('is eSewa’s published form vector', () => {
    expect(signedMessage(form, signedFieldNames(form.signed_field_names))).toBe(FORM.message);
    expect(esewaSignature(KEY, FORM.message)).toBe(form.signature);
    expect(signFields(KEY, form, REQUIRED_SIGNED_FIELDS)).toBe(form.signature);
    expect(signatureMatches([KEY], FORM.message, form.signature)).toBe(true);
    expect(signedBy([KEY], form)).toBe(true);
  });

  it('is eSewa’s published data vector: signed_field_names signs itself, and the total as eSewa wrote it (1000.0)', () => {
    const data = SUCCESS_DATA.fields;
    expect(signedBy([KEY], data)).toBe(true);
    expect(signFields(KEY, data, signedFieldNames(data.signed_field_names))).toBe(data.signature);
    // The same amount written otherwise is another message.
    expect(signedBy([KEY], { ...data, total_amount: '1000' })).toBe(false);
    expect(signedBy([KEY], { ...data, total_amount: '1000.00' })).toBe(false);
  });

  it('the page’s first “Input … Result” example is not a vector: its result is not of its input', () => {
    expect(esewaSignature(KEY, INPUT_EXAMPLE.message)).not.toBe(INPUT_EXAMPLE.printedResult);
  });

  it('follows signed_field_names’ order: the same fields in another order sign something else', () => {
    expect(signedMessage(form, ['product_code', 'total_amount', 'transaction_uuid'])).toBe('product_code=EPAYTEST,total_amount=110,transaction_uuid=241028');
    expect(signFields(KEY, form, ['product_code', 'total_amount', 'transaction_uuid'])).not.toBe(form.signature);
    expect(signedBy([KEY], { ...form, signed_field_names: 'product_code,total_amount,transaction_uuid' })).toBe(false);
  });

  it('matches under any of the keys given (a rotation’s grace period), never under another', () => {
    expect(signatureMatches(['another key', KEY], FORM.message, form.signature)).toBe(true);
    expect(signatureMatches(['another key'], FORM.message, form.signature)).toBe(false);
    expect(signatureMatches([], FORM.message, form.signature)).toBe(false);
  });

  it('signedBy wants both signed_field_names and a signature', () => {
    const { signature: _signature, ...unsigned } = form;
    expect(signedBy([KEY], unsigned)).toBe(false);
    expect(signedBy([KEY], { ...form, signed_field_names: '' })).toBe(false);
  });

  it.each([
    ['another message', form.signature, 'total_amount=111,transaction_uuid=241028,product_code=EPAYTEST'],
    ['base64url instead of base64', form.signature.replaceAll('/', '_'), FORM.message],
    ['no padding', form.signature.slice(0, -1), FORM.message],
    ['surrounding space', ` ${form.signature}`, FORM.message],
    ['a character outside base64', `${form.signature.slice(0, 10)}!${form.signature.slice(11)}`, FORM.message],
    ['hex', createHmac('sha256', KEY).update(FORM.message).digest('hex'), FORM.message],
    ['the empty string', '', FORM.message],
    ['a longer digest', createHmac('sha512', KEY).update(FORM.message).digest('base64'), FORM.message],
  ])('refuses %s', (_what, signature, message) => {
    expect(signatureMatches([KEY], message, signature)).toBe(false);
  });
});
