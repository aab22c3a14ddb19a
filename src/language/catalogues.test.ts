// The payer's catalogues: Nepali has every message English has and no other (the type check says
// so too: ne.ts is typed as en.ts's `Messages`), each message says something in its own language,
// and a message taken out of either catalogue is caught.
import { describe, expect, it } from 'vitest';
import { messages, type Tree } from '../../test/catalogue-messages.js';
import { en } from './en.js';
import { ne } from './ne.js';

/** The paths one catalogue has and the other lacks, each way. */
function missing(a: Tree, b: Tree) {
  const left = messages(a);
  const right = messages(b);
  return { fromSecond: [...left.keys()].filter((k) => !right.has(k)), fromFirst: [...right.keys()].filter((k) => !left.has(k)) };
}

// Said the same in both: the names payers know (MPIN and OTP in both), and examples of what they type.
const SAME_IN_BOTH = new Set(['layout.testMode', 'checkout.mpin', 'checkout.otp', 'checkout.steps.otp', 'checkout.mobilePlaceholder']);

describe('the payer’s catalogues', () => {
  it('have the same messages, English and Nepali', () => {
    expect(missing(en, ne)).toEqual({ fromSecond: [], fromFirst: [] });
    expect(messages(en).size).toBeGreaterThan(150);
  });

  it('catch a message missing from either one', () => {
    const { pay: _pay, hoursMinutes: _hoursMinutes, ...checkout } = ne.checkout;
    const withoutPay = { ...ne, checkout } as unknown as Tree;
    expect(missing(en, withoutPay).fromSecond).toEqual(['checkout.hoursMinutes', 'checkout.pay']);
    const withoutTitle = { ...en, receipt: { ...en.receipt, Completed: { message: en.receipt.Completed.message } } } as unknown as Tree;
    expect(missing(withoutTitle, ne).fromFirst).toEqual(['receipt.Completed.title']);
  });

  it('say something in each message, Nepali in Devanagari and not a copy of the English', () => {
    const english = messages(en);
    for (const [path, said] of messages(ne)) {
      expect(said.trim(), path).not.toBe('');
      expect(said, path).not.toMatch(/undefined|NaN|\[object/);
      expect(english.get(path)!.trim(), path).not.toBe('');
      if (SAME_IN_BOTH.has(path)) continue;
      expect(said, `${path} is not in Devanagari`).toMatch(/[\u0900-\u097f]/);
      expect(said, `${path} is the English message`).not.toBe(english.get(path));
    }
  });

  it('keep the hosted page’s labels (Mobile, MPIN, OTP) and buttons (Pay, Confirm, Cancel) in English, and MPIN and OTP in Nepali too', () => {
    expect([en.checkout.mobile, en.checkout.mpin, en.checkout.otp, en.checkout.pay, en.checkout.confirm, en.checkout.cancel]).toEqual(['Mobile number', 'MPIN', 'OTP', 'Pay', 'Confirm', 'Cancel']);
    expect([ne.checkout.mpin, ne.checkout.otp]).toEqual(['MPIN', 'OTP']);
  });

  it('write counts in each language’s digits', () => {
    expect(en.payerErrors.attemptsLeft(1)).toBe('1 attempt left.');
    expect(en.payerErrors.attemptsLeft(2)).toBe('2 attempts left.');
    expect(ne.payerErrors.attemptsLeft(2)).toBe('अझै २ पटक प्रयास गर्न सकिन्छ।');
    expect(ne.checkout.hoursMinutes(1, 5)).toBe('१ घण्टा ५ मिनेट');
    expect(ne.payerErrors.lockedFor(15)).toContain('१५ मिनेटपछि');
  });
});
