import type { FastifyReply } from 'fastify';

/**
 * Headers for every HTML page: no inline script, nothing from other hosts, no framing, not indexed
 * (a payment, a dashboard, a console: nothing for a search engine). Browsers
 * apply form-action to the redirect after a POST too, so a page whose form ends at the merchant's
 * return_url must allow that origin.
 */
export function setPageHeaders(reply: FastifyReply, options: { formActionOrigins?: string[] } = {}): FastifyReply {
  const formAction = ["'self'", ...(options.formActionOrigins ?? [])].join(' ');
  return reply
    .header(
      'content-security-policy',
      `default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; form-action ${formAction}; frame-ancestors 'none'; base-uri 'none'`,
    )
    .header('x-frame-options', 'DENY')
    .header('referrer-policy', 'no-referrer')
    .header('x-content-type-options', 'nosniff')
    .header('x-robots-tag', 'noindex, nofollow')
    .header('cache-control', 'no-store')
    .type('text/html; charset=utf-8');
}
