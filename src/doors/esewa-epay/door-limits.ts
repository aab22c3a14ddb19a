// The API's per-key rate limit, per product code on eSewa's door (its one credential), after the
// code is known: RATE_LIMIT_LIVE or RATE_LIMIT_TEST requests a second; more are 429 in eSewa's shape.
import type { AppContext } from '../../context.js';
import type { EsewaCaller } from '../../merchants/esewa-credentials.js';
import { refusal } from './esewa-errors.js';

export async function withinDoorLimit(ctx: AppContext, caller: EsewaCaller): Promise<void> {
  const limit = caller.environment === 'live' ? ctx.config.rateLimitLive : ctx.config.rateLimitTest;
  const decision = await ctx.limiter.hit(`esewa:${caller.productCode}`, limit, 1000);
  if (!decision.allowed) throw refusal('Request was throttled.', 429, { 'retry-after': String(decision.retryAfterSeconds) });
}
