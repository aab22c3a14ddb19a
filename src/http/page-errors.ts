// Errors on the pages people read (the hosted page, the dashboard): the catalogue's error, logged
// when it is the server's, its headers set (Retry-After while the database is away). Each site draws
// the page in its own look; the API keeps its JSON.
import type { FastifyReply, FastifyRequest } from 'fastify';
import { toAppError } from './error-handler.js';
import type { AppError } from './errors.js';

/** What a person reads while the database cannot be reached. */
export const unavailableNotice = {
  title: 'Briefly unavailable',
  message: 'This service is briefly unavailable. Nothing was lost: please try again in a moment.',
} as const;

export function pageError(error: unknown, request: FastifyRequest, reply: FastifyReply): AppError {
  const appError = toAppError(error, request);
  if (appError.status >= 500) request.log.error({ err: error }, 'request failed');
  reply.headers(appError.headers);
  return appError;
}
