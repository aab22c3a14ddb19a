import { expect, it } from 'vitest';
import { formatRupees } from './money.js';

it('formats paisa as rupees with grouping and two decimals', () => {
  expect(formatRupees(123456)).toBe('Rs. 1,234.56');
  expect(formatRupees(10)).toBe('Rs. 0.10');
  expect(formatRupees(100_000_000)).toBe('Rs. 1,000,000.00');
  expect(formatRupees(-2505)).toBe('-Rs. 25.05');
});
