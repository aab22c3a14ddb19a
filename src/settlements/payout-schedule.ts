// A merchant's automatic payouts: none, daily, or weekly on a day of its choice, each only when the
// available balance reaches a minimum. Pure rules: which period is due now, in TIME_ZONE's days, so
// "daily" means the merchant's calendar day whatever the server's zone.
import { addDays, localDay } from '../local-days.js';

export const payoutFrequencies = ['daily', 'weekly'] as const;
export type PayoutFrequency = (typeof payoutFrequencies)[number];

/** Sunday first, as `Date.getUTCDay()` counts them. */
export const weekdays = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'] as const;

export interface PayoutSchedule {
  merchantId: number;
  frequency: PayoutFrequency;
  /** 0 (Sunday) … 6 (Saturday); only for weekly. */
  weekday: number | null;
  /** Paisa: no payout while the available balance is below it (0: any amount). */
  minimumAmount: number;
  /** The day the schedule was chosen: no period before it is due (a weekly schedule chosen on a Wednesday waits for its day). */
  startsOn: string;
}

const weekdayOf = (day: string) => new Date(`${day}T00:00:00Z`).getUTCDay();

/**
 * The period due at `now`, named by the local day it starts (`YYYY-MM-DD`), or undefined before the
 * schedule's first. Daily: today. Weekly: the latest chosen weekday up to today, so a run missed on
 * that day (the server was down) still pays later in the week, once.
 */
export function duePeriod(schedule: Pick<PayoutSchedule, 'frequency' | 'weekday' | 'startsOn'>, now: Date, timeZone: string): string | undefined {
  const today = localDay(now, timeZone);
  const start = schedule.frequency === 'daily' ? today : addDays(today, -((weekdayOf(today) - (schedule.weekday ?? 0) + 7) % 7));
  return start >= schedule.startsOn ? start : undefined;
}

/** What the merchant reads: `Daily`, `Weekly on Friday`, with the minimum when there is one. */
export function describeSchedule(schedule: Pick<PayoutSchedule, 'frequency' | 'weekday'>): string {
  return schedule.frequency === 'daily' ? 'Daily' : `Weekly on ${weekdays[schedule.weekday ?? 0]}`;
}
