// Who a request of eSewa's door speaks for: the product code's merchant and environment, within the
// API's per-key rate limit applied per product code (RATE_LIMIT_LIVE or RATE_LIMIT_TEST requests a
// second; more are 429 in eSewa's shape).
import type { AppContext } from '../../context.js';
import type { EsewaCaller, EsewaCredentialResolver } from '../../merchants/esewa-credentials.js';
import { refusal, unknownProductCode } from './esewa-errors.js';

export async function withinDoorLimit(ctx: AppContext, caller: EsewaCaller): Promise<void> {
  const limit = caller.environment === 'live' ? ctx.config.rateLimitLive : ctx.config.rateLimitTest;
  const decision = await ctx.limiter.hit(`esewa:${caller.productCode}`, limit, 1000);
  if (!decision.allowed) throw refusal('Request was throttled.', 429, { 'retry-after': String(decision.retryAfterSeconds) });
}

/** A form's caller: eSewa's merchant-key error for a code nobody has. */
export async function formCaller(ctx: AppContext, resolve: EsewaCredentialResolver, productCode: string): Promise<EsewaCaller> {
  const caller = await resolve(productCode);
  if (!caller) throw unknownProductCode();
  await withinDoorLimit(ctx, caller);
  return caller;
}
