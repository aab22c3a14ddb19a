import { expect, it } from 'vitest';
import { formatRupees } from './money.js';

it('formats paisa as rupees with two decimals, grouped in lakhs and crores as the payer’s pages group them', () => {
  expect(formatRupees(123456)).toBe('Rs. 1,234.56');
  expect(formatRupees(10)).toBe('Rs. 0.10');
  expect(formatRupees(12_345_650)).toBe('Rs. 1,23,456.50');
  expect(formatRupees(100_000_000)).toBe('Rs. 10,00,000.00');
  expect(formatRupees(-2505)).toBe('-Rs. 25.05');
});
