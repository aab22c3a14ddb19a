import { describe, expect, it } from 'vitest';
import { isPrivateAddress, nextAttemptAt, shouldGiveUp } from './delivery-rules.js';

describe('webhook delivery rules', () => {
  it('backs off, then repeats the longest wait', () => {
    const now = new Date('2026-01-01T00:00:00Z');
    expect(nextAttemptAt(1, now).getTime() - now.getTime()).toBe(10_000);
    expect(nextAttemptAt(2, now).getTime() - now.getTime()).toBe(30_000);
    expect(nextAttemptAt(50, now).getTime() - now.getTime()).toBe(8 * 3600_000);
  });
  it('gives up after three days', () => {
    const created = new Date('2026-01-01T00:00:00Z');
    expect(shouldGiveUp(created, new Date('2026-01-03T23:59:59Z'))).toBe(false);
    expect(shouldGiveUp(created, new Date('2026-01-04T00:00:00Z'))).toBe(true);
  });
  it('knows private and loopback addresses', () => {
    for (const ip of ['127.0.0.1', '10.1.2.3', '192.168.1.1', '172.20.0.1', '169.254.169.254', '::1', 'fd00::1', '::ffff:127.0.0.1', '0.0.0.0']) {
      expect(isPrivateAddress(ip), ip).toBe(true);
    }
    for (const ip of ['8.8.8.8', '1.1.1.1', '2606:4700::1111']) expect(isPrivateAddress(ip), ip).toBe(false);
  });
});
