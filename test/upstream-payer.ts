// A payer's browser on another Bhuktani's hosted page, over real HTTP (the upstream of a provider
// test: a second Bhuktani speaks the v2 web checkout as Khalti does): keeps its cookie, reads each
// form's CSRF token, pays with a sandbox wallet or cancels, and returns where that page redirects;
// or picks an outcome on one of its provider simulators' pages.
import type { SimulatedOutcome } from '../src/sandbox/simulator-store.js';
import { freePort, runCli, tempDir } from './processes.js';
import { formOf } from './provider-payer.js';
import { startServer } from './reliability/server-process.js';

const fieldOf = (body: string, name: string) => new RegExp(`name="${name}" value="([^"]+)"`).exec(body)?.[1] ?? '';
const actionOf = (body: string, step: string) => new RegExp(`action="(/pay/${step}\\?[^"]+)"`).exec(body)?.[1]?.replaceAll('&amp;', '&');

/** A browser on another origin over real HTTP: keeps its cookie, follows no redirect. */
export function remoteBrowser(origin: string) {
  let cookie = '';
  return async (url: string, form?: Record<string, string>) => {
    const response = await fetch(new URL(url, origin), {
      method: form ? 'POST' : 'GET',
      redirect: 'manual',
      headers: { ...(cookie ? { cookie } : {}), ...(form ? { 'content-type': 'application/x-www-form-urlencoded' } : {}) },
      body: form ? new URLSearchParams(form).toString() : undefined,
    });
    const set = response.headers.get('set-cookie');
    if (set) cookie = set.split(';')[0];
    return { status: response.status, body: await response.text(), location: response.headers.get('location') ?? undefined };
  };
}

export async function payUpstream(paymentUrl: string, choice: 'pay' | 'cancel', wallet = { mobile: '9800000001', mpin: '1111', otp: '987654' }): Promise<string> {
  const request = remoteBrowser(new URL(paymentUrl).origin);
  const page = await request(paymentUrl);
  if (page.status !== 200) throw new Error(`the upstream's page answered ${page.status}`);
  if (choice === 'cancel') return (await request(actionOf(page.body, 'cancel')!, { csrf_token: fieldOf(page.body, 'csrf_token') })).location!;
  const walletStep = await request(actionOf(page.body, 'wallet')!, { csrf_token: fieldOf(page.body, 'csrf_token'), mobile: wallet.mobile, mpin: wallet.mpin });
  const otpPage = await request(walletStep.location!);
  const done = await request(actionOf(otpPage.body, 'confirm')!, { csrf_token: fieldOf(otpPage.body, 'csrf_token'), attempt: fieldOf(otpPage.body, 'attempt'), otp: wallet.otp });
  if (done.status !== 303) throw new Error(`the upstream's confirm answered ${done.status}: ${done.body.slice(0, 300)}`);
  return done.location!;
}

/** Opens a simulator's page (its address on the upstream) and presses the button of `outcome`: the answer to that press. */
export async function pickOnUpstreamSimulator(pageUrl: string, outcome: SimulatedOutcome) {
  const request = remoteBrowser(new URL(pageUrl).origin);
  const page = await request(pageUrl);
  const form = [...page.body.matchAll(/<form method="post"[\s\S]*?<\/form>/g)].map((m) => m[0]).find((f) => f.includes(`name="outcome" value="${outcome}"`));
  if (!form) throw new Error(`no ${outcome} on the simulator's page (${page.status}):\n${page.body.slice(0, 1000)}`);
  const { action, fields } = formOf(form);
  return request(action, fields);
}

/** A second Bhuktani as a process on a data directory of its own, with one merchant (its `merchant create --json`). */
export async function startUpstreamBhuktani(prefix: string) {
  const dir = tempDir(prefix);
  const created = await runCli(['merchant', 'create', '--name', 'Downstream Bhuktani', '--email', 'ops@example.com', '--password', 'correct horse battery', '--json'], { DATA_DIR: dir.path });
  if (created.code !== 0) throw new Error(`merchant create failed: ${created.stderr}`);
  const merchant = JSON.parse(created.stdout) as { test_secret_key: string; esewa: { test: { product_code: string; secret_key: string } } };
  const server = await startServer(await freePort(), { DATA_DIR: dir.path });
  return {
    server,
    merchant,
    async stop() {
      await server.kill();
      dir.remove();
    },
  };
}
