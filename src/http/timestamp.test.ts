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
  it('changes offset at a daylight-saving transition, also one in the middle of an hour', () => {
    expect(formatTimestamp(new Date('2026-03-08T06:59:59.999Z'), 'America/New_York')).toBe('2026-03-08T01:59:59.999000-05:00');
    expect(formatTimestamp(new Date('2026-03-08T07:00:00.000Z'), 'America/New_York')).toBe('2026-03-08T03:00:00.000000-04:00');
    // Lord Howe Island moves from +10:30 to +11:00 at 15:30 UTC.
    expect(formatTimestamp(new Date('2026-10-03T15:29:59.000Z'), 'Australia/Lord_Howe')).toBe('2026-10-04T01:59:59.000000+10:30');
    expect(formatTimestamp(new Date('2026-10-03T15:30:00.000Z'), 'Australia/Lord_Howe')).toBe('2026-10-04T02:30:00.000000+11:00');
    expect(formatTimestamp(new Date('2026-10-03T15:00:00.000Z'), 'Australia/Lord_Howe')).toBe('2026-10-04T01:30:00.000000+10:30');
  });
});
