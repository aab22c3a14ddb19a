// eSewa's error shapes: a bad signature is ES104, an unknown product code
// eSewa's "merchant key" message, every other refusal `{"code":0,"error_message":…}`. The door's
// routes answer only these, whatever goes wrong (esewa-door.ts maps the rest). Pure.

export class EsewaError extends Error {
  constructor(
    readonly status: number,
    readonly body: Record<string, unknown>,
    readonly headers: Record<string, string> = {},
  ) {
    super(String(body.message ?? body.error_message));
  }
}

export const invalidSignature = () => new EsewaError(400, { code: 'ES104', message: 'Invalid payload signature.' });

export const unknownProductCode = () => new EsewaError(400, { code: 0, error_message: 'Unable to fetch merchant key. Please try again later.' });

/** Any other refusal, saying what is wrong. */
export const refusal = (message: string, status = 400, headers?: Record<string, string>) => new EsewaError(status, { code: 0, error_message: message }, headers);
