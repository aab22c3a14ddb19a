// The README's "A first payment", as a newcomer follows it: the server started as `npm start` does,
// the demo key found in the JSON log as the README says, its curl lines run by a shell (on this run's
// port), the payment paid on the hosted page over HTTP, the browser landing on the demo shop's
// "Order paid", and the README's lookup saying Completed for the pidx it kept.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { overHttp } from './http-injector.js';
import { payerBrowser } from './portal-client.js';
import { freePort, startServer, tempDir, type ServerProcess } from './processes.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');

/** The shell blocks of the README's section `heading`, in order. */
function shellBlocks(heading: string): string[] {
  const section = readme.slice(readme.indexOf(`## ${heading}`), readme.indexOf('\n## ', readme.indexOf(`## ${heading}`) + 3));
  return [...section.matchAll(/```sh\n([\s\S]*?)```/g)].map((m) => m[1]);
}

let server: ServerProcess;
let port: number;
const data = tempDir('bhuktani-readme-');

beforeAll(async () => {
  port = await freePort();
  server = await startServer({ DATA_DIR: data.path, PORT: String(port) });
});
afterAll(async () => {
  await server?.stop();
  data.remove();
});

describe("the README's first payment", () => {
  it('runs as written: the key from the log, curl, the hosted page, Order paid, and a lookup that says Completed', async () => {
    // Not a terminal: the log is JSON, and the README's grep finds the key (logged once the demo merchant is made).
    while (!server.output().includes('demo_test_secret_key')) await new Promise((resolve) => setTimeout(resolve, 50));
    const found = execFileSync('bash', ['-c', `grep -o '"demo_test_secret_key":"[^"]*"'`], { input: server.output() }).toString().trim();
    const key = JSON.parse(`{${found}}`).demo_test_secret_key as string;
    expect(key).toMatch(/^test_secret_key_[0-9a-f]{32}$/);

    const [initiate, lookup] = shellBlocks('A first payment');
    const onThisPort = (script: string) => script.replaceAll('localhost:8080', `localhost:${port}`).replace(/^KEY=test_secret_key_…$/m, `KEY=${key}`);
    const initiated = execFileSync('bash', ['-euc', `${onThisPort(initiate)}\necho "PIDX=$PIDX"`], { cwd: ROOT }).toString();
    const pidx = /^PIDX=(\S+)$/m.exec(initiated)?.[1];
    expect(initiated).toContain(`"payment_url":"http://localhost:${port}/pay/?pidx=${pidx}"`);

    const payer = payerBrowser(overHttp(`http://localhost:${port}`));
    const paid = await payer.pay(pidx!);
    expect(paid.status).toBe(303);
    const landing = await fetch(paid.location!);
    expect(new URL(paid.location!).pathname).toBe('/demo/return');
    expect(await landing.text()).toContain('Order paid');

    const looked = execFileSync('bash', ['-euc', `KEY=${key}\nPIDX=${pidx}\n${onThisPort(lookup)}`], { cwd: ROOT }).toString();
    expect(JSON.parse(looked)).toMatchObject({ pidx, total_amount: 1000, status: 'Completed' });
  });
});
