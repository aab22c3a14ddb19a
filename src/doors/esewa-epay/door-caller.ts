// Who a request of eSewa's door speaks for: the product code's merchant and environment, within the
// API's per-key rate limit applied per product code (RATE_LIMIT_LIVE or RATE_LIMIT_TEST requests a
// second; more are 429 in eSewa's shape).
import type { AppContext } from '../../context.js';
import type { EsewaCaller, EsewaCredentialResolver } from '../../merchants/esewa-credentials.js';
import { refusal, unknownProductCode } from './esewa-errors.js';

/**
 * Counts a request against its product code's limit, whether or not the code exists: the answers
 * that take no key (the status check, v1's verification) then tell nobody which codes exist. A code
 * says its environment (`BK-LIVE-…`); any other is held to the test limit, as EPAYTEST is.
 */
export async function withinDoorLimit(ctx: AppContext, productCode: string): Promise<void> {
  const limit = productCode.startsWith('BK-LIVE-') ? ctx.config.rateLimitLive : ctx.config.rateLimitTest;
  const decision = await ctx.limiter.hit(`esewa:${productCode}`, limit, 1000);
  if (!decision.allowed) throw refusal('Request was throttled.', 429, { 'retry-after': String(decision.retryAfterSeconds) });
}

/** The code's caller, once the request is within the code's limit; undefined for a code nobody has. */
export async function doorCaller(ctx: AppContext, resolve: EsewaCredentialResolver, productCode: string): Promise<EsewaCaller | undefined> {
  await withinDoorLimit(ctx, productCode);
  return resolve(productCode);
}

/** A form's caller: eSewa's merchant-key error for a code nobody has. */
export async function formCaller(ctx: AppContext, resolve: EsewaCredentialResolver, productCode: string): Promise<EsewaCaller> {
  const caller = await doorCaller(ctx, resolve, productCode);
  if (!caller) throw unknownProductCode();
  return caller;
}
