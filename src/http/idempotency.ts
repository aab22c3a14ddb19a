// `Idempotency-Key` for routes marked `config: { idempotent: true }`: the first response to a key
// is stored for 24 hours and replayed for the same key and body; the same key with another body is
// a 409; a second request arriving while the first runs waits for its answer instead of acting.
import { createHash } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../context.js';
import type { Queryable } from '../db/db.js';
import { callerOf } from './authenticate.js';
import { AppError } from './errors.js';
import {
  claimIdempotencyKey,
  findIdempotencyKey,
  releaseIdempotencyKey,
  saveIdempotentResponse,
  takeOverIdempotencyKey,
  type IdempotencyScope,
} from './idempotency-store.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    idempotent?: boolean;
  }
  interface FastifyRequest {
    idempotency?: IdempotencyScope;
  }
}

const KEY = /^[\x21-\x7e]{1,255}$/;
const WAIT_STEP_MS = 50;
const WAIT_MAX_MS = 15_000;

/** Key order does not matter: the same JSON object always hashes the same. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value && typeof value === 'object') {
    return `{${Object.keys(value)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonical((value as Record<string, unknown>)[k])}`)
      .join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/**
 * For a route whose effect is one transaction: saves the answer to the request's Idempotency-Key in
 * that same transaction (`save(tx)`), so the effect and its answer commit together. Saved only
 * after it, a commit whose answer was lost with the primary (a 503 for an outcome that did happen)
 * would leave the key unanswered, and the client's retry with it would act a second time. Without a
 * key, nothing to save.
 */
export function answerInTransaction(request: FastifyRequest, status: number, body: unknown): ((tx: Queryable) => Promise<void>) | undefined {
  const scope = request.idempotency;
  if (!scope) return undefined;
  return (tx) => saveIdempotentResponse(tx, scope, status, JSON.stringify(body));
}

export function idempotency(app: FastifyInstance, ctx: AppContext) {
  const replay = (reply: FastifyReply, status: number, body: string) =>
    reply.code(status).header('idempotent-replayed', 'true').type('application/json; charset=utf-8').serializer((b: unknown) => b as string).send(body);

  app.addHook('preHandler', async (request: FastifyRequest, reply: FastifyReply) => {
    if (!request.routeOptions.config.idempotent) return;
    const key = request.headers['idempotency-key'];
    if (key === undefined) return;
    if (typeof key !== 'string' || !KEY.test(key)) {
      throw new AppError('bad_request', { detail: 'Idempotency-Key must be 1 to 255 printable ASCII characters.' });
    }
    const caller = callerOf(request);
    const scope: IdempotencyScope = { merchantId: caller.merchant.id, environment: caller.environment, route: request.routeOptions.url ?? request.url, key };
    const hash = createHash('sha256').update(`${request.method} ${request.url}\n${canonical(request.body ?? null)}`).digest('hex');
    for (let waited = 0; ; waited += WAIT_STEP_MS) {
      const now = ctx.clock.now();
      if ((await claimIdempotencyKey(ctx.db, scope, hash, now)) || (await takeOverIdempotencyKey(ctx.db, scope, hash, now))) {
        request.idempotency = scope;
        return;
      }
      const row = await findIdempotencyKey(ctx.db, scope);
      if (!row) continue;
      if (row.request_hash !== hash) {
        throw new AppError('conflict', { detail: 'This Idempotency-Key was already used with a different request.' });
      }
      if (row.response_status !== null) return replay(reply, row.response_status, row.response_body ?? '');
      if (waited >= WAIT_MAX_MS) throw new AppError('conflict', { detail: 'A request with this Idempotency-Key is still in progress.' });
      await new Promise((resolve) => setTimeout(resolve, WAIT_STEP_MS));
    }
  });

  app.addHook('onSend', async (request, reply, payload) => {
    const scope = request.idempotency;
    if (!scope) return payload;
    request.idempotency = undefined;
    // A server error is not an answer to keep: the client may retry with the same key.
    if (reply.statusCode >= 500 || typeof payload !== 'string') await releaseIdempotencyKey(ctx.db, scope);
    else await saveIdempotentResponse(ctx.db, scope, reply.statusCode, payload);
    return payload;
  });
}
