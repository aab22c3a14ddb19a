import { describe, expect, it } from 'vitest';
import { formatAmount, formatNumber } from './amounts.js';

describe('amounts on the payer’s pages', () => {
  it('group by lakh and crore in English', () => {
    expect(formatAmount(10_000_000, 'en')).toBe('Rs. 1,00,000.00');
    expect(formatAmount(123_456, 'en')).toBe('Rs. 1,234.56');
    expect(formatAmount(1_234_567_805, 'en')).toBe('Rs. 1,23,45,678.05');
    expect(formatAmount(10, 'en')).toBe('Rs. 0.10');
    expect(formatAmount(-2505, 'en')).toBe('-Rs. 25.05');
  });

  it('are written with Devanagari digits and रु. in Nepali, grouped the same (Node’s ICU, ne-NP)', () => {
    expect(formatAmount(10_000_000, 'ne')).toBe('रु. १,००,०००.००');
    expect(formatAmount(123_456, 'ne')).toBe('रु. १,२३४.५६');
    expect(formatAmount(1_234_567_805, 'ne')).toBe('रु. १,२३,४५,६७८.०५');
    expect(formatAmount(7, 'ne')).toBe('रु. ०.०७');
  });

  it('write plain numbers in the language’s digits', () => {
    expect(formatNumber(3, 'ne')).toBe('३');
    expect(formatNumber(12345, 'ne')).toBe('१२,३४५');
    expect(formatNumber(12345, 'en')).toBe('12,345');
  });
});
