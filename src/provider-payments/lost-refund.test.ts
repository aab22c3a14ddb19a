// When a refund's answer was lost, what the provider's record decides (lost-refund.ts): each way a
// record can read, with amounts (Bhuktani's lookup) and without (Khalti's: only its status and
// `refunded`). The end-to-end cases, through a proxy losing the answers: khalti/khalti-upstream.test.ts.
import { describe, expect, it } from 'vitest';
import { refundedRecord } from '../providers/khalti/transformers.js';
import { lostRefundMade } from './lost-refund.js';

const record = (any: boolean, whole: boolean, amount?: number) => ({ kind: 'record' as const, any, whole, amount, detail: 'lookup' });
const refund = { amount: 1000, paid: 5000, before: 0, othersInDoubt: false };

describe('a lost refund, by the provider’s record', () => {
  it.each([
    ['no refund at all, none known before', record(false, false), refund, 'not made'],
    ['no refund at all, one known before', record(false, false), { ...refund, before: 500 }, 'cannot tell'],
    ['partly refunded, none known before', record(true, false), refund, 'made'],
    ['partly refunded, one known before', record(true, false), { ...refund, before: 500 }, 'cannot tell'],
    ['partly refunded, another in doubt', record(true, false), { ...refund, othersInDoubt: true }, 'cannot tell'],
    ['refunded in whole, this the rest', record(true, true), { ...refund, before: 4000 }, 'made'],
    ['refunded in whole, this not the rest', record(true, true), refund, 'cannot tell'],
    ['amounts: what was known', record(true, false, 500), { ...refund, before: 500 }, 'not made'],
    ['amounts: what was known, others in doubt', record(true, false, 500), { ...refund, before: 500, othersInDoubt: true }, 'not made'],
    ['amounts: that and this one', record(true, false, 1500), { ...refund, before: 500 }, 'made'],
    ['amounts: that and this one, others in doubt', record(true, false, 1500), { ...refund, before: 500, othersInDoubt: true }, 'cannot tell'],
    ['amounts: something else', record(true, false, 2000), { ...refund, before: 500 }, 'cannot tell'],
  ] as const)('%s', (_, given, inDoubt, made) => {
    expect(lostRefundMade(given, inDoubt)).toBe(made);
  });
});

describe('Khalti’s lookup read as a record of refunds', () => {
  // The lookup's documented answers (docs.khalti.com, Web Checkout, "Payment Verification (Lookup)").
  const json = (body: unknown) => ({ status: 200, contentType: 'application/json', text: JSON.stringify(body) });
  const expected = { pidx: 'HT6o6PEZRWFJ5ygavzHWd5', amount: 1000 };
  const completed = { pidx: 'HT6o6PEZRWFJ5ygavzHWd5', total_amount: 1000, status: 'Completed', transaction_id: 'GFq9PFS7b2iYvL8Lir9oXe', fee: 0, refunded: false };

  it('reads Completed, Refunded and Partially refunded; anything else, or another payment, is unknown', () => {
    expect(refundedRecord(json(completed), expected)).toMatchObject({ kind: 'record', any: false, whole: false });
    expect(refundedRecord(json({ ...completed, status: 'Refunded', refunded: true }), expected)).toMatchObject({ kind: 'record', any: true, whole: true, amount: 1000 });
    expect(refundedRecord(json({ ...completed, status: 'Partially Refunded', refunded: true }), expected)).toMatchObject({ kind: 'record', any: true, whole: false, amount: undefined });
    expect(refundedRecord(json({ ...completed, status: 'Partially refunded', refunded: true, refunded_amount: 400 }), expected)).toMatchObject({ kind: 'record', amount: 400 });
    expect(refundedRecord(json({ ...completed, status: 'Refunded', refunded: false }), expected)).toMatchObject({ kind: 'unknown' });
    expect(refundedRecord(json({ ...completed, refunded_amount: 300 }), expected)).toMatchObject({ kind: 'unknown' });
    expect(refundedRecord(json({ ...completed, pidx: 'another' }), expected)).toMatchObject({ kind: 'unknown' });
    expect(refundedRecord(json({ ...completed, status: 'Pending' }), expected)).toMatchObject({ kind: 'unknown' });
  });
});
