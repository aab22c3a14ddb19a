// The merchant chooses its automatic payouts for the environment it is looking at: none, daily, or
// weekly on a day, with a minimum. A change starts from today: no period before it falls due.
import type { AppContext } from '../context.js';
import type { Environment } from '../environment.js';
import { AppError, type FieldErrors } from '../http/errors.js';
import { localDay } from '../local-days.js';
import { deletePayoutSchedule, savePayoutSchedule } from './payout-schedule-store.js';

export interface ScheduleChoice {
  frequency: 'none' | 'daily' | 'weekly';
  /** 0 (Sunday) … 6 (Saturday); required for weekly. */
  weekday?: number;
  /** Paisa; undefined when what was typed is not an amount. */
  minimumAmount: number | undefined;
}

export async function choosePayoutSchedule(ctx: AppContext, options: { merchantId: number; environment: Environment; choice: ScheduleChoice }): Promise<void> {
  const { frequency, weekday, minimumAmount } = options.choice;
  if (frequency === 'none') return deletePayoutSchedule(ctx.db, options.merchantId, options.environment);
  const fields: FieldErrors = {};
  if (frequency !== 'daily' && frequency !== 'weekly') fields.frequency = ['Choose none, daily or weekly.'];
  if (frequency === 'weekly' && !(Number.isInteger(weekday) && weekday! >= 0 && weekday! <= 6)) fields.weekday = ['Choose the day of the week.'];
  if (minimumAmount === undefined || minimumAmount < 0 || minimumAmount > ctx.config.maxAmountPaisa) fields.minimum_amount = ['Enter an amount in rupees, e.g. 5000 or 5,000.00 (0 for any amount).'];
  if (Object.keys(fields).length) throw new AppError('validation_error', { fields });
  const now = ctx.clock.now();
  await savePayoutSchedule(
    ctx.db,
    options.environment,
    { merchantId: options.merchantId, frequency, weekday: frequency === 'weekly' ? weekday! : null, minimumAmount: minimumAmount!, startsOn: localDay(now, ctx.config.timeZone) },
    now,
  );
}
