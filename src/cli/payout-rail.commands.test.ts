// `bhuktani payout rail set|show` as real processes on one data directory: NPI set up for live from a
// PFX on disk, shown without a secret; a key file that does not open, an expired certificate, an http
// address in live, a short bank code and a missing PROVIDER_SECRETS_KEY refused with the reason; a
// server that cannot open the live rail's credentials refuses to start; and back to the bank file.
import { randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort, runCli, startServer, tempDir } from '../../test/processes.js';
import { testPfx } from '../payout-rails/npi/fixtures/test-key.js';

const PROCESS_TIMEOUT = 300_000;
const dir = tempDir('bhuktani-payout-rails-');
const env = { DATA_DIR: dir.path, PUBLIC_URL: 'https://pay.bhuktani.example', PROVIDER_SECRETS_KEY: randomBytes(32).toString('hex') };
afterAll(() => dir.remove());

// Valid for a year either side of now, whatever day the suite runs.
const year = 365 * 24 * 3600 * 1000;
const good = testPfx({ from: new Date(Date.now() - year), to: new Date(Date.now() + year), passphrase: 'pfx-passphrase-9' });
const goodFile = join(dir.path, 'npi.pfx');
writeFileSync(goodFile, good.pfx);

const npiFlags = (overrides: Record<string, string> = {}) =>
  Object.entries({
    'base-url': 'https://uat.npi.example/npi',
    'client-id': 'bhuktani',
    'client-secret': 'npi-client-secret-1',
    username: 'BHUKTANI@1701',
    password: 'npi-api-password-2',
    'key-file': goodFile,
    'key-passphrase': good.passphrase,
    'debtor-bank': '1701',
    'debtor-branch': '1',
    'debtor-account': '00100000000018',
    'debtor-name': 'Bhuktani Settlement',
    ...overrides,
  }).flatMap(([flag, value]) => [`--${flag}`, value]);

const secrets = /npi-client-secret-1|npi-api-password-2|pfx-passphrase-9/;

describe('bhuktani payout rail', () => {
  it(
    "shows the sandbox's NPI in test and the bank file in live, then sets NPI up for live, never showing a secret",
    async () => {
      const fresh = await runCli(['payout', 'rail', 'show', '--json'], env);
      expect(fresh.code, fresh.stderr).toBe(0);
      expect(JSON.parse(fresh.stdout)).toEqual([
        { environment: 'test', rail: 'npi', sandbox: true, settings: expect.objectContaining({ base_url: 'https://pay.bhuktani.example/sandbox/npi', debtor_bank: '9999' }) },
        { environment: 'live', rail: 'file', sandbox: false, settings: {} },
      ]);

      const withoutKey = await runCli(['payout', 'rail', 'set', 'npi', '--env', 'live', ...npiFlags()], { DATA_DIR: dir.path });
      expect(withoutKey.code).toBe(1);
      expect(withoutKey.stderr).toContain('PROVIDER_SECRETS_KEY');

      const set = await runCli(['payout', 'rail', 'set', 'npi', '--env', 'live', ...npiFlags()], env);
      expect(set.code, set.stderr).toBe(0);
      expect(set.stdout).toContain('Payouts of live now leave through NPI: base_url https://uat.npi.example/npi, client_id bhuktani, username BHUKTANI@1701, debtor_bank 1701');
      expect(set.stdout + set.stderr).not.toMatch(secrets);

      const shown = await runCli(['payout', 'rail', 'show', '--json'], env);
      expect(shown.code, shown.stderr).toBe(0);
      expect(JSON.parse(shown.stdout)).toContainEqual({
        environment: 'live',
        rail: 'npi',
        sandbox: false,
        settings: { base_url: 'https://uat.npi.example/npi', client_id: 'bhuktani', username: 'BHUKTANI@1701', debtor_bank: '1701', debtor_branch: '1', debtor_account: '00100000000018', debtor_name: 'Bhuktani Settlement', send: 'real-time' },
      });
      const nightly = await runCli(['payout', 'rail', 'set', 'npi', '--env', 'live', ...npiFlags({ send: 'nightly' })], env);
      expect([nightly.code, nightly.stderr]).toEqual([1, 'bhuktani: --send: Send real-time (each payout at once, within connectIPS’s limit) or batches (NCHL-IPS).\n']);
      expect(shown.stdout).not.toMatch(secrets);
      expect(shown.stdout).not.toContain(good.pfx.toString('base64').slice(0, 40));
      const text = await runCli(['payout', 'rail', 'show'], env);
      expect(text.code, text.stderr).toBe(0);
      expect(text.stdout).toContain("test NPI, the sandbox's simulator: base_url https://pay.bhuktani.example/sandbox/npi");
      expect(text.stdout).toContain('live NPI: base_url https://uat.npi.example/npi');
      expect(text.stdout).not.toMatch(secrets);
    },
    PROCESS_TIMEOUT,
  );

  it(
    'a server refuses to start when PROVIDER_SECRETS_KEY is not the key that sealed the live rail, and starts with it',
    async () => {
      const other = { ...env, PORT: String(await freePort()), PROVIDER_SECRETS_KEY: randomBytes(32).toString('hex') };
      await expect(startServer(other)).rejects.toThrow(/the credentials of the live NPI payout rail were sealed with another PROVIDER_SECRETS_KEY/);
      const { PROVIDER_SECRETS_KEY: _, ...withoutKey } = other;
      await expect(startServer(withoutKey)).rejects.toThrow(/set PROVIDER_SECRETS_KEY, the key its credentials were sealed with/);
      const server = await startServer({ ...env, PORT: String(await freePort()) });
      expect(await server.stop()).toBe(0);
    },
    PROCESS_TIMEOUT,
  );

  it(
    'refuses a key file that does not open, an expired certificate, an http address in live and a short bank code, with the reason',
    async () => {
      const notPfx = join(dir.path, 'not.pfx');
      writeFileSync(notPfx, randomBytes(600));
      const expiredFile = join(dir.path, 'expired.pfx');
      const expired = testPfx({ from: new Date('2020-01-01T00:00:00Z'), to: new Date('2021-01-01T00:00:00Z') });
      writeFileSync(expiredFile, expired.pfx);

      const garbage = await runCli(['payout', 'rail', 'set', 'npi', '--env', 'live', ...npiFlags({ 'key-file': notPfx })], env);
      expect(garbage.code).toBe(1);
      expect(garbage.stderr).toMatch(/--key-file: The key file (is not|does not open)/);
      const wrongPassphrase = await runCli(['payout', 'rail', 'set', 'npi', '--env', 'live', ...npiFlags({ 'key-passphrase': 'not-it' })], env);
      expect(wrongPassphrase.code).toBe(1);
      expect(wrongPassphrase.stderr).toContain('--key-file: The key file does not open: wrong passphrase');
      const old = await runCli(['payout', 'rail', 'set', 'npi', '--env', 'live', ...npiFlags({ 'key-file': expiredFile, 'key-passphrase': expired.passphrase })], env);
      expect(old.code).toBe(1);
      expect(old.stderr).toContain('--key-file: The certificate (CN=BHUKTANI@9999, O=Bhuktani test member) expired on 2021-01-01.');
      const http = await runCli(['payout', 'rail', 'set', 'npi', '--env', 'live', ...npiFlags({ 'base-url': 'http://npi.example', 'debtor-bank': '17' })], env);
      expect(http.code).toBe(1);
      expect(http.stderr).toContain('--base-url: Live NPI is reached over https.');
      expect(http.stderr).toContain('--debtor-bank: NCHL’s bank code has 4 digits.');
      const missing = await runCli(['payout', 'rail', 'set', 'npi', '--env', 'live', '--key-file', goodFile, '--base-url', 'https://uat.npi.example'], env);
      expect(missing.code).toBe(1);
      expect(missing.stderr).toContain('--client-id: This field is required.');
      expect(missing.stderr).toContain('--debtor-name: This field is required.');
      const noFile = await runCli(['payout', 'rail', 'set', 'npi', '--env', 'live', ...npiFlags({ 'key-file': join(dir.path, 'nothing.pfx') })], env);
      expect(noFile.code).toBe(2);
      expect(noFile.stderr).toContain('cannot read');
      for (const refused of [garbage, wrongPassphrase, old, http, missing]) expect(refused.stderr).not.toMatch(secrets);

      // Nothing of the refused set-ups was kept: live is still the NPI of the first test.
      const shown = await runCli(['payout', 'rail', 'show', '--json'], env);
      expect(JSON.parse(shown.stdout)).toContainEqual(expect.objectContaining({ environment: 'live', rail: 'npi', settings: expect.objectContaining({ base_url: 'https://uat.npi.example/npi' }) }));
    },
    PROCESS_TIMEOUT,
  );

  it(
    'goes back to the bank file, and usage mistakes exit 2',
    async () => {
      const file = await runCli(['payout', 'rail', 'set', 'file', '--env', 'live'], env);
      expect(file.code, file.stderr).toBe(0);
      expect(file.stdout).toContain('Payouts of live now leave by the bank file');
      const shown = await runCli(['payout', 'rail', 'show', '--json'], env);
      expect(JSON.parse(shown.stdout)).toContainEqual({ environment: 'live', rail: 'file', sandbox: false, settings: {} });

      const unknown = await runCli(['payout', 'rail', 'set', 'ftp', '--env', 'live'], env);
      expect(unknown.code).toBe(2);
      expect(unknown.stderr).toContain('give one rail: npi or file');
      const noEnv = await runCli(['payout', 'rail', 'set', 'file'], env);
      expect(noEnv.code).toBe(2);
      expect(noEnv.stderr).toContain('--env must be test or live');
      const fileWithFlags = await runCli(['payout', 'rail', 'set', 'file', '--env', 'live', '--base-url', 'https://x.example'], env);
      expect(fileWithFlags.code).toBe(2);
      expect(fileWithFlags.stderr).toContain('the bank file takes only --env');
    },
    PROCESS_TIMEOUT,
  );
});
