import { describe, expect, it } from 'vitest';
import { feeFor } from './fee.js';

describe('feeFor', () => {
  it('takes fee_bps basis points of the amount', () => {
    expect(feeFor(100_000, 300)).toBe(3_000);
    expect(feeFor(1000, 0)).toBe(0);
    expect(feeFor(1000, 10000)).toBe(1000);
  });
  it('rounds half up', () => {
    expect(feeFor(50, 300)).toBe(2); // 1.5 → 2
    expect(feeFor(49, 300)).toBe(1); // 1.47 → 1
    expect(feeFor(10, 250)).toBe(0); // 0.25 → 0
    expect(feeFor(10, 500)).toBe(1); // 0.5 → 1
  });
  it('stays exact for large amounts', () => {
    expect(feeFor(9_007_199_254_740, 333)).toBe(299_939_735_183);
  });
});
