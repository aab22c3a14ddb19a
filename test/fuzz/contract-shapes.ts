// The contract's answer shapes (CONTRACT.md sections 2 and 3), as checks a fuzzer can run on any
// response: an error is one of the catalogue's JSON bodies, a success has its route's shape.
import { expect } from 'vitest';

export interface Answer {
  status: number;
  headers: Record<string, unknown>;
  body: string;
}

/** Field errors as the gateway's serializers give them: lists of messages, nested objects, lists of objects. */
export function isFieldErrors(value: unknown): boolean {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return false;
  return Object.values(value).every(isFieldError);
}

function isFieldError(value: unknown): boolean {
  if (Array.isArray(value)) return value.length > 0 && (value.every((m) => typeof m === 'string' && m !== '') || value.every(isFieldErrors));
  return isFieldErrors(value);
}

const GENERIC_STATUSES = [401, 404, 405, 409, 413, 415, 429];

/** Parses a JSON answer; anything else fails the test with the answer shown. */
export function jsonOf(answer: Answer): unknown {
  expect(String(answer.headers['content-type']), `${answer.status} ${answer.body.slice(0, 300)}`).toMatch(/^application\/json/);
  try {
    return JSON.parse(answer.body);
  } catch {
    throw new Error(`not JSON (${answer.status}): ${answer.body.slice(0, 300)}`);
  }
}

/**
 * An API error in one of the contract's shapes:
 * - 400 validation: `{"<field>": [...] | {...} | [{...}], …, "error_key": "validation_error"}`;
 * - 400 other (malformed JSON, a refused refund, a bad header): `{"detail": "…", "error_key": "validation_error"}`;
 * - 404 unknown object: `{"detail": "Not found.", "error_key": "validation_error"}`; a page past the end `{"detail": "Invalid page."}`;
 * - generic (401, 404 route, 405, 409, 413, 415, 429): `{"detail": "…", "status_code": <status>}`.
 */
export function expectApiError(answer: Answer): Record<string, unknown> {
  const body = jsonOf(answer) as Record<string, unknown>;
  const shown = `${answer.status} ${answer.body.slice(0, 500)}`;
  expect(answer.status, shown).toBeGreaterThanOrEqual(400);
  expect(answer.status, shown).toBeLessThan(500);
  expect(body !== null && typeof body === 'object' && !Array.isArray(body), shown).toBe(true);
  const keys = Object.keys(body).sort();
  const detailOnly = typeof body.detail === 'string' && body.detail !== '';
  if (answer.status === 400) {
    expect(body.error_key, shown).toBe('validation_error');
    const { error_key: _ignored, ...fields } = body;
    if (keys.length === 2 && detailOnly) return body;
    expect(Object.keys(fields).length, shown).toBeGreaterThan(0);
    expect(isFieldErrors(fields), shown).toBe(true);
    return body;
  }
  if (answer.status === 404 && body.error_key !== undefined) {
    expect(body, shown).toStrictEqual({ detail: 'Not found.', error_key: 'validation_error' });
    return body;
  }
  if (answer.status === 404 && keys.length === 1) {
    expect(body, shown).toStrictEqual({ detail: 'Invalid page.' });
    return body;
  }
  expect(GENERIC_STATUSES, shown).toContain(answer.status);
  expect(keys, shown).toEqual(['detail', 'status_code']);
  expect(detailOnly, shown).toBe(true);
  expect(body.status_code, shown).toBe(answer.status);
  return body;
}

/** The initiate success of contract section 3, echoing every `merchant_*` field sent (when `sent` is known). */
export function expectInitiated(answer: Answer, sent: unknown, publicUrl: string) {
  const body = jsonOf(answer) as Record<string, unknown>;
  expect(answer.status).toBe(200);
  if (sent === undefined) {
    expect(body).toMatchObject({ pidx: expect.stringMatching(/^[\w-]+$/), payment_url: `${publicUrl}/pay/?pidx=${body.pidx}`, expires_at: expect.any(String), expires_in: expect.any(Number) });
    for (const key of Object.keys(body)) expect(['pidx', 'payment_url', 'expires_at', 'expires_in'].includes(key) || key.startsWith('merchant_'), key).toBe(true);
    return;
  }
  const echoed = Object.fromEntries(
    Object.entries(sent as Record<string, unknown>)
      .filter(([key]) => key.startsWith('merchant_'))
      // As JSON carries them (-0 is 0).
      .map(([key, value]) => [key, JSON.parse(JSON.stringify(value) ?? 'null')]),
  );
  expect(body).toStrictEqual({
    pidx: expect.stringMatching(/^[\w-]+$/),
    payment_url: `${publicUrl}/pay/?pidx=${body.pidx}`,
    expires_at: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}[+-]\d{2}:\d{2}$/),
    expires_in: expect.any(Number),
    ...echoed,
  });
}

const STATUSES = ['Initiated', 'Pending', 'Completed', 'Partially refunded', 'Refunded', 'Expired', 'User canceled'];

/** The lookup shape of specification 2.4 (200, or 400 for Expired and User canceled). */
export function expectLookup(answer: Answer) {
  const body = jsonOf(answer) as Record<string, unknown>;
  expect(body).toStrictEqual({
    pidx: expect.any(String),
    total_amount: expect.any(Number),
    status: expect.any(String),
    transaction_id: body.transaction_id === null ? null : expect.any(String),
    fee: expect.any(Number),
    refunded: expect.any(Boolean),
    purchase_order_id: expect.any(String),
    expires_at: expect.any(String),
    refunded_amount: expect.any(Number),
  });
  expect(STATUSES).toContain(body.status);
  expect(answer.status).toBe(body.status === 'Expired' || body.status === 'User canceled' ? 400 : 200);
}

/** The paginated list of specification 2.5. */
export function expectTransactionPage(answer: Answer) {
  const body = jsonOf(answer) as Record<string, unknown>;
  expect(answer.status).toBe(200);
  expect(body).toStrictEqual({
    total_pages: expect.any(Number),
    total_records: expect.any(Number),
    next: body.next === null ? null : expect.stringMatching(/^https?:\/\//),
    previous: body.previous === null ? null : expect.stringMatching(/^https?:\/\//),
    record_range: [expect.any(Number), expect.any(Number)],
    current_page: expect.any(Number),
    records: expect.any(Array),
  });
  for (const record of body.records as Record<string, unknown>[]) {
    expect(record).toMatchObject({
      idx: expect.any(String),
      type: { idx: expect.any(String), name: expect.stringMatching(/^(Wallet payment|Refund)$/) },
      state: { idx: expect.any(String), name: expect.any(String), template: expect.any(String) },
      amount: expect.any(Number),
      fee_amount: expect.any(Number),
      refunded: expect.any(Boolean),
      created_on: expect.any(String),
      ebanker: null,
      user: { idx: expect.any(String), name: expect.any(String), mobile: expect.any(String) },
      merchant: { idx: expect.any(String), name: expect.any(String), mobile: expect.any(String) },
    });
  }
}
