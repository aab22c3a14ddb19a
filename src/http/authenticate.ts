// `Authorization: Key <secret>` (the word matched case-insensitively), checked before the body is
// read, so an unauthenticated request costs no parsing. A live key works only for an approved merchant.
import type { FastifyRequest, onRequestAsyncHookHandler } from 'fastify';
import { liveRefusal } from '../merchants/approval-state-machine.js';
import type { ApiCaller } from '../merchants/merchant.js';
import type { SecretKeyResolver } from '../merchants/secret-key-resolver.js';
import { AppError } from './errors.js';

declare module 'fastify' {
  interface FastifyRequest {
    caller?: ApiCaller;
  }
}

const HEADER = /^key[ \t]+(\S+)[ \t]*$/i;

export function authenticate(resolve: SecretKeyResolver): onRequestAsyncHookHandler {
  return async (request) => {
    const header = request.headers.authorization;
    const match = typeof header === 'string' ? HEADER.exec(header) : null;
    if (!match) throw new AppError('not_authenticated');
    const caller = await resolve(match[1]);
    if (!caller) throw new AppError('invalid_token');
    // The merchant comes from the key cache: an approval or suspension shows within KEY_CACHE_SECONDS.
    const refusal = caller.environment === 'live' ? liveRefusal(caller.merchant.status) : undefined;
    if (refusal) throw new AppError('forbidden', { detail: refusal });
    request.caller = caller;
  };
}

/** The authenticated caller; routes behind `authenticate` always have one. */
export function callerOf(request: FastifyRequest): ApiCaller {
  if (!request.caller) throw new AppError('not_authenticated');
  return request.caller;
}
