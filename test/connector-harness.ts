// What a connector is driven with outside the app: an attempt as the hosted page starts one, and a
// transport that answers as a provider's example does and keeps what the connector asked.
import type { HttpRequest, Transport } from '../src/providers/provider-http.js';
import type { AttemptToStart } from '../src/providers/provider.js';

export function attemptToStart(overrides: Partial<AttemptToStart> = {}): AttemptToStart {
  return {
    idx: 'A1',
    amount: 1000,
    environment: 'test',
    providerReference: null,
    createdAt: new Date(),
    pidx: 'pidx',
    orderName: 'Order',
    merchantName: 'Merchant',
    websiteUrl: 'https://shop.example/',
    customer: null,
    returnUrl: (outcome) => `https://bhuktani.example/pay/return/${outcome}`,
    ...overrides,
  };
}

/** A transport that answers `body` (JSON) with `status`, and the requests it was asked. */
export function answering(body: unknown, status = 200): { asked: HttpRequest[]; transport: Transport } {
  const asked: HttpRequest[] = [];
  const transport: Transport = async (request) => {
    asked.push(request);
    return { status, contentType: 'application/json', text: JSON.stringify(body) };
  };
  return { asked, transport };
}
