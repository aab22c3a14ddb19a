// Signed double-submit CSRF tokens for every HTML form. The browser holds a random nonce in an
// HttpOnly, SameSite cookie; the form carries `nonce.HMAC(nonce|binding)`. A POST passes only when
// the form's token matches the cookie and was signed by us for this binding (a pidx or a session),
// which a page on another site can neither read nor forge.
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';

export const CSRF_COOKIE = 'bhuktani_csrf';
export const CSRF_FIELD = 'csrf_token';

function sign(secret: Buffer, nonce: string, binding: string): string {
  return createHmac('sha256', secret).update(`${nonce}|${binding}`).digest('base64url');
}

/** The token for a form, setting the nonce cookie when the browser has none yet. */
export function csrfToken(request: FastifyRequest, reply: FastifyReply, secret: Buffer, options: { binding: string; secure: boolean }): string {
  let nonce = request.cookies[CSRF_COOKIE];
  if (!nonce || !/^[\w-]{22}$/.test(nonce)) {
    nonce = randomBytes(16).toString('base64url');
    reply.setCookie(CSRF_COOKIE, nonce, { path: '/', httpOnly: true, sameSite: 'lax', secure: options.secure });
  }
  return `${nonce}.${sign(secret, nonce, options.binding)}`;
}

export function csrfValid(request: FastifyRequest, secret: Buffer, binding: string): boolean {
  const body = request.body as Record<string, unknown> | undefined;
  const token = body?.[CSRF_FIELD];
  const nonce = request.cookies[CSRF_COOKIE];
  if (typeof token !== 'string' || !nonce) return false;
  const [tokenNonce, signature] = token.split('.');
  if (tokenNonce !== nonce || !signature) return false;
  const expected = Buffer.from(sign(secret, nonce, binding));
  const given = Buffer.from(signature);
  return expected.length === given.length && timingSafeEqual(expected, given);
}
