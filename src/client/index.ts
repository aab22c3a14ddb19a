// `bhuktani/client`: a typed client for a merchant's server. It uses only fetch and node:crypto,
// so it can be copied into or installed by any Node 20+ project on its own.
//
//   const bhuktani = new BhuktaniClient({ baseUrl: 'http://127.0.0.1:8080', secretKey: process.env.BHUKTANI_KEY! });
//   const { payment_url } = await bhuktani.initiate({ … }, { idempotencyKey: orderId });
import { ConnectionError, errorFor } from './errors.js';
import { verifyCallback, verifyWebhook } from './signatures.js';
import type {
  ErrorBody,
  InitiateRequest,
  InitiateResponse,
  LookupResponse,
  PaymentStatus,
  RefundResponse,
  TransactionFilters,
  TransactionPage,
  TransactionRecord,
} from './types.js';

export {
  AuthenticationError,
  BhuktaniError,
  ConflictError,
  ConnectionError,
  NotFoundError,
  RateLimitError,
  ServiceUnavailableError,
  ValidationError,
} from './errors.js';
export * from './types.js';
export { CALLBACK_SIGNED_PARAMETERS, verifyCallback, verifyWebhook } from './signatures.js';

export interface BhuktaniClientOptions {
  /** Where Bhuktani serves, e.g. `http://127.0.0.1:8080` (without `/api/v2`). */
  baseUrl: string;
  /** `test_secret_key_…` for the sandbox, `live_secret_key_…` for real payments. */
  secretKey: string;
  /** Another fetch (a proxy agent, a test double); the global fetch by default. */
  fetch?: typeof fetch;
  /** Per request; 30 seconds by default. */
  timeoutMs?: number;
}

export interface IdempotencyOptions {
  /**
   * Sent as `Idempotency-Key`: a retry with the same key and body gets the first answer instead of
   * acting twice (kept 24 hours). Use your order id, or one random id per logical attempt.
   */
  idempotencyKey?: string;
}

/** Lookup answers HTTP 400 with the lookup body for these: they are results, not errors. */
const FINISHED_UNPAID: readonly PaymentStatus[] = ['Expired', 'User canceled'];

type Method = 'GET' | 'POST';

export class BhuktaniClient {
  private readonly baseUrl: string;
  private readonly secretKey: string;
  private readonly fetch: typeof fetch;
  private readonly timeoutMs: number;

  constructor(options: BhuktaniClientOptions) {
    if (!/^https?:\/\//.test(options.baseUrl ?? '')) throw new TypeError('BhuktaniClient: baseUrl must be an http(s) URL');
    if (!options.secretKey) throw new TypeError('BhuktaniClient: secretKey is required');
    this.baseUrl = options.baseUrl.replace(/\/+$/, '');
    this.secretKey = options.secretKey;
    this.fetch = options.fetch ?? globalThis.fetch;
    this.timeoutMs = options.timeoutMs ?? 30_000;
  }

  /** POST /api/v2/epayment/initiate/: a payment and the `payment_url` to send the payer to. */
  async initiate(request: InitiateRequest, options: IdempotencyOptions = {}): Promise<InitiateResponse> {
    const answer = await this.send('POST', '/api/v2/epayment/initiate/', { body: request, idempotencyKey: options.idempotencyKey });
    return this.okOrThrow<InitiateResponse>(answer);
  }

  /**
   * POST /api/v2/epayment/lookup/: the payment's status, the final word on it. `Expired` and
   * `User canceled` come back as results (the server answers them with HTTP 400).
   */
  async lookup(pidx: string): Promise<LookupResponse> {
    const answer = await this.send('POST', '/api/v2/epayment/lookup/', { body: { pidx } });
    if (answer.status === 400 && isFinishedUnpaid(answer.body)) return answer.body as unknown as LookupResponse;
    return this.okOrThrow<LookupResponse>(answer);
  }

  /** One page of GET /api/v2/merchant-transaction/, newest first. */
  async transactionPage(filters: TransactionFilters & { page?: number } = {}): Promise<TransactionPage> {
    const { page, ...rest } = filters;
    return this.okOrThrow<TransactionPage>(await this.send('GET', `/api/v2/merchant-transaction/?${listQuery(rest, page)}`));
  }

  /**
   * Every transaction record matching the filters, newest first, over all pages:
   * `for await (const record of client.transactions({ status: 'Completed' })) …`.
   * A record that shifts onto the next page while this runs (new payments arrive at the top) is
   * yielded once.
   */
  async *transactions(filters: TransactionFilters = {}): AsyncGenerator<TransactionRecord, void, undefined> {
    const seen = new Set<string>();
    let query: string | undefined = listQuery(filters);
    while (query !== undefined) {
      const page: TransactionPage = this.okOrThrow<TransactionPage>(await this.send('GET', `/api/v2/merchant-transaction/?${query}`));
      for (const record of page.records) {
        if (seen.has(record.idx)) continue;
        seen.add(record.idx);
        yield record;
      }
      // `next` is an absolute URL built from the server's PUBLIC_URL; only its query is followed,
      // against baseUrl, so the key is never sent to any other address.
      query = page.next ? new URL(page.next).searchParams.toString() : undefined;
    }
  }

  /**
   * POST /api/merchant-transaction/{transaction_id}/refund/: `amount` in paisa, or the whole
   * remaining amount without it.
   */
  async refund(transactionId: string, options: { amount?: number } & IdempotencyOptions = {}): Promise<RefundResponse> {
    const body = options.amount === undefined ? {} : { amount: options.amount };
    const path = `/api/merchant-transaction/${encodeURIComponent(transactionId)}/refund/`;
    return this.okOrThrow<RefundResponse>(await this.send('POST', path, { body, idempotencyKey: options.idempotencyKey }));
  }

  /**
   * True when the redirect to return_url was signed by Bhuktani with the merchant's signing secret
   * (dashboard, per environment). Pass the query (a URL, URLSearchParams or a plain object).
   */
  verifyCallback(params: URL | URLSearchParams | Record<string, string | undefined>, signingSecret: string): boolean {
    return verifyCallback(params instanceof URL ? params.searchParams : params, signingSecret);
  }

  /** True when `header` (Bhuktani-Signature) signs this exact raw body and is fresh (5 minutes by default). */
  verifyWebhook(rawBody: string, header: string | null | undefined, signingSecret: string, options?: { toleranceSeconds?: number; now?: Date }): boolean {
    return verifyWebhook(rawBody, header, signingSecret, options);
  }

  private async send(method: Method, path: string, options: { body?: unknown; idempotencyKey?: string } = {}): Promise<Answer> {
    const headers: Record<string, string> = { authorization: `Key ${this.secretKey}`, accept: 'application/json' };
    if (options.body !== undefined) headers['content-type'] = 'application/json';
    if (options.idempotencyKey !== undefined) headers['idempotency-key'] = options.idempotencyKey;
    let response: Response;
    let text: string;
    try {
      response = await this.fetch(`${this.baseUrl}${path}`, {
        method,
        headers,
        body: options.body === undefined ? undefined : JSON.stringify(options.body),
        signal: AbortSignal.timeout(this.timeoutMs),
        redirect: 'error',
      });
      text = await response.text();
    } catch (error) {
      const cause = error instanceof Error && error.cause instanceof Error ? `: ${error.cause.message}` : '';
      const reason = error instanceof Error ? `${error.message}${cause}` : String(error);
      throw new ConnectionError(`${method} ${this.baseUrl}${path} failed: ${reason}`, error);
    }
    return { status: response.status, headers: response.headers, body: parseBody(text) };
  }

  private okOrThrow<T>(answer: Answer): T {
    if (answer.status >= 200 && answer.status < 300) {
      if (answer.body === undefined) throw errorFor(502, { detail: 'The answer was not JSON.' }, answer.headers);
      return answer.body as T;
    }
    throw errorFor(answer.status, answer.body ?? { detail: `HTTP ${answer.status} without a JSON body.` }, answer.headers);
  }
}

interface Answer {
  status: number;
  headers: Headers;
  /** undefined when the body is not a JSON object. */
  body: ErrorBody | undefined;
}

function parseBody(text: string): ErrorBody | undefined {
  try {
    const value: unknown = JSON.parse(text);
    return value !== null && typeof value === 'object' ? (value as ErrorBody) : undefined;
  } catch {
    return undefined;
  }
}

function isFinishedUnpaid(body: ErrorBody | undefined): boolean {
  return typeof body?.pidx === 'string' && FINISHED_UNPAID.includes(body.status as PaymentStatus);
}

function listQuery(filters: TransactionFilters, page?: number): string {
  const params = new URLSearchParams();
  if (page !== undefined) params.set('page', String(page));
  if (filters.page_size !== undefined) params.set('page_size', String(filters.page_size));
  for (const name of ['status', 'from', 'to', 'purchase_order_id'] as const) {
    const value = filters[name];
    if (value !== undefined) params.set(name, value instanceof Date ? value.toISOString() : value);
  }
  return params.toString();
}
