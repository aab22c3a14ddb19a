// `bhuktani operator create`, run as a real process; the operator then signs in
// to the console of a server on the same data directory with the printed secret.
import { afterAll, describe, expect, it } from 'vitest';
import { totpCode } from '../people/totp.js';
import { runCli, tempDir } from '../../test/processes.js';

const PROCESS_TIMEOUT = 300_000;
const dirs: ReturnType<typeof tempDir>[] = [];
afterAll(() => {
  for (const dir of dirs) dir.remove();
});

describe('bhuktani operator create', () => {
  it(
    '--json prints email, role, the TOTP secret and its otpauth URI once; audited as the CLI; a second one with the same e-mail is refused',
    async () => {
      const dir = tempDir('bhuktani-operator-');
      dirs.push(dir);
      const env = { DATA_DIR: dir.path };
      const created = await runCli(['operator', 'create', '--email', 'Ops@Example.com', '--password', 'a long operator secret', '--role', 'support', '--json'], env);
      expect(created.code, created.stderr).toBe(0);
      const lines = created.stdout.trim().split('\n');
      expect(lines).toHaveLength(1);
      const operator = JSON.parse(lines[0]);
      expect(operator).toMatchObject({ email: 'Ops@Example.com', role: 'support' });
      expect(operator.totp_secret).toMatch(/^[A-Z2-7]{32}$/);
      expect(operator.totp_uri).toMatch(/^otpauth:\/\/totp\/Bhuktani:Ops%40Example\.com\?/);
      expect(operator.totp_uri).toContain(`secret=${operator.totp_secret}`);
      expect(operator.recovery_codes).toHaveLength(10);
      expect(totpCode(operator.totp_secret, new Date())).toMatch(/^\d{6}$/);
      expect(created.stdout + created.stderr).not.toContain('a long operator secret');

      const again = await runCli(['operator', 'create', '--email', 'ops@example.COM', '--password', 'another long secret', '--json'], env);
      expect(again.code).toBe(1);
      expect(again.stderr).toContain('--email: An operator with this e-mail exists already.');

      const weak = await runCli(['operator', 'create', '--email', 'b@example.com', '--password', 'short', '--role', 'boss'], env);
      expect(weak.code).toBe(1);
      expect(weak.stderr).toContain('--password: Use at least 12 characters.');
      expect(weak.stderr).toContain('--role: Choose admin, support or finance.');
    },
    PROCESS_TIMEOUT,
  );
});
