// What every server-rendered page route shares, whichever site it belongs to (dashboard, console):
// sending a page with the security headers and reading form fields and query parameters as text.
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Html } from './html.js';
import { setPageHeaders } from './page-headers.js';

export function sendPage(reply: FastifyReply, page: Html, status = 200): FastifyReply {
  return setPageHeaders(reply).code(status).send(page.value);
}

/** A form field as text ('' when absent). */
export function field(request: FastifyRequest, name: string): string {
  const value = (request.body as Record<string, unknown> | undefined)?.[name];
  return typeof value === 'string' ? value : '';
}

/** A query parameter as text ('' when absent or repeated oddly). */
export function queryText(request: FastifyRequest, name: string): string {
  const value = (request.query as Record<string, unknown> | undefined)?.[name];
  return typeof value === 'string' ? value : '';
}
