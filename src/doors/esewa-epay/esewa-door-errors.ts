// Whatever goes wrong on eSewa's door is answered in eSewa's shape: its own refusals as they are,
// the rest (a body the parser refused, a body too large, the store away) with the catalogue's
// status and words as `{"code":0,"error_message":…}`.
import type { FastifyReply, FastifyRequest } from 'fastify';
import { sendJsonError, toAppError } from '../../http/error-handler.js';
import { EsewaError, refusal } from './esewa-errors.js';

export function esewaErrorOf(error: unknown, request: FastifyRequest): EsewaError {
  if (error instanceof EsewaError) return error;
  const appError = toAppError(error, request);
  return refusal(appError.message, appError.status, appError.headers);
}

export function esewaErrorHandler(error: unknown, request: FastifyRequest, reply: FastifyReply) {
  return sendJsonError(request, reply, error, esewaErrorOf(error, request));
}
