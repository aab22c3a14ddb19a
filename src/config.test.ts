// Start-up checks of settings (OTP_SENDER, SMS_GATEWAY_*, METRICS_*, DB_STATEMENT_TIMEOUT_MS, SECRETS_KEY, TIME_ZONE): a bad
// or incomplete value stops the process with a message naming the variable.
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config.js';

const refused = (env: Record<string, string>) => {
  try {
    loadConfig(env);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as Error).message;
  }
  throw new Error(`accepted: ${JSON.stringify(env)}`);
};

const GATEWAY = 'https://sms.example.com/send';

describe('OTP_SENDER and SMS_GATEWAY_*', () => {
  it('defaults to log with no gateway; sms takes the documented defaults', () => {
    expect(loadConfig({})).toMatchObject({ otpSender: 'log', smsGateway: undefined });
    expect(loadConfig({ OTP_SENDER: 'sms', SMS_GATEWAY_URL: GATEWAY }).smsGateway).toEqual({
      url: GATEWAY,
      method: 'POST',
      auth: undefined,
      body: '{"to":"{mobile}","text":"{message}"}',
      contentType: 'application/json',
      timeoutMs: 5000,
    });
    expect(loadConfig({ OTP_SENDER: 'sms', SMS_GATEWAY_URL: GATEWAY, SMS_GATEWAY_BODY: 'to={mobile}&text={message}' }).smsGateway?.contentType).toBe('application/x-www-form-urlencoded');
  });

  it('refuses what would leave a live OTP undelivered, or in the log', () => {
    expect(refused({ OTP_SENDER: 'email' })).toBe('OTP_SENDER must be one of log, log-insecure, sms, got "email"');
    expect(refused({ OTP_SENDER: 'sms' })).toBe('OTP_SENDER=sms needs SMS_GATEWAY_URL, the address of the SMS gateway');
    expect(refused({ OTP_SENDER: 'sms', SMS_GATEWAY_URL: 'sms.example.com' })).toContain('SMS_GATEWAY_URL must be an absolute http(s) URL');
    expect(refused({ SMS_GATEWAY_URL: GATEWAY })).toBe('SMS_GATEWAY_URL is set but OTP_SENDER is "log": set OTP_SENDER=sms to send OTPs through the SMS gateway');
    expect(refused({ OTP_SENDER: 'sms', SMS_GATEWAY_URL: GATEWAY, SMS_GATEWAY_METHOD: 'DELETE' })).toContain('SMS_GATEWAY_METHOD must be one of POST, PUT, PATCH, GET');
    expect(refused({ OTP_SENDER: 'sms', SMS_GATEWAY_URL: GATEWAY, SMS_GATEWAY_BODY: '{"to":"{mobile}"}' })).toBe('SMS_GATEWAY_BODY or SMS_GATEWAY_URL must contain {message}');
    expect(refused({ OTP_SENDER: 'sms', SMS_GATEWAY_URL: GATEWAY, SMS_GATEWAY_BODY: '{"to":"{mobile}","text":{message}}' })).toContain('SMS_GATEWAY_BODY must be JSON with {mobile} and {message} inside strings');
    expect(refused({ OTP_SENDER: 'sms', SMS_GATEWAY_URL: GATEWAY, SMS_GATEWAY_METHOD: 'GET' })).toBe('SMS_GATEWAY_URL (the method is GET, so no body is sent) must contain {mobile}');
    expect(refused({ OTP_SENDER: 'sms', SMS_GATEWAY_URL: GATEWAY, SMS_GATEWAY_TIMEOUT_MS: '0' })).toBe('SMS_GATEWAY_TIMEOUT_MS must be between 100 and 60000, got 0');
    expect(refused({ OTP_SENDER: 'sms', SMS_GATEWAY_URL: GATEWAY, SMS_GATEWAY_CONTENT_TYPE: 'text/xml' })).toContain('SMS_GATEWAY_CONTENT_TYPE must be one of application/json, application/x-www-form-urlencoded');
  });
});

describe('METRICS_*', () => {
  it('serves /metrics nowhere by default; METRICS_HOST defaults to loopback', () => {
    expect(loadConfig({})).toMatchObject({ metricsPort: undefined, metricsToken: undefined, metricsHost: '127.0.0.1' });
    expect(loadConfig({ METRICS_PORT: '9464', METRICS_TOKEN: 'a'.repeat(32) })).toMatchObject({ metricsPort: 9464, metricsToken: 'a'.repeat(32) });
  });

  it('refuses a weak token, a bad port, and the public port', () => {
    expect(refused({ METRICS_TOKEN: 'short' })).toContain('METRICS_TOKEN must be at least 16 characters');
    expect(refused({ METRICS_PORT: 'http' })).toBe('METRICS_PORT must be a whole number, got "http"');
    expect(refused({ PORT: '8080', METRICS_PORT: '8080' })).toBe('METRICS_PORT must differ from PORT (8080): /metrics gets a listener of its own');
  });
});

describe('DB_STATEMENT_TIMEOUT_MS', () => {
  it('is 5000 by default and takes a whole number of milliseconds', () => {
    expect(loadConfig({}).dbStatementTimeoutMs).toBe(5000);
    expect(loadConfig({ DB_STATEMENT_TIMEOUT_MS: '250' }).dbStatementTimeoutMs).toBe(250);
  });

  it.each([
    ['5s', 'DB_STATEMENT_TIMEOUT_MS must be a whole number, got "5s"'],
    ['0', 'DB_STATEMENT_TIMEOUT_MS must be between 10 and 600000, got 0'],
    ['600001', 'DB_STATEMENT_TIMEOUT_MS must be between 10 and 600000, got 600001'],
  ])('%s stops the start with a message naming it', (value, message) => {
    expect(() => loadConfig({ DB_STATEMENT_TIMEOUT_MS: value })).toThrow(new ConfigError(message));
  });
});

describe('READ_DATABASE_URL', () => {
  it('is unset by default, and taken beside a PostgreSQL DATABASE_URL', () => {
    expect(loadConfig({}).readDatabaseUrl).toBeUndefined();
    expect(loadConfig({ DATABASE_URL: 'postgres://db:5000/pay', READ_DATABASE_URL: 'postgres://db:5001/pay' }).readDatabaseUrl).toBe('postgres://db:5001/pay');
  });

  it('refuses a URL that is not PostgreSQL, and replicas without a PostgreSQL primary', () => {
    expect(() => loadConfig({ DATABASE_URL: 'postgres://db:5000/pay', READ_DATABASE_URL: 'mysql://db/pay' })).toThrow(new ConfigError('READ_DATABASE_URL must be a postgres:// URL, got "mysql://db/pay"'));
    expect(() => loadConfig({ READ_DATABASE_URL: 'postgres://db:5001/pay' })).toThrow(
      new ConfigError('READ_DATABASE_URL needs DATABASE_URL to be a postgres:// URL: replicas are of a PostgreSQL primary'),
    );
  });
});

describe('SECRETS_KEY', () => {
  it('is unset by default (the store keeps a key of its own), and takes 32 bytes in hex or base64', () => {
    expect(loadConfig({}).secretsKey).toBeUndefined();
    const bytes = Buffer.alloc(32, 7);
    expect(loadConfig({ SECRETS_KEY: bytes.toString('hex') }).secretsKey).toEqual(bytes);
    expect(loadConfig({ SECRETS_KEY: bytes.toString('base64') }).secretsKey).toEqual(bytes);
  });

  it('refuses anything that is not 32 bytes, without echoing it', () => {
    for (const value of ['short', 'ab'.repeat(31), Buffer.alloc(31).toString('base64'), Buffer.alloc(33).toString('base64'), 'g'.repeat(64)]) {
      const message = refused({ SECRETS_KEY: value });
      expect(message).toBe('SECRETS_KEY must be 32 random bytes, as 64 hex digits or in base64 (openssl rand -base64 32)');
    }
  });
});

describe('TIME_ZONE', () => {
  it("defaults to Nepal's; an operator's zone is checked, and one that is not IANA's is refused", () => {
    expect(loadConfig({}).timeZone).toBe('Asia/Kathmandu');
    expect(loadConfig({ TIME_ZONE: 'Europe/London' }).timeZone).toBe('Europe/London');
    expect(refused({ TIME_ZONE: 'Mars/Olympus_Mons' })).toMatch(/^TIME_ZONE must be an IANA time zone/);
    expect(refused({ TIME_ZONE: 'asia/kathmandu ' })).toMatch(/^TIME_ZONE/);
  });
});
