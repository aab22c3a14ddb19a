// Configuration comes only from the environment and is checked once, at start-up, so a bad value
// stops the process with a message that names the variable instead of failing later.

export interface Config {
  port: number;
  host: string;
  publicUrl: string;
  /** `undefined`: PGlite in dataDir; `memory:`: in-memory PGlite; otherwise a PostgreSQL URL. */
  databaseUrl: string | undefined;
  dataDir: string;
  paymentTtlSeconds: number;
  timeZone: string;
  logLevel: string;
  bodyLimitBytes: number;
  maxAmountPaisa: number;
  keyCacheSeconds: number;
  sweepIntervalSeconds: number;
  webhookIntervalMs: number;
  /** Webhooks to private and loopback addresses: `test` (sandbox only, the default), `all` or `none`. */
  webhookPrivateAddresses: 'test' | 'all' | 'none';
  /** Shared counters for rate limits across instances; unset: per instance. */
  redisUrl: string | undefined;
  /** API requests per second per key. */
  rateLimitLive: number;
  rateLimitTest: number;
  /** MPIN/OTP posts per minute per client IP on the hosted page; log-in posts likewise. */
  payerAttemptsPerMinute: number;
  loginAttemptsPerMinute: number;
  /** Honour X-Forwarded-For from a load balancer for the client IP. */
  trustProxy: boolean;
  /** `smtp://` or `smtps://` server for e-mail; unset: e-mails are written to the log. */
  smtpUrl: string | undefined;
  /** The sender of every e-mail (required with SMTP_URL). */
  mailFrom: string;
}

export class ConfigError extends Error {}

type Env = Record<string, string | undefined>;

function integer(env: Env, name: string, fallback: number, min: number, max = Number.MAX_SAFE_INTEGER): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (!/^\d+$/.test(raw.trim())) throw new ConfigError(`${name} must be a whole number, got "${raw}"`);
  const value = Number(raw.trim());
  if (value < min || value > max) throw new ConfigError(`${name} must be between ${min} and ${max}, got ${value}`);
  return value;
}

function httpUrl(name: string, raw: string): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ConfigError(`${name} must be an absolute http(s) URL, got "${raw}"`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new ConfigError(`${name} must be an http(s) URL, got "${raw}"`);
  }
  return raw.replace(/\/+$/, '');
}

function databaseUrl(raw: string | undefined): string | undefined {
  if (raw === undefined || raw === '') return undefined;
  if (raw === 'memory:' || /^postgres(ql)?:\/\//.test(raw)) return raw;
  throw new ConfigError(`DATABASE_URL must be "memory:" or a postgres:// URL, got "${raw}"`);
}

function timeZone(raw: string): string {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: raw });
  } catch {
    throw new ConfigError(`TIME_ZONE must be an IANA time zone such as Asia/Kathmandu, got "${raw}"`);
  }
  return raw;
}

function redisUrl(raw: string | undefined): string | undefined {
  if (raw === undefined || raw === '') return undefined;
  if (!/^rediss?:\/\//.test(raw)) throw new ConfigError(`REDIS_URL must be a redis:// URL, got "${raw}"`);
  return raw;
}

function oneOf<T extends string>(env: Env, name: string, values: readonly T[], fallback: T): T {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (!(values as readonly string[]).includes(raw)) throw new ConfigError(`${name} must be one of ${values.join(', ')}, got "${raw}"`);
  return raw as T;
}

function smtpUrl(raw: string | undefined): string | undefined {
  if (raw === undefined || raw === '') return undefined;
  let url: URL | undefined;
  try {
    url = new URL(raw);
  } catch {
    url = undefined;
  }
  if (!url || (url.protocol !== 'smtp:' && url.protocol !== 'smtps:') || !url.hostname) throw new ConfigError('SMTP_URL must be an smtp:// or smtps:// URL such as smtps://user:password@mail.example.com:465');
  return raw;
}

function mailFrom(raw: string | undefined, smtp: string | undefined): string {
  if (raw === undefined || raw === '') {
    if (smtp) throw new ConfigError('MAIL_FROM must be set with SMTP_URL: the sender of the e-mails, such as "Bhuktani <no-reply@example.com>"');
    return 'Bhuktani <no-reply@localhost>';
  }
  if (!/^[^\r\n<>]*<[^\s@<>]+@[^\s@<>]+>$|^[^\s@<>]+@[^\s@<>]+$/.test(raw.trim())) throw new ConfigError(`MAIL_FROM must be an e-mail address, optionally with a name ("Bhuktani <no-reply@example.com>"), got "${raw}"`);
  return raw.trim();
}

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

export function loadConfig(env: Env = process.env): Config {
  const port = integer(env, 'PORT', 8080, 0, 65535);
  const logLevel = env.LOG_LEVEL || 'info';
  if (!LOG_LEVELS.includes(logLevel)) throw new ConfigError(`LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}, got "${logLevel}"`);
  return {
    port,
    host: env.HOST || '127.0.0.1',
    publicUrl: httpUrl('PUBLIC_URL', env.PUBLIC_URL || `http://localhost:${port}`),
    databaseUrl: databaseUrl(env.DATABASE_URL),
    dataDir: env.DATA_DIR || './data',
    paymentTtlSeconds: integer(env, 'PAYMENT_TTL_SECONDS', 3600, 1),
    timeZone: timeZone(env.TIME_ZONE || 'Asia/Kathmandu'),
    logLevel,
    bodyLimitBytes: integer(env, 'BODY_LIMIT_BYTES', 1024 * 1024, 1024),
    maxAmountPaisa: integer(env, 'MAX_AMOUNT_PAISA', 10_000_000_000, 10, Number.MAX_SAFE_INTEGER),
    keyCacheSeconds: integer(env, 'KEY_CACHE_SECONDS', 5, 0, 300),
    sweepIntervalSeconds: integer(env, 'SWEEP_INTERVAL_SECONDS', 30, 1),
    webhookIntervalMs: integer(env, 'WEBHOOK_INTERVAL_MS', 1000, 10),
    webhookPrivateAddresses: oneOf(env, 'WEBHOOK_PRIVATE_ADDRESSES', ['test', 'all', 'none'] as const, 'test'),
    redisUrl: redisUrl(env.REDIS_URL),
    rateLimitLive: integer(env, 'RATE_LIMIT_LIVE', 100, 1),
    rateLimitTest: integer(env, 'RATE_LIMIT_TEST', 25, 1),
    payerAttemptsPerMinute: integer(env, 'PAYER_ATTEMPTS_PER_MINUTE', 30, 1),
    loginAttemptsPerMinute: integer(env, 'LOGIN_ATTEMPTS_PER_MINUTE', 20, 1),
    trustProxy: oneOf(env, 'TRUST_PROXY', ['true', 'false'] as const, 'false') === 'true',
    smtpUrl: smtpUrl(env.SMTP_URL),
    mailFrom: mailFrom(env.MAIL_FROM, env.SMTP_URL),
  };
}
