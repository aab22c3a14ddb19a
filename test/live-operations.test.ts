// Live operations as an operator meets them, with the server as a process: the one-command start on
// an empty store, the refusal to start on OTP_SENDER=log once a live wallet exists, the explicit
// log-insecure start and its warning, and /metrics on METRICS_PORT, closed with the server.
import { afterAll, describe, expect, it } from 'vitest';
import { freePort, runCli, startServer, tempDir, type ServerProcess } from './processes.js';

const dir = tempDir('bhuktani-live-ops-');
const servers: ServerProcess[] = [];
afterAll(() => {
  for (const server of servers) server.kill();
  dir.remove();
});

async function started(env: Record<string, string>): Promise<ServerProcess> {
  const server = await startServer(env);
  servers.push(server);
  return server;
}

const startFailure = (env: Record<string, string>) =>
  startServer(env).then(
    (server) => {
      servers.push(server);
      throw new Error(`the server started:\n${server.output()}`);
    },
    (error: Error) => error.message,
  );

describe('OTP_SENDER at start-up', () => {
  it(
    'an empty store starts with no configuration; once a live wallet exists, "log" is refused and "log-insecure" starts with a warning',
    async () => {
      const port = await freePort();
      const metricsPort = await freePort();
      const env = { DATA_DIR: dir.path, PORT: String(port), HOST: '127.0.0.1' };
      const base = `http://127.0.0.1:${port}`;

      const plain = await started(env);
      expect(plain.output()).toContain('/metrics is not served: set METRICS_PORT or METRICS_TOKEN to scrape it');
      expect((await fetch(`${base}/metrics`)).status).toBe(404);
      expect((await fetch(`${base}/health`)).status).toBe(200);
      expect(await plain.stop(), plain.output()).toBe(0);

      const wallet = await runCli(['wallet', 'create', '--mobile', '9841000001', '--name', 'Ram', '--mpin', '1234', '--env', 'live'], { DATA_DIR: dir.path });
      expect(wallet.code, wallet.stderr).toBe(0);

      const refused = await startFailure(env);
      expect(refused).toContain('exited with code 1');
      expect(refused).toContain('bhuktani: the store holds live wallets and OTP_SENDER is "log", which would write their OTPs to the log');
      expect(await startFailure({ ...env, OTP_SENDER: 'sms' })).toContain('bhuktani: OTP_SENDER=sms needs SMS_GATEWAY_URL');

      const insecure = await started({ ...env, OTP_SENDER: 'log-insecure', METRICS_PORT: String(metricsPort) });
      const warning = insecure.output().split('\n').find((line) => line.includes('OTP_SENDER=log-insecure: live wallet OTPs are written to the server log'));
      expect(JSON.parse(warning!).level).toBe(40);

      // /metrics on its own loopback listener, without a token; not on the public port.
      const metrics = `http://127.0.0.1:${metricsPort}/metrics`;
      const scraped = await fetch(metrics);
      expect(scraped.status).toBe(200);
      expect(await scraped.text()).toContain('bhuktani_otp_sends_total');
      expect((await fetch(`${base}/metrics`)).status).toBe(404);
      expect(await insecure.stop(), insecure.output()).toBe(0);
      await expect(fetch(metrics)).rejects.toThrow();
    },
    300_000,
  );
});
