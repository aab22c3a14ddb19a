// `bhuktani provider set|enable|disable|list|reconcile` as real processes on one data directory
// flags, exit codes, credentials never printed, a live provider only with
// PROVIDER_SECRETS_KEY, and a server that refuses to start with live credentials it cannot open.
import { randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli, startServer, tempDir } from '../../test/processes.js';
import { loadConfig } from '../config.js';
import { openDb } from '../db/open.js';
import { sandboxPfx } from '../providers/connectips/sandbox-certificate.js';

const PROCESS_TIMEOUT = 300_000;
const dir = tempDir('bhuktani-providers-');
const key = randomBytes(32).toString('hex');
const env = { DATA_DIR: dir.path, PROVIDER_SECRETS_KEY: key };
afterAll(() => dir.remove());

describe('bhuktani provider', () => {
  it(
    'sets up providers, lists them without credentials, and refuses a live one without PROVIDER_SECRETS_KEY',
    async () => {
      const refused = await runCli(['provider', 'set', 'khalti', '--env', 'live', '--base-url', 'https://khalti.example.com', '--secret-key', 'live_secret_key_abc'], { DATA_DIR: dir.path });
      expect(refused.code).toBe(1);
      expect(refused.stderr).toContain('PROVIDER_SECRETS_KEY');
      const set = await runCli(['provider', 'set', 'khalti', '--env', 'live', '--base-url', 'https://khalti.example.com', '--secret-key', 'live_secret_key_abc'], env);
      expect(set.code, set.stderr).toBe(0);
      expect(set.stdout).toContain('Khalti (live) is set up and enabled: base_url https://khalti.example.com');
      expect(set.stdout + set.stderr).not.toContain('live_secret_key_abc');
      const pfxFile = join(dir.path, 'merchant.pfx');
      // A PFX as NCHL issues one (here the sandbox's own, made in a store of its own).
      const store = await openDb(loadConfig({ DATABASE_URL: 'memory:' }), 'command');
      writeFileSync(pfxFile, await sandboxPfx(store));
      await store.close();
      // connectIPS's login page and its validation API are two addresses; one --base-url is no longer taken.
      const oneAddress = await runCli(
        ['provider', 'set', 'connectips', '--env', 'test', '--base-url', 'https://uat.connectips.example', '--merchant-id', '550', '--app-id', 'MER-550-APP-1', '--app-name', 'Tea', '--password', 'pw-secret', '--key-file', pfxFile],
        env,
      );
      expect(oneAddress.code).toBe(2);
      expect(oneAddress.stderr).toMatch(/base-url/);
      const connectips = await runCli(
        ['provider', 'set', 'connectips', '--env', 'test', '--gateway-url', 'https://uat.connectips.example:7443', '--api-url', 'https://uat.connectips.example:8443', '--merchant-id', '550', '--app-id', 'MER-550-APP-1', '--app-name', 'Tea', '--password', 'pw-secret', '--key-file', pfxFile],
        env,
      );
      expect(connectips.code, connectips.stderr).toBe(0);
      expect(connectips.stdout).toContain('gateway_url https://uat.connectips.example:7443, api_url https://uat.connectips.example:8443');
      const badKey = await runCli(
        ['provider', 'set', 'connectips', '--env', 'test', '--gateway-url', 'https://g.example', '--api-url', 'https://a.example', '--merchant-id', '550', '--app-id', 'A', '--app-name', 'Tea', '--password', 'pw', '--key-file', join(dir.path, 'nothing.pfx')],
        env,
      );
      expect(badKey.code).toBe(2);
      expect(badKey.stderr).toContain('cannot read');
      const badFlags = await runCli(['provider', 'set', 'esewa', '--env', 'test', '--form-url', 'nope', '--product-code', 'P'], env);
      expect(badFlags.code).toBe(1);
      expect(badFlags.stderr).toContain('--form-url: Enter a valid URL.');
      expect(badFlags.stderr).toContain('--status-url: This field is required.');
      // Fonepay: the QR API's user is shown, the secret key and the password never.
      const fonepay = await runCli(
        ['provider', 'set', 'fonepay', '--env', 'live', '--base-url', 'https://clientapi.fonepay.com', '--merchant-code', 'TEA123', '--secret-key', 'fp-secret-key', '--username', 'teaapi', '--password', 'fp-password'],
        env,
      );
      expect(fonepay.code, fonepay.stderr).toBe(0);
      expect(fonepay.stdout).toContain('Fonepay (live) is set up and enabled: base_url https://clientapi.fonepay.com, merchant_code TEA123, username teaapi');
      expect(fonepay.stdout + fonepay.stderr).not.toMatch(/fp-secret-key|fp-password/);
      const list = await runCli(['provider', 'list', '--json'], env);
      expect(list.code, list.stderr).toBe(0);
      const listed = JSON.parse(list.stdout);
      expect(listed).toContainEqual({ name: 'khalti', environment: 'live', enabled: true, sandbox: false, settings: { base_url: 'https://khalti.example.com' } });
      expect(listed).toContainEqual({ name: 'esewa', environment: 'test', enabled: true, sandbox: true, settings: expect.objectContaining({ product_code: 'EPAYTEST' }) });
      expect(listed).toContainEqual({ name: 'fonepay', environment: 'live', enabled: true, sandbox: false, settings: { base_url: 'https://clientapi.fonepay.com', merchant_code: 'TEA123', username: 'teaapi' } });
      expect(list.stdout).not.toMatch(/pw-secret|fp-secret-key|fp-password/);
    },
    PROCESS_TIMEOUT,
  );

  it(
    'enables and disables, and usage mistakes exit 2',
    async () => {
      const disabled = await runCli(['provider', 'disable', 'khalti', '--env', 'live'], env);
      expect(disabled.code, disabled.stderr).toBe(0);
      expect(disabled.stdout).toContain('khalti (live) is disabled');
      const list = await runCli(['provider', 'list'], env);
      expect(list.stdout).toMatch(/khalti\s+live\s+disabled/);
      expect((await runCli(['provider', 'enable', 'paypal', '--env', 'live'], env)).code).toBe(2);
      expect((await runCli(['provider', 'enable', 'khalti', '--env', 'prod'], env)).code).toBe(2);
      expect((await runCli(['provider', 'enable', 'esewa', '--env', 'live'], env)).code).toBe(1);
    },
    PROCESS_TIMEOUT,
  );

  it(
    'reconcile lists every difference of a settlement report and exits 1 when there is one',
    async () => {
      const report = join(dir.path, 'khalti.csv');
      writeFileSync(report, 'Transaction ID,Amount,Fee,Date\r\nKH-1,"1,000.00",30.00,2026-11-20\r\n');
      const differs = await runCli(['provider', 'reconcile', 'khalti', '--env', 'live', '--file', report], env);
      expect(differs.code, differs.stderr).toBe(1);
      expect(differs.stdout).toContain('DIFF KH-1: not in the ledger; report Rs. 1,000.00 fee Rs. 30.00 (line 2)');
      writeFileSync(report, 'Transaction ID,Amount\r\n');
      const clean = await runCli(['provider', 'reconcile', 'khalti', '--env', 'live', '--file', report, '--json'], env);
      expect(clean.code, clean.stderr).toBe(0);
      expect(JSON.parse(clean.stdout)).toEqual({ rows: 0, matched: 0, differences: [] });
      const wrong = join(dir.path, 'wrong.csv');
      writeFileSync(wrong, 'a,b\r\n1,2\r\n');
      const refused = await runCli(['provider', 'reconcile', 'khalti', '--env', 'live', '--file', wrong], env);
      expect(refused.code).toBe(1);
      expect(refused.stderr).toContain('needs the columns transaction_id and amount');
    },
    PROCESS_TIMEOUT,
  );

  it(
    'a server refuses to start with a live provider without the key that sealed it',
    async () => {
      await expect(startServer({ DATA_DIR: dir.path, PORT: '0' }, 60_000)).rejects.toThrow(/PROVIDER_SECRETS_KEY/);
    },
    PROCESS_TIMEOUT,
  );
});
