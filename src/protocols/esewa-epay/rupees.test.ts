// Rupees as eSewa writes them in each place, and read back: decimal strings, at most two decimals, or
// the status check's JSON number; paisa inside.
import { describe, expect, it } from 'vitest';
import { FORM, STATUS_ANSWERS, STATUS_REQUEST, SUCCESS_DATA } from '../../providers/esewa/fixtures/epay-v2.js';
import { esewaRupees, paisaOf, paisaOfAnswer, requestRupees, rupeesNumber } from './rupees.js';

describe('paisaOf', () => {
  it.each([
    ['100', 10000],
    ['100.0', 10000],
    ['100.00', 10000],
    ['100.5', 10050],
    ['100.50', 10050],
    ['100.05', 10005],
    ['0.10', 10],
    ['0', 0],
    ['0100', 10000],
    ['9999999999999.99', 999999999999999],
  ])('%s is %i paisa', (text, paisa) => {
    expect(paisaOf(text)).toBe(paisa);
  });

  it.each(['', ' ', '-1', '+1', '1e3', '0x10', '1,000', '100.', '.5', '100.123', '100.5.0', 'NaN', 'Infinity', ' 100', '100 ', '١٠٠', '１００', '10000000000000', '100\n'])(
    'refuses %j',
    (text) => {
      expect(paisaOf(text)).toBeUndefined();
    },
  );
});

describe('each place as eSewa’s examples write it', () => {
  it('the form and the status query: whole rupees bare, as in the published form and testing URL', () => {
    const form = Object.fromEntries(FORM.fields);
    expect(requestRupees(11000)).toBe(form.total_amount);
    expect(requestRupees(10000)).toBe(new URL(STATUS_REQUEST.url).searchParams.get('total_amount'));
    expect([requestRupees(10050), requestRupees(10005), requestRupees(10), requestRupees(0)]).toEqual(['100.50', '100.05', '0.10', '0']);
  });

  it('data: one decimal at least, as in the published data (1000.0)', () => {
    expect(esewaRupees(100000)).toBe(SUCCESS_DATA.fields.total_amount);
  });

  it.each([
    [10000, '100.0'],
    [10050, '100.5'],
    [10005, '100.05'],
    [10, '0.1'],
    [1, '0.01'],
    [123456789, '1234567.89'],
    [10_000_000_000, '100000000.0'],
  ])('data: %i paisa is %s (no separator), and reads back', (paisa, text) => {
    expect(esewaRupees(paisa)).toBe(text);
    expect(paisaOf(text)).toBe(paisa);
  });

  it('the status answer: a JSON number, read as eSewa prints it in each answer', () => {
    expect([rupeesNumber(10000), rupeesNumber(10050)]).toEqual([100, 100.5]);
    for (const answer of Object.values(STATUS_ANSWERS.answers)) expect(paisaOfAnswer(JSON.parse(JSON.stringify(answer)).total_amount)).toBe(answer.total_amount * 100);
    expect(paisaOfAnswer(JSON.parse('{"total_amount": 100.0}').total_amount)).toBe(10000);
    expect(paisaOfAnswer('100.50')).toBe(10050);
  });

  it.each([[-1], [0.001], [Number.NaN], [Infinity], [1e21], [null], [undefined], [{}], ['1,000']])('an answer’s %j is no amount', (value) => {
    expect(paisaOfAnswer(value)).toBeUndefined();
  });
});
