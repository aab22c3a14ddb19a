// Which period of an automatic payout schedule is due: the merchant's calendar day, not the server's.
import { describe, expect, it } from 'vitest';
import { describeSchedule, duePeriod } from './payout-schedule.js';

const KTM = 'Asia/Kathmandu';
// Tuesday 24 Nov 2026, 20:00 UTC: already Wednesday 25 Nov (01:45) in Kathmandu.
const late = new Date('2026-11-24T20:00:00Z');

describe('the due period', () => {
  it('daily: the local day, from the day the schedule was chosen', () => {
    expect(duePeriod({ frequency: 'daily', weekday: null, startsOn: '2026-11-20' }, late, KTM)).toBe('2026-11-25');
    expect(duePeriod({ frequency: 'daily', weekday: null, startsOn: '2026-11-20' }, late, 'UTC')).toBe('2026-11-24');
    expect(duePeriod({ frequency: 'daily', weekday: null, startsOn: '2026-11-26' }, late, KTM)).toBeUndefined();
  });

  it('weekly: the latest chosen weekday up to today, not one before the schedule was chosen', () => {
    // Friday: 20 Nov was the last one before Wednesday 25 Nov.
    expect(duePeriod({ frequency: 'weekly', weekday: 5, startsOn: '2026-11-01' }, late, KTM)).toBe('2026-11-20');
    expect(duePeriod({ frequency: 'weekly', weekday: 5, startsOn: '2026-11-23' }, late, KTM)).toBeUndefined();
    // Wednesday is today in Kathmandu, still Tuesday in UTC.
    expect(duePeriod({ frequency: 'weekly', weekday: 3, startsOn: '2026-11-25' }, late, KTM)).toBe('2026-11-25');
    expect(duePeriod({ frequency: 'weekly', weekday: 3, startsOn: '2026-11-24' }, late, 'UTC')).toBeUndefined();
    expect(duePeriod({ frequency: 'weekly', weekday: 2, startsOn: '2026-11-24' }, late, 'UTC')).toBe('2026-11-24');
    // Sunday counts as 0, a week wraps.
    expect(duePeriod({ frequency: 'weekly', weekday: 0, startsOn: '2026-11-01' }, late, KTM)).toBe('2026-11-22');
  });

  it('says the schedule in words', () => {
    expect(describeSchedule({ frequency: 'daily', weekday: null })).toBe('Daily');
    expect(describeSchedule({ frequency: 'weekly', weekday: 5 })).toBe('Weekly on Friday');
  });
});
