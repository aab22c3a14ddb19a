import type { Clock, IdSource } from './clock.js';
import type { Config } from './config.js';
import type { Db } from './db/db.js';
import type { Metrics } from './http/metrics.js';
import type { Mailer } from './mail/mailer.js';
import type { RateLimiter } from './http/rate-limiter.js';

/**
 * What every use case may need: the store, the time, randomness and configuration. It names no
 * domain: a room that puts something of its own here declares it onto this interface beside its
 * definition (payments/port.ts: the port to provider payments; wallets/otp-sender.ts: the OTP sender).
 */
export interface AppContext {
  db: Db;
  clock: Clock;
  ids: IdSource;
  config: Config;
  metrics: Metrics;
  limiter: RateLimiter;
  mailer: Mailer;
}
