// What every dashboard route shares: the logged-in session, CSRF tokens bound to it, and sending a
// page with the security headers.
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../context.js';
import { csrfToken, csrfValid } from '../http/csrf.js';
import type { AppError } from '../http/errors.js';
import type { MerchantSession } from '../merchants/merchant-sessions.js';
import type { Action } from '../people/merchant-permissions.js';

declare module 'fastify' {
  interface FastifyRequest {
    merchantSession?: MerchantSession;
  }
  interface FastifyContextConfig {
    /** A dashboard route anyone may open (sign-up, log-in); every other one needs a session. */
    public?: boolean;
    /** Also open to a session that has only the password (the two-factor code, set-up, log-out). */
    halfway?: boolean;
    /** What a dashboard route does, in the permission table's words (merchant-permissions.ts). */
    action?: Action;
  }
}

export interface DashboardDeps {
  ctx: AppContext;
  csrfSecret: Buffer;
}

/** A session past every step of log-in (the only kind that opens pages). */
export const signedIn = (request: FastifyRequest) => request.merchantSession?.stage === 'signed_in';
/** The route options of a dashboard route that does `action` (merchant-permissions.ts). */
export const doing = (action: Action) => ({ config: { action } });

/** The session of a request that passed the guard (every non-public dashboard route). */
export function sessionOf(request: FastifyRequest): MerchantSession {
  if (!request.merchantSession) throw new Error('dashboard route without a session');
  return request.merchantSession;
}

// Tokens are bound to the session, so a token taken from one merchant's page is worthless in another
// session; before log-in they are bound to the public forms.
const binding = (request: FastifyRequest) => (request.merchantSession ? `dashboard:${request.merchantSession.id}` : 'dashboard:public');

export function formToken(deps: DashboardDeps, request: FastifyRequest, reply: FastifyReply): string {
  return csrfToken(request, reply, deps.csrfSecret, { binding: binding(request), secure: deps.ctx.config.publicUrl.startsWith('https:') });
}

export function formVerified(deps: DashboardDeps, request: FastifyRequest): boolean {
  return csrfValid(request, deps.csrfSecret, binding(request));
}

export { field, queryText, sendPage } from '../http/page-request.js';

/** The first message of each failing field of a validation error, for the form to show beside it. */
export function fieldMessages(error: AppError): Record<string, string> {
  return Object.fromEntries(Object.entries(error.fields ?? {}).map(([name, messages]) => [name, Array.isArray(messages) ? String(messages[0]) : 'Invalid value.']));
}

/** Where to go after log-in: a dashboard path, never another site. */
export function safeNext(next: string): string | undefined {
  if (!next.startsWith('/dashboard') || next.startsWith('//') || next.includes('\\')) return undefined;
  try {
    const url = new URL(next, 'http://x.invalid');
    return url.origin === 'http://x.invalid' && /^\/dashboard(\/|$)/.test(url.pathname) ? `${url.pathname}${url.search}` : undefined;
  } catch {
    return undefined;
  }
}
