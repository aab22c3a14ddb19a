import { describe, expect, it } from 'vitest';
import { cryptoIds } from './clock.js';

describe('cryptoIds', () => {
  it('makes ids of letters and digits, 22 characters for 16 bytes, never the same twice', () => {
    const ids = Array.from({ length: 5000 }, () => cryptoIds.random(16));
    for (const id of ids) expect(id).toMatch(/^[A-Za-z0-9]{22}$/);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('carries at least the asked bytes of randomness', () => {
    expect(cryptoIds.random(9)).toHaveLength(13);
    expect(cryptoIds.random(24)).toHaveLength(33);
  });

  it('uses every letter and digit, equally often', () => {
    const counts = new Map<string, number>();
    for (let i = 0; i < 10_000; i++) for (const c of cryptoIds.random(16)) counts.set(c, (counts.get(c) ?? 0) + 1);
    expect(counts.size).toBe(62);
    // 220,000 characters: each expected 3,548 times, give or take 59. Taking \`byte % 62\` of every
    // byte would make the first 8 characters a quarter likelier (about 4,300 times each).
    for (const n of counts.values()) expect(n).toBeGreaterThan(3200);
    for (const n of counts.values()) expect(n).toBeLessThan(3900);
  });
});
