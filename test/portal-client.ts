// A payer's browser without JavaScript, over app.inject: it keeps the cookie, reads the CSRF token
// from each form and posts what a person would type.
import type { FastifyInstance } from 'fastify';

export interface PortalResponse {
  status: number;
  body: string;
  location?: string;
}

export function payerBrowser(app: FastifyInstance) {
  let cookie = '';
  let csrf = '';
  let attempt = '';

  const remember = (response: { headers: Record<string, unknown>; body: string }) => {
    const setCookie = response.headers['set-cookie'];
    const first = Array.isArray(setCookie) ? setCookie[0] : setCookie;
    if (typeof first === 'string') cookie = first.split(';')[0];
    csrf = /name="csrf_token" value="([^"]+)"/.exec(response.body)?.[1] ?? csrf;
    attempt = /name="attempt" value="([^"]+)"/.exec(response.body)?.[1] ?? attempt;
  };

  const get = async (url: string): Promise<PortalResponse> => {
    const response = await app.inject({ method: 'GET', url, headers: cookie ? { cookie } : {} });
    remember(response);
    return { status: response.statusCode, body: response.body, location: response.headers.location as string | undefined };
  };

  const post = async (url: string, fields: Record<string, string>): Promise<PortalResponse> => {
    const response = await app.inject({
      method: 'POST',
      url,
      headers: { 'content-type': 'application/x-www-form-urlencoded', ...(cookie ? { cookie } : {}) },
      payload: new URLSearchParams({ csrf_token: csrf, ...fields }).toString(),
    });
    remember(response);
    return { status: response.statusCode, body: response.body, location: response.headers.location as string | undefined };
  };

  return {
    get,
    post,
    open: (pidx: string) => get(`/pay/${pidx}`),
    /** Mobile + MPIN; on success follows the redirect to the OTP step. */
    async wallet(pidx: string, mobile: string, mpin: string) {
      const response = await post(`/pay/${pidx}/wallet`, { mobile, mpin });
      if (response.status === 303 && response.location) return get(response.location);
      return response;
    },
    otp: (pidx: string, otp: string) => post(`/pay/${pidx}/confirm`, { attempt, otp }),
    cancel: (pidx: string) => post(`/pay/${pidx}/cancel`, {}),
    /** The OTP step's form fields, to replay them (racing confirms). */
    confirmFields: (otp: string) => ({ csrf_token: csrf, attempt, otp, cookie }),
    /** Opens the page, pays with the wallet and returns the redirect to the merchant. */
    async pay(pidx: string, mobile = '9800000001', mpin = '1111', otp = '987654') {
      await get(`/pay/${pidx}`);
      const step = await this.wallet(pidx, mobile, mpin);
      if (!step.body.includes('name="otp"')) return step;
      return this.otp(pidx, otp);
    },
  };
}

export function callbackParams(location: string): Record<string, string> {
  return Object.fromEntries(new URL(location).searchParams);
}
