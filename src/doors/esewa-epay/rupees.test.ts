// Rupees as eSewa's door writes them and reads them: decimal strings, at most two decimals; paisa inside.
import { describe, expect, it } from 'vitest';
import { esewaRupees, paisaOf, rupeesNumber } from './rupees.js';

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

describe('esewaRupees', () => {
  it.each([
    [10000, '100.0'],
    [10050, '100.5'],
    [10005, '100.05'],
    [10, '0.1'],
    [1, '0.01'],
    [123456789, '1234567.89'],
    [10_000_000_000, '100000000.0'],
  ])('%i paisa is %s, as eSewa writes it (one decimal at least, no separator)', (paisa, text) => {
    expect(esewaRupees(paisa)).toBe(text);
    expect(paisaOf(text)).toBe(paisa);
  });

  it('the status check’s number is rupees', () => {
    expect([rupeesNumber(11000), rupeesNumber(10050)]).toEqual([110, 100.5]);
  });
});
