import { describe, expect, it } from 'vitest';
import { formatTimestamp } from './timestamp.js';

describe('formatTimestamp', () => {
  it('writes Kathmandu time with microseconds and +05:45', () => {
    expect(formatTimestamp(new Date('2026-11-22T04:20:20.188Z'), 'Asia/Kathmandu')).toBe('2026-11-22T10:05:20.188000+05:45');
  });
  it('handles UTC and negative offsets', () => {
    expect(formatTimestamp(new Date('2026-01-01T00:00:00.000Z'), 'UTC')).toBe('2026-01-01T00:00:00.000000+00:00');
    expect(formatTimestamp(new Date('2026-01-01T00:00:00.005Z'), 'America/New_York')).toBe('2025-12-31T19:00:00.005000-05:00');
  });
});
