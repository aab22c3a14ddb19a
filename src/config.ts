// Configuration comes only from the environment and is checked once, at start-up, so a bad value
// stops the process with a message that names the variable instead of failing later.

export interface Config {
  port: number;
  host: string;
  publicUrl: string;
  /** `undefined`: PGlite in dataDir; `memory:`: in-memory PGlite; otherwise a PostgreSQL URL. */
  databaseUrl: string | undefined;
  /** PostgreSQL replicas for reads that tolerate lag (`lagging` in db.ts); only beside a PostgreSQL DATABASE_URL. */
  readDatabaseUrl: string | undefined;
  dataDir: string;
  /** On PostgreSQL, how long the server waits for one statement before giving it up (a 503). */
  dbStatementTimeoutMs: number;
  paymentTtlSeconds: number;
  timeZone: string;
  logLevel: string;
  /** `pretty`: readable lines (the default on a terminal); `json`: one JSON object a line (otherwise). */
  logFormat: 'json' | 'pretty';
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
  /** MPIN/OTP posts per minute per client IP on the hosted page. */
  payerAttemptsPerMinute: number;
  /** Honour X-Forwarded-For from a load balancer for the client IP. */
  trustProxy: boolean;
  /** Records read per query by a CSV export, which streams them page by page. */
  exportPageRows: number;
  /** How a live wallet's OTP reaches the payer: `sms` through `smsGateway`; `log`/`log-insecure` the server log (development). */
  otpSender: OtpSenderKind;
  /** Set when otpSender is `sms`. */
  smsGateway: SmsGateway | undefined;
  /** /metrics on a listener of its own (METRICS_HOST:METRICS_PORT) instead of the public port. */
  metricsPort: number | undefined;
  metricsHost: string;
  /** `Authorization: Bearer <token>` wherever /metrics is served; required for it on the public port. */
  metricsToken: string | undefined;
  /** `smtp://` or `smtps://` server for e-mail; unset: e-mails are written to the log. */
  smtpUrl: string | undefined;
  /** The sender of every e-mail (required with SMTP_URL). */
  mailFrom: string;
  /** How long a payment's net amount stays pending before a payout may take it. */
  settlementHoldHours: number;
  /** How often the payout rails' job runs: the sandbox bank or NPI's simulator moves test payouts on, NPI's live ones are posted and asked about. */
  sandboxBankIntervalMs: number;
  /** Live payouts over connectIPS's limit go to NCHL-IPS in one batch per this many seconds at most. */
  npiBatchSeconds: number;
  /** How often the automatic payout schedules are checked for a payout that is due. */
  payoutScheduleIntervalSeconds: number;
  /** The key that seals credentials at rest (secrets/seal.ts; SECRETS_KEY, or PROVIDER_SECRETS_KEY, its other name, as providers' set-up knows it); unset: a key kept in the store. Required once a live provider is set. */
  secretsKey: Buffer | undefined;
  /** How often each instance asks providers again about attempts whose outcome is not known. */
  providerReconcileIntervalSeconds: number;
  /** Checks of one attempt after which it goes to the operators (the console's "needs attention"). */
  providerReconcileLimit: number;
  /** Failures in a row after which a provider is left off the hosted page… */
  providerFailureLimit: number;
  /** …for this long. */
  providerCooldownSeconds: number;
  /** How long one call to a provider may take before its answer counts as unknown. */
  providerTimeoutMs: number;
  /**
   * How long a refund request whose answer never came may still reach the provider: only after it
   * does a provider's record that says "not refunded" mean the request was not made.
   */
  providerRefundQuietSeconds: number;
}

export const OTP_SENDERS = ['log', 'log-insecure', 'sms'] as const;
export type OtpSenderKind = (typeof OTP_SENDERS)[number];

export interface SmsGateway {
  /** May hold `{mobile}` and `{message}` too (percent-encoded), for gateways that take them in the query. */
  url: string;
  method: 'POST' | 'PUT' | 'PATCH' | 'GET';
  /** The Authorization header's value, sent as is. */
  auth: string | undefined;
  /** `{mobile}` and `{message}` are replaced, escaped for `contentType`; not sent with GET. */
  body: string;
  contentType: 'application/json' | 'application/x-www-form-urlencoded';
  timeoutMs: number;
}

/** A setting is missing or wrong: the process says so in one line and stops. */
export class ConfigError extends Error {
  override readonly name = 'ConfigError';
}

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

function readDatabaseUrl(raw: string | undefined, primary: string | undefined): string | undefined {
  if (raw === undefined || raw === '') return undefined;
  if (!/^postgres(ql)?:\/\//.test(raw)) throw new ConfigError(`READ_DATABASE_URL must be a postgres:// URL, got "${raw}"`);
  if (!primary?.startsWith('postgres')) throw new ConfigError('READ_DATABASE_URL needs DATABASE_URL to be a postgres:// URL: replicas are of a PostgreSQL primary');
  return raw;
}

const DEFAULT_TIME_ZONE = 'Asia/Kathmandu';

/** An operator's time zone is checked at start; the default needs no check (its check starts ICU, about 25 ms of a restart). */
function timeZone(raw: string): string {
  if (raw === DEFAULT_TIME_ZONE) return raw;
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

const DEFAULT_SMS_BODY = '{"to":"{mobile}","text":"{message}"}';
const SMS_CONTENT_TYPES = ['application/json', 'application/x-www-form-urlencoded'] as const;

function smsGateway(env: Env, otpSender: OtpSenderKind): SmsGateway | undefined {
  const set = ['SMS_GATEWAY_URL', 'SMS_GATEWAY_METHOD', 'SMS_GATEWAY_AUTH', 'SMS_GATEWAY_BODY', 'SMS_GATEWAY_CONTENT_TYPE', 'SMS_GATEWAY_TIMEOUT_MS'].filter((name) => env[name]);
  if (otpSender !== 'sms') {
    // A gateway configured but not used would leave live OTPs in the log without anyone noticing.
    if (set.length > 0) throw new ConfigError(`${set[0]} is set but OTP_SENDER is "${otpSender}": set OTP_SENDER=sms to send OTPs through the SMS gateway`);
    return undefined;
  }
  if (!env.SMS_GATEWAY_URL) throw new ConfigError('OTP_SENDER=sms needs SMS_GATEWAY_URL, the address of the SMS gateway');
  const url = httpUrl('SMS_GATEWAY_URL', env.SMS_GATEWAY_URL);
  const method = oneOf(env, 'SMS_GATEWAY_METHOD', ['POST', 'PUT', 'PATCH', 'GET'] as const, 'POST');
  const body = env.SMS_GATEWAY_BODY || DEFAULT_SMS_BODY;
  // JSON for a template that looks like JSON (the default), a form otherwise, unless told.
  const contentType = oneOf(env, 'SMS_GATEWAY_CONTENT_TYPE', SMS_CONTENT_TYPES, /^\s*[[{]/.test(body) ? 'application/json' : 'application/x-www-form-urlencoded');
  const carried = method === 'GET' ? url : `${url} ${body}`;
  for (const placeholder of ['{mobile}', '{message}']) {
    if (!carried.includes(placeholder)) {
      throw new ConfigError(`${method === 'GET' ? 'SMS_GATEWAY_URL (the method is GET, so no body is sent)' : 'SMS_GATEWAY_BODY or SMS_GATEWAY_URL'} must contain ${placeholder}`);
    }
  }
  if (method !== 'GET' && contentType === 'application/json') {
    try {
      // Filled as a send fills it (values escaped for a JSON string): only a placeholder outside a string breaks it.
      const inString = (value: string) => JSON.stringify(value).slice(1, -1);
      JSON.parse(body.replaceAll('{mobile}', inString('9800000001')).replaceAll('{message}', inString('a "quoted" message')));
    } catch {
      throw new ConfigError(`SMS_GATEWAY_BODY must be JSON with {mobile} and {message} inside strings, got ${body}`);
    }
  }
  return { url, method, auth: env.SMS_GATEWAY_AUTH || undefined, body, contentType, timeoutMs: integer(env, 'SMS_GATEWAY_TIMEOUT_MS', 5000, 100, 60_000) };
}

function metricsToken(raw: string | undefined): string | undefined {
  if (raw === undefined || raw === '') return undefined;
  if (raw.length < 16 || /\s/.test(raw)) throw new ConfigError('METRICS_TOKEN must be at least 16 characters without spaces (e.g. openssl rand -hex 32)');
  return raw;
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

/** 32 bytes, as 64 hex digits or in base64 (e.g. `openssl rand -base64 32`). */
function secretsKey(name: string, raw: string | undefined): Buffer | undefined {
  if (raw === undefined || raw === '') return undefined;
  const value = raw.trim();
  const key = /^[0-9a-fA-F]{64}$/.test(value) ? Buffer.from(value, 'hex') : /^[A-Za-z0-9+/]{43}=?$/.test(value) ? Buffer.from(value, 'base64') : undefined;
  if (key?.length !== 32) throw new ConfigError(`${name} must be 32 random bytes, as 64 hex digits or in base64 (openssl rand -base64 32)`);
  return key;
}

/** One key seals every secret at rest: SECRETS_KEY, or PROVIDER_SECRETS_KEY (its other name, as providers' set-up knows it); both set, they must be the same. */
function sharedSecretsKey(env: Env): Buffer | undefined {
  const key = secretsKey('SECRETS_KEY', env.SECRETS_KEY);
  const providers = secretsKey('PROVIDER_SECRETS_KEY', env.PROVIDER_SECRETS_KEY);
  if (key && providers && !key.equals(providers)) throw new ConfigError('SECRETS_KEY and PROVIDER_SECRETS_KEY name one key (it seals every credential): set one of them, or both to the same value');
  return key ?? providers;
}

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

/**
 * The data directory of the embedded store when the settings choose it (no DATABASE_URL), read
 * before the rest of the settings are checked: `npm start` starts the store's thread first.
 */
export const embeddedDataDir = (env: Env = process.env): string | undefined => (env.DATABASE_URL ? undefined : dataDirOf(env));
const dataDirOf = (env: Env) => env.DATA_DIR || './data';

/** `stdoutIsTty` picks the log format when LOG_FORMAT does not: people read a terminal, programs the rest. */
export function loadConfig(env: Env = process.env, stdoutIsTty = process.stdout.isTTY === true): Config {
  const port = integer(env, 'PORT', 8080, 0, 65535);
  const logLevel = env.LOG_LEVEL || 'info';
  const otpSender = oneOf(env, 'OTP_SENDER', OTP_SENDERS, 'log');
  const metricsPort = env.METRICS_PORT ? integer(env, 'METRICS_PORT', 0, 1, 65535) : undefined;
  if (metricsPort !== undefined && metricsPort === port) throw new ConfigError(`METRICS_PORT must differ from PORT (${port}): /metrics gets a listener of its own`);
  if (!LOG_LEVELS.includes(logLevel)) throw new ConfigError(`LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}, got "${logLevel}"`);
  return {
    port,
    host: env.HOST || '127.0.0.1',
    publicUrl: httpUrl('PUBLIC_URL', env.PUBLIC_URL || `http://localhost:${port}`),
    databaseUrl: databaseUrl(env.DATABASE_URL),
    readDatabaseUrl: readDatabaseUrl(env.READ_DATABASE_URL, env.DATABASE_URL),
    dataDir: dataDirOf(env),
    dbStatementTimeoutMs: integer(env, 'DB_STATEMENT_TIMEOUT_MS', 5000, 10, 600_000),
    paymentTtlSeconds: integer(env, 'PAYMENT_TTL_SECONDS', 3600, 1),
    timeZone: timeZone(env.TIME_ZONE || DEFAULT_TIME_ZONE),
    logLevel,
    logFormat: oneOf(env, 'LOG_FORMAT', ['json', 'pretty'] as const, stdoutIsTty ? 'pretty' : 'json'),
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
    trustProxy: oneOf(env, 'TRUST_PROXY', ['true', 'false'] as const, 'false') === 'true',
    exportPageRows: integer(env, 'EXPORT_PAGE_ROWS', 1000, 1, 10_000),
    otpSender,
    smsGateway: smsGateway(env, otpSender),
    metricsPort,
    metricsHost: env.METRICS_HOST || '127.0.0.1',
    metricsToken: metricsToken(env.METRICS_TOKEN),
    smtpUrl: smtpUrl(env.SMTP_URL),
    mailFrom: mailFrom(env.MAIL_FROM, env.SMTP_URL),
    settlementHoldHours: integer(env, 'SETTLEMENT_HOLD_HOURS', 24, 0, 24 * 90),
    sandboxBankIntervalMs: integer(env, 'SANDBOX_BANK_INTERVAL_MS', 2000, 10),
    payoutScheduleIntervalSeconds: integer(env, 'PAYOUT_SCHEDULE_INTERVAL_SECONDS', 300, 1),
    npiBatchSeconds: integer(env, 'NPI_BATCH_SECONDS', 300, 0, 86_400),
    secretsKey: sharedSecretsKey(env),
    providerReconcileIntervalSeconds: integer(env, 'PROVIDER_RECONCILE_INTERVAL_SECONDS', 30, 1),
    providerReconcileLimit: integer(env, 'PROVIDER_RECONCILE_LIMIT', 12, 1, 1000),
    providerFailureLimit: integer(env, 'PROVIDER_FAILURE_LIMIT', 5, 1),
    providerCooldownSeconds: integer(env, 'PROVIDER_COOLDOWN_SECONDS', 60, 1),
    providerTimeoutMs: integer(env, 'PROVIDER_TIMEOUT_MS', 10_000, 100, 120_000),
    providerRefundQuietSeconds: refundQuietSeconds(env),
  };
}

/** At least the longest a call may take, or a request Bhuktani gave up on could still be arriving. */
function refundQuietSeconds(env: Env): number {
  const quiet = integer(env, 'PROVIDER_REFUND_QUIET_SECONDS', 600, 1);
  const timeoutSeconds = Math.ceil(integer(env, 'PROVIDER_TIMEOUT_MS', 10_000, 100, 120_000) / 1000);
  if (quiet <= timeoutSeconds) throw new ConfigError(`PROVIDER_REFUND_QUIET_SECONDS must be longer than PROVIDER_TIMEOUT_MS (${timeoutSeconds} s), got ${quiet}`);
  return quiet;
}
