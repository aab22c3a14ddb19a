import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { isUnavailable, pgCode } from '../db/db.js';
import { AppError } from './errors.js';

/** Maps Fastify's own errors (parsing, limits) into the catalogue, so clients see one shape. */
function fromFastify(error: FastifyError, request?: FastifyRequest): AppError | undefined {
  switch (error.code) {
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return new AppError('json_parse_error', { detail: `JSON parse error - ${error.message}` });
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return new AppError('payload_too_large');
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return new AppError('unsupported_media_type', { detail: `Unsupported media type "${String(request?.headers['content-type'] ?? '').slice(0, 100)}" in request.` });
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return new AppError('bad_request', { detail: 'Request body size did not match Content-Length.' });
  }
  if (error instanceof SyntaxError && error.statusCode === 400) {
    return new AppError('json_parse_error', { detail: `JSON parse error - ${error.message}` });
  }
  return undefined;
}

export function toAppError(error: unknown, request?: FastifyRequest): AppError {
  if (error instanceof AppError) return error;
  const known = fromFastify(error as FastifyError, request);
  if (known) return known;
  if (isUnavailable(error)) return new AppError('unavailable', { headers: { 'retry-after': '1' } });
  // Text PostgreSQL cannot hold (a NUL character) reached a query from a form, a path or a query
  // string that no field check covers: the client's mistake, not a server error.
  if (pgCode(error) === '22021' || pgCode(error) === '22P05') return new AppError('bad_request', { detail: 'Null characters are not allowed.' });
  const status = (error as FastifyError).statusCode;
  if (status && status >= 400 && status < 500) {
    return new AppError('bad_request', { detail: (error as Error).message });
  }
  return new AppError('internal');
}

/**
 * An error's JSON body, written as plain JSON, never through the route's response schema for that
 * status: lookup's 400 schema describes an Expired payment and would turn a field error into a 500.
 * A server error is logged first.
 */
export function sendJsonError(request: FastifyRequest, reply: FastifyReply, error: unknown, answer: { status: number; headers: Record<string, string>; body: unknown }) {
  if (answer.status >= 500) request.log.error({ err: error }, 'request failed');
  return reply
    .code(answer.status)
    .headers(answer.headers)
    .type('application/json; charset=utf-8')
    .serializer((body: unknown) => JSON.stringify(body))
    .send(answer.body);
}

export function errorHandler(error: unknown, request: FastifyRequest, reply: FastifyReply) {
  const appError = toAppError(error, request);
  return sendJsonError(request, reply, error, { status: appError.status, headers: appError.headers, body: appError.toBody() });
}
