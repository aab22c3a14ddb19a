import type { Clock, IdSource } from './clock.js';
import type { Config } from './config.js';
import type { Db } from './db/db.js';
import type { Metrics } from './http/metrics.js';
import type { Mailer } from './mail/mailer.js';
import type { RateLimiter } from './http/rate-limiter.js';
import type { OtpSender } from './wallets/otp-sender.js';

/** What every use case may need: the store, the time, randomness and configuration. */
export interface AppContext {
  db: Db;
  clock: Clock;
  ids: IdSource;
  config: Config;
  otp: OtpSender;
  metrics: Metrics;
  limiter: RateLimiter;
  mailer: Mailer;
}
