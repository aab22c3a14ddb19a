// Payment links as the tests drive them: the merchant's server through the API, and a payer who opens
// a link's page, fills it in, pays on the hosted page and lands on the link's receipt page.
import type { FastifyInstance } from 'fastify';
import { payerBrowser, type Injector, type PortalResponse } from './portal-client.js';

export const LINKS_PATH = '/api/v2/payment-links/';

export function linkApi(app: FastifyInstance, key: string) {
  const send = async (method: 'GET' | 'POST', url: string, payload?: object | string, headers: Record<string, string> = {}) => {
    const response = await app.inject({ method, url, headers: { authorization: `Key ${key}`, ...headers }, ...(payload !== undefined ? { payload } : {}) });
    return { status: response.statusCode, body: response.json(), headers: response.headers };
  };
  return {
    send,
    create: (body: object | string, headers?: Record<string, string>) => send('POST', LINKS_PATH, body, headers),
    list: (query = '') => send('GET', `${LINKS_PATH}${query}`),
    get: (idx: string) => send('GET', `${LINKS_PATH}${encodeURIComponent(idx)}/`),
    deactivate: (idx: string) => send('POST', `${LINKS_PATH}${encodeURIComponent(idx)}/deactivate/`),
    activate: (idx: string) => send('POST', `${LINKS_PATH}${encodeURIComponent(idx)}/activate/`),
  };
}

/** The path of an address on PUBLIC_URL (the app is driven through inject). */
export const pathOf = (url: string) => {
  const parsed = new URL(url, 'http://x.invalid');
  return `${parsed.pathname}${parsed.search}`;
};

/** The code of a link's address, `…/l/<code>`. */
export const codeOf = (url: string) => /\/l\/([A-Za-z0-9]+)$/.exec(url)![1];

export function linkPayer(app: Injector, options: Parameters<typeof payerBrowser>[1] = {}) {
  const browser = payerBrowser(app, options);
  return {
    browser,
    open: (code: string): Promise<PortalResponse> => browser.get(`/l/${code}`),
    /** Posts the link's form (after opening it, for its token); the hosted page's pidx when the payment started. */
    async start(code: string, fields: Record<string, string> = {}) {
      await browser.get(`/l/${code}`);
      const answer = await browser.post(`/l/${code}`, fields);
      const pidx = answer.status === 303 ? new URL(answer.location!).searchParams.get('pidx')! : undefined;
      return { answer, pidx };
    },
    /**
     * Pays the payment through the hosted page, as the same payer, and follows the return to the
     * link's receipt page: both answers.
     */
    async pay(pidx: string, mobile = '9800000001') {
      const done = await browser.pay(pidx, mobile);
      const receipt = done.status === 303 && done.location ? await browser.get(pathOf(done.location)) : undefined;
      return { done, receipt };
    },
  };
}
