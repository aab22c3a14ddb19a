// Counting requests per key in fixed windows. In memory per instance by default; with REDIS_URL the
// count is shared, so a limit holds across several instances behind a load balancer.
import { createRequire } from 'node:module';

// ioredis is loaded when REDIS_URL is set, not on every start (about a tenth of a second of a restart).
const load = createRequire(import.meta.url);

export interface RateDecision {
  allowed: boolean;
  /** Seconds until the window resets, for Retry-After. */
  retryAfterSeconds: number;
}

export interface RateLimiter {
  hit(key: string, limit: number, windowMs: number): Promise<RateDecision>;
  close(): Promise<void>;
}

export function memoryRateLimiter(now: () => number = Date.now): RateLimiter {
  const windows = new Map<string, { start: number; count: number }>();
  let sweptAt = now();
  return {
    async hit(key, limit, windowMs) {
      const t = now();
      // Forget old windows now and then, so the map stays the size of the active keys.
      if (t - sweptAt > 60_000) {
        for (const [k, w] of windows) if (t - w.start > 60_000) windows.delete(k);
        sweptAt = t;
      }
      const start = Math.floor(t / windowMs) * windowMs;
      let window = windows.get(key);
      if (!window || window.start !== start) windows.set(key, (window = { start, count: 0 }));
      window.count += 1;
      return { allowed: window.count <= limit, retryAfterSeconds: Math.max(1, Math.ceil((start + windowMs - t) / 1000)) };
    },
    async close() {},
  };
}

export function redisRateLimiter(url: string, now: () => number = Date.now): RateLimiter {
  const { Redis } = load('ioredis') as typeof import('ioredis');
  const redis = new Redis(url, { maxRetriesPerRequest: 1, commandTimeout: 250, connectTimeout: 1000 });
  redis.on('error', () => {});
  const fallback = memoryRateLimiter(now);
  return {
    async hit(key, limit, windowMs) {
      const t = now();
      const start = Math.floor(t / windowMs) * windowMs;
      const retryAfterSeconds = Math.max(1, Math.ceil((start + windowMs - t) / 1000));
      try {
        const [[, count]] = (await redis.multi().incr(`bhuktani:rl:${key}:${start}`).pexpire(`bhuktani:rl:${key}:${start}`, windowMs + 1000).exec()) as [[null, number]];
        return { allowed: count <= limit, retryAfterSeconds };
      } catch {
        // Redis unreachable: keep limiting, per instance, rather than letting everything through.
        return fallback.hit(key, limit, windowMs);
      }
    },
    async close() {
      redis.disconnect();
    },
  };
}

/** Redis when REDIS_URL is set, else in memory. */
export function rateLimiter(config: { redisUrl?: string }): RateLimiter {
  return config.redisUrl ? redisRateLimiter(config.redisUrl) : memoryRateLimiter();
}
