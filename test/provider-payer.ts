// A payer who pays through a provider (contract section 13), over app.inject without JavaScript:
// picks the provider's button on the hosted page, follows the hand-off (a redirect, or the form it
// posts), picks an outcome on the sandbox simulator's page, and comes back to Bhuktani. Addresses
// under PUBLIC_URL are the app's own, so the whole round trip stays in process.
import { paymentPath } from '../src/payments/payment-url.js';
import { stepAction } from '../src/portal/checkout-address.js';
import type { ProviderName } from '../src/providers/registry.js';
import type { SimulatedOutcome } from '../src/sandbox/simulator-store.js';
import { payerBrowser, type Injector, type PortalResponse } from './portal-client.js';

const decode = (value: string) => value.replaceAll('&amp;', '&').replaceAll('&quot;', '"').replaceAll('&#39;', "'").replaceAll('&lt;', '<').replaceAll('&gt;', '>');

/** The hidden fields of the first form of `body` that has them, and its action. */
export function formOf(body: string): { action: string; fields: Record<string, string> } {
  const form = /<form method="post" action="([^"]*)"[^>]*>([\s\S]*?)<\/form>/.exec(body);
  if (!form) throw new Error(`no form in:\n${body.slice(0, 2000)}`);
  const fields = Object.fromEntries([...form[2].matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g)].map((m) => [decode(m[1]), decode(m[2])]));
  return { action: decode(form[1]), fields };
}

/** The provider's page a hand-off page links to (Khalti's payment_url), if it is one. */
export function handoffLink(body: string): string | undefined {
  const href = /<a class="button primary" href="([^"]+)" data-auto-follow>/.exec(body)?.[1];
  return href && decode(href);
}

export function providerPayer(app: Injector, publicUrl = 'http://bhuktani.test', options: Parameters<typeof payerBrowser>[1] = {}) {
  const browser = payerBrowser(app, options);
  const local = (url: string) => (url.startsWith(publicUrl) ? url.slice(publicUrl.length) : url);

  return {
    browser,
    /** Presses the provider's button; the simulator's page (or the refusal) it lands on. */
    async choose(pidx: string, provider: ProviderName): Promise<PortalResponse> {
      await browser.get(paymentPath(pidx));
      const chosen = await browser.post(stepAction('provider', pidx), { provider });
      const link = handoffLink(chosen.body);
      if (link) return browser.get(local(link));
      if (chosen.status !== 200 || !chosen.body.includes('data-auto-submit')) return chosen;
      const { action, fields } = formOf(chosen.body);
      const posted = await app.inject({ method: 'POST', url: local(action), remoteAddress: options.remoteAddress, headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: new URLSearchParams(fields).toString() });
      if (posted.statusCode !== 302) return { status: posted.statusCode, body: posted.body };
      return browser.get(local(posted.headers.location as string));
    },
    /** Picks the outcome on the simulator's page; the address it sends the payer back to. */
    async pick(simulatorPage: PortalResponse, outcome: SimulatedOutcome): Promise<string> {
      // The page's own token (the browser may have opened other pages since), in the form of that outcome.
      const form = [...simulatorPage.body.matchAll(/<form method="post"[\s\S]*?<\/form>/g)].map((m) => m[0]).find((f) => f.includes(`name="outcome" value="${outcome}"`));
      if (!form) throw new Error(`no ${outcome} on the simulator's page:\n${simulatorPage.body.slice(0, 1000)}`);
      const { action, fields } = formOf(form);
      const answer = await browser.post(action, fields);
      if (answer.status !== 303) throw new Error(`the simulator answered ${answer.status}: ${answer.body.slice(0, 500)}`);
      return answer.location!;
    },
    /** Comes back to Bhuktani at `returnUrl`: where Bhuktani sends the payer on. */
    async back(returnUrl: string): Promise<PortalResponse> {
      const answer = await browser.get(local(returnUrl));
      // The page on to the merchant: its link is where the payer goes.
      return { ...answer, location: answer.location ?? handoffLink(answer.body) };
    },
    /** The whole way: choose, pick, come back; the last answer (the redirect to the merchant, or the hosted page). */
    async pay(pidx: string, provider: ProviderName, outcome: SimulatedOutcome = 'paid'): Promise<PortalResponse> {
      const page = await this.choose(pidx, provider);
      if (page.status !== 200) throw new Error(`choosing ${provider} answered ${page.status}: ${page.body.slice(0, 500)}`);
      return this.back(await this.pick(page, outcome));
    },
  };
}
