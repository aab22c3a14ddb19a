// Requests as a merchant's server sends them, through the app's HTTP layer.
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';

export const validInitiate = (overrides: Record<string, unknown> = {}) => ({
  return_url: 'https://shop.example.com/return?cart=7',
  website_url: 'https://shop.example.com',
  amount: 1000,
  purchase_order_id: `order-${Math.random().toString(36).slice(2)}`,
  purchase_order_name: 'Test order',
  ...overrides,
});

export const INITIATE_PATH = '/api/v2/epayment/initiate/';
export const LOOKUP_PATH = '/api/v2/epayment/lookup/';

export function merchantApi(app: FastifyInstance, key: string) {
  const headers = { authorization: `Key ${key}` };
  const json = (response: LightMyRequestResponse) => response.json();
  return {
    /** Any request with this key; a string payload is sent as it is, with `contentType` if given. */
    async send(options: { url: string; method?: 'GET' | 'POST'; payload?: string | object; contentType?: string }) {
      const response = await app.inject({
        method: options.method ?? 'POST',
        url: options.url,
        headers: { ...headers, ...(options.contentType ? { 'content-type': options.contentType } : {}) },
        ...(options.payload !== undefined ? { payload: options.payload } : {}),
      });
      return { status: response.statusCode, body: json(response) };
    },
    async initiate(body: unknown = validInitiate()) {
      const response = await app.inject({ method: 'POST', url: '/api/v2/epayment/initiate/', headers, payload: body as object });
      return { status: response.statusCode, body: json(response) };
    },
    async lookup(pidx: string) {
      const response = await app.inject({ method: 'POST', url: '/api/v2/epayment/lookup/', headers, payload: { pidx } });
      return { status: response.statusCode, body: json(response) };
    },
    async transactions(query: Record<string, string | number> = {}) {
      const qs = new URLSearchParams(Object.entries(query).map(([k, v]) => [k, String(v)]));
      const response = await app.inject({ method: 'GET', url: `/api/v2/merchant-transaction/?${qs}`, headers });
      return { status: response.statusCode, body: json(response) };
    },
  };
}

/** POST /api/merchant-transaction/{transaction_id}/refund/ with this key. */
export async function refund(app: FastifyInstance, key: string, transactionId: string, body?: Record<string, unknown>) {
  const response = await app.inject({
    method: 'POST',
    url: `/api/merchant-transaction/${encodeURIComponent(transactionId)}/refund/`,
    headers: { authorization: `Key ${key}` },
    ...(body ? { payload: body } : {}),
  });
  return { status: response.statusCode, body: response.json() };
}
