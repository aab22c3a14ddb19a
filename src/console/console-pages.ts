// Answers every console route may give: a message page (not found, forbidden, form expired, error),
// framed for the signed-in operator or on the signed-out card.
import type { FastifyReply, FastifyRequest } from 'fastify';
import { consoleMessagePage } from './console-layout.js';
import type { PageMessage } from '../http/page-document.js';
import { type ConsoleDeps, formToken, sendPage } from './console-request.js';
import { insecureOtpWarning } from '../wallets/otp-sender.js';

export function messagePage(deps: ConsoleDeps, request: FastifyRequest, reply: FastifyReply, status: number, content: PageMessage) {
  const operator = request.operatorSession?.operator;
  return sendPage(reply, consoleMessagePage({ ...content, warning: insecureOtpWarning(deps.ctx.config), operator, csrf: operator ? formToken(deps, request, reply) : undefined }), status);
}

const home = (request: FastifyRequest) => (request.operatorSession ? { href: '/console', text: 'Back to the overview' } : { href: '/console/login', text: 'Sign in' });

export function notFound(deps: ConsoleDeps, request: FastifyRequest, reply: FastifyReply, what = 'page') {
  return messagePage(deps, request, reply, 404, { title: `${what[0].toUpperCase()}${what.slice(1)} not found`, message: 'There is nothing at this address.', link: home(request) });
}

export function forbidden(deps: ConsoleDeps, request: FastifyRequest, reply: FastifyReply) {
  const role = request.operatorSession?.operator.role ?? 'operator';
  return messagePage(deps, request, reply, 403, { title: 'Not allowed for your role', message: `Your role (${role}) may not do this. Ask an admin if you need it.`, link: home(request) });
}

export function formExpired(deps: ConsoleDeps, request: FastifyRequest, reply: FastifyReply) {
  return messagePage(deps, request, reply, 403, { title: 'Form expired', message: 'This form could not be verified. Go back, reload the page and try again.', link: home(request) });
}
