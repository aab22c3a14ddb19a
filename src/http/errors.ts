// Every expected failure is an AppError with a code from this catalogue; the error handler turns it
// into the contract's JSON body. The bodies follow the gateway this API is compatible with.

export type FieldErrors = { [field: string]: FieldError };
export type FieldError = string[] | FieldErrors | FieldErrors[];

interface Entry {
  status: number;
  /** The default `detail`; undefined for field validation errors, which carry fields instead. */
  detail?: string;
  /** Generic errors carry `status_code`, validation-like ones `error_key`. */
  shape: 'status_code' | 'error_key' | 'detail';
}

export const errorCatalogue = {
  /** No Authorization header, or a value without the `Key` word. */
  not_authenticated: { status: 401, detail: 'Authentication credentials were not provided.', shape: 'status_code' },
  /** A key that is malformed, unknown or revoked. */
  invalid_token: { status: 401, detail: 'Invalid token.', shape: 'status_code' },
  /** Body fields fail validation; the body lists every failing field. */
  validation_error: { status: 400, shape: 'error_key' },
  /** A request that is well-formed but cannot be done (a refund over the refundable amount). */
  bad_request: { status: 400, shape: 'error_key' },
  /** The body is not parseable JSON. */
  json_parse_error: { status: 400, shape: 'error_key' },
  /** A key that is valid but may not do this: a live key of a merchant not approved, or suspended. */
  forbidden: { status: 403, detail: 'You do not have permission to perform this action.', shape: 'status_code' },
  /** A pidx or transaction unknown to this merchant and environment. */
  not_found: { status: 404, detail: 'Not found.', shape: 'error_key' },
  /** A page number past the end of the transaction list. */
  invalid_page: { status: 404, detail: 'Invalid page.', shape: 'detail' },
  /** No such route. */
  route_not_found: { status: 404, detail: 'Not found.', shape: 'status_code' },
  method_not_allowed: { status: 405, detail: 'Method not allowed.', shape: 'status_code' },
  /** A replayed Idempotency-Key with a different body, or another conflict of state. */
  conflict: { status: 409, shape: 'status_code' },
  payload_too_large: { status: 413, detail: 'Request body is too large.', shape: 'status_code' },
  unsupported_media_type: { status: 415, shape: 'status_code' },
  rate_limited: { status: 429, detail: 'Request was throttled.', shape: 'status_code' },
  /** The database cannot be reached; the client should retry. */
  unavailable: { status: 503, detail: 'Service temporarily unavailable, try again shortly.', shape: 'status_code' },
  internal: { status: 500, detail: 'A server error occurred.', shape: 'status_code' },
} as const satisfies Record<string, Entry>;

export type ErrorCode = keyof typeof errorCatalogue;

export class AppError extends Error {
  readonly code: ErrorCode;
  readonly status: number;
  readonly fields?: FieldErrors;
  readonly headers: Record<string, string>;

  constructor(code: ErrorCode, options: { detail?: string; fields?: FieldErrors; headers?: Record<string, string> } = {}) {
    const entry: Entry = errorCatalogue[code];
    super(options.detail ?? entry.detail ?? code);
    this.code = code;
    this.status = entry.status;
    this.fields = options.fields;
    this.headers = options.headers ?? {};
  }

  toBody(): Record<string, unknown> {
    const entry: Entry = errorCatalogue[this.code];
    if (this.fields) return { ...this.fields, error_key: 'validation_error' };
    if (entry.shape === 'error_key') return { detail: this.message, error_key: 'validation_error' };
    if (entry.shape === 'status_code') return { detail: this.message, status_code: this.status };
    return { detail: this.message };
  }
}
