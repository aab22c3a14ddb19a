// Every failed call throws a BhuktaniError carrying the HTTP status and the contract's JSON body,
// as a subclass per kind of failure, so callers can `catch (e) { if (e instanceof NotFoundError) … }`.
import type { ErrorBody, FieldErrors } from './types.js';

export class BhuktaniError extends Error {
  /** The HTTP status; 0 when no answer came (see ConnectionError). */
  readonly status: number;
  /** The error body as the server sent it. */
  readonly body: ErrorBody;
  /** The server's `x-request-id`, to quote when asking the operator. */
  readonly requestId: string | undefined;

  constructor(status: number, body: ErrorBody, options: { requestId?: string; message?: string; cause?: unknown } = {}) {
    super(options.message ?? messageOf(status, body), options.cause === undefined ? undefined : { cause: options.cause });
    this.name = new.target.name;
    this.status = status;
    this.body = body;
    this.requestId = options.requestId;
  }

  get detail(): string | undefined {
    return typeof this.body.detail === 'string' ? this.body.detail : undefined;
  }
}

/** 401: no key, a malformed header, or an unknown or revoked key. */
export class AuthenticationError extends BhuktaniError {}

/**
 * 400: the request was refused. `fields` holds the failing fields (empty when the body has only a
 * `detail`, as for a refund over the refundable amount or malformed JSON).
 */
export class ValidationError extends BhuktaniError {
  get fields(): FieldErrors {
    const { detail: _detail, error_key: _errorKey, status_code: _statusCode, ...fields } = this.body;
    return fields as FieldErrors;
  }
}

/** 404: an unknown pidx or transaction (or one of another merchant or environment), or a page past the end. */
export class NotFoundError extends BhuktaniError {}

/** 409: an Idempotency-Key reused with a different request, or still in progress. */
export class ConflictError extends BhuktaniError {}

/** 429: slow down; `retryAfterSeconds` when the server said. */
export class RateLimitError extends BhuktaniError {
  readonly retryAfterSeconds: number | undefined;
  constructor(status: number, body: ErrorBody, options: { requestId?: string; retryAfterSeconds?: number } = {}) {
    super(status, body, options);
    this.retryAfterSeconds = options.retryAfterSeconds;
  }
}

/** 5xx: the service could not answer now; the same request (with the same Idempotency-Key) may be retried. */
export class ServiceUnavailableError extends BhuktaniError {
  readonly retryAfterSeconds: number | undefined;
  constructor(status: number, body: ErrorBody, options: { requestId?: string; retryAfterSeconds?: number } = {}) {
    super(status, body, options);
    this.retryAfterSeconds = options.retryAfterSeconds;
  }
}

/** No HTTP answer at all: the server is unreachable, or the request timed out. */
export class ConnectionError extends BhuktaniError {
  constructor(message: string, cause: unknown) {
    super(0, { detail: message }, { message, cause });
  }
}

function messageOf(status: number, body: ErrorBody): string {
  if (typeof body.detail === 'string') return `${status}: ${body.detail}`;
  const fields = Object.keys(body).filter((key) => key !== 'error_key' && key !== 'status_code');
  return fields.length ? `${status}: invalid ${fields.join(', ')}` : `HTTP ${status}`;
}

/** The error for a non-2xx answer. */
export function errorFor(status: number, body: ErrorBody, headers: { get(name: string): string | null }): BhuktaniError {
  const requestId = headers.get('x-request-id') ?? undefined;
  const retryAfter = Number(headers.get('retry-after'));
  const retryAfterSeconds = Number.isFinite(retryAfter) && retryAfter >= 0 && headers.get('retry-after') !== null ? retryAfter : undefined;
  if (status === 400) return new ValidationError(status, body, { requestId });
  if (status === 401) return new AuthenticationError(status, body, { requestId });
  if (status === 404) return new NotFoundError(status, body, { requestId });
  if (status === 409) return new ConflictError(status, body, { requestId });
  if (status === 429) return new RateLimitError(status, body, { requestId, retryAfterSeconds });
  if (status >= 500) return new ServiceUnavailableError(status, body, { requestId, retryAfterSeconds });
  return new BhuktaniError(status, body, { requestId });
}
