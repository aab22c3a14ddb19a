// What the home page shows, read for one merchant and environment: the balance, today's and this
// month's completed volume, and 30 days of daily volume, with days in TIME_ZONE.
import type { AppContext } from '../context.js';
import { merchantBalance } from '../ledger/merchant-balance.js';
import type { Environment } from '../environment.js';
import { dailyPaymentVolume, type DailyVolume } from '../transactions/payment-volume.js';
import { addDays, daysFrom, localDay, monthStart } from '../local-days.js';

export const CHART_DAYS = 30;

export interface HomeFigures {
  today: string;
  balance: number;
  todayVolume: DailyVolume;
  monthVolume: { amount: number; count: number };
  /** CHART_DAYS points, oldest first, the last one today; days without payments are zero. */
  daily: DailyVolume[];
}

export async function readHomeFigures(ctx: AppContext, options: { merchantId: number; environment: Environment }): Promise<HomeFigures> {
  const today = localDay(ctx.clock.now(), ctx.config.timeZone);
  const chartStart = addDays(today, -(CHART_DAYS - 1));
  const firstOfMonth = monthStart(today);
  const fromDay = firstOfMonth < chartStart ? firstOfMonth : chartStart;
  const [balance, volumes] = await Promise.all([
    merchantBalance(ctx.db, options),
    dailyPaymentVolume(ctx.db, { ...options, fromDay, toDay: today, timeZone: ctx.config.timeZone }),
  ]);
  const byDay = new Map(volumes.map((v) => [v.day, v]));
  const dayVolume = (day: string): DailyVolume => byDay.get(day) ?? { day, amount: 0, count: 0 };
  const month = volumes.filter((v) => v.day >= firstOfMonth);
  return {
    today,
    balance,
    todayVolume: dayVolume(today),
    monthVolume: { amount: month.reduce((s, v) => s + v.amount, 0), count: month.reduce((s, v) => s + v.count, 0) },
    daily: daysFrom(chartStart, today).map(dayVolume),
  };
}
