// Where the limits apply: per API key (live and test separately), per client IP on the MPIN/OTP
// and log-in posts. Over the limit: 429 with Retry-After, in the contract's error shape (JSON for
// the API; the pages show a message).
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Config } from '../config.js';
import { AppError } from './errors.js';
import type { RateLimiter } from './rate-limiter.js';

export function apiRateLimit(limiter: RateLimiter, config: Pick<Config, 'rateLimitLive' | 'rateLimitTest'>) {
  return async (request: FastifyRequest) => {
    const caller = request.caller;
    if (!caller) return;
    const limit = caller.environment === 'live' ? config.rateLimitLive : config.rateLimitTest;
    const decision = await limiter.hit(`key:${caller.keyId}`, limit, 1000);
    if (!decision.allowed) throw new AppError('rate_limited', { headers: { 'retry-after': String(decision.retryAfterSeconds) } });
  };
}

/** For form posts by people: false (and Retry-After set) when this IP is over `perMinute`. */
export async function withinIpLimit(limiter: RateLimiter, request: FastifyRequest, reply: FastifyReply, scope: string, perMinute: number): Promise<boolean> {
  const decision = await limiter.hit(`${scope}:${request.ip}`, perMinute, 60_000);
  if (!decision.allowed) reply.header('retry-after', String(decision.retryAfterSeconds));
  return decision.allowed;
}
