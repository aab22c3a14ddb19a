import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config.js';

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
