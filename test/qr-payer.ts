// A payer who pays by a provider's QR (Fonepay's, in the sandbox), over app.inject without JavaScript:
// presses the QR's button on the hosted page and lands on the QR page; a second device, the sandbox's
// bank app, pays or declines the QR the page links to.
import type { ProviderName } from '../src/providers/registry.js';
import { stepAction } from '../src/portal/checkout-address.js';
import { payerBrowser, type Injector, type PortalResponse } from './portal-client.js';

/** Opens the hosted page of `pidx` and presses `provider`'s QR: the QR page and its address. */
export async function onQrPage(app: Injector, pidx: string, options: { provider?: ProviderName; headers?: Record<string, string> } = {}) {
  const browser = payerBrowser(app, { headers: options.headers });
  await browser.open(pidx);
  const chosen = await browser.post(stepAction('provider', pidx), { provider: options.provider ?? 'fonepay', way: 'qr' });
  if (chosen.status !== 303 || !/^\/pay\/qr\/\w+$/.test(chosen.location ?? '')) throw new Error(`the QR's button answered ${chosen.status}: ${chosen.body.slice(0, 500)}`);
  const page = await browser.get(chosen.location!);
  return { browser, qrPage: chosen.location!, page };
}

/** The sandbox's bank app, on a second device, pays or declines the QR `page` links to. */
export async function bankAppPicks(app: Injector, publicUrl: string, page: PortalResponse, outcome: 'paid' | 'canceled'): Promise<PortalResponse> {
  const href = /href="([^"]+\/sandbox\/fonepay\/bank-app\?qr=[^"]+)"/.exec(page.body)?.[1].replaceAll('&amp;', '&');
  if (!href) throw new Error(`no link to the sandbox's bank app on:\n${page.body.slice(0, 1000)}`);
  const phone = payerBrowser(app);
  const bankApp = await phone.get(href.replace(publicUrl, ''));
  const form = [...bankApp.body.matchAll(/<form method="post"[\s\S]*?<\/form>/g)].map((m) => m[0]).find((f) => f.includes(`value="${outcome}"`));
  if (!form) throw new Error(`no ${outcome} in the bank app:\n${bankApp.body.slice(0, 1000)}`);
  const fields = Object.fromEntries([...form.matchAll(/name="([^"]+)" value="([^"]*)"/g)].map(([, name, value]) => [name, value.replaceAll('&amp;', '&')]));
  return phone.post('/sandbox/fonepay/bank-app', fields);
}
