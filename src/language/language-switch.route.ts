// GET /language/<en|ne>?back=<a payer page>: remembers the payer's language for a year (a cookie,
// read by payer-speech.ts) and sends them back to the page they were on. `back` must be one of the
// payer's own pages (language-switch.ts): anything else gets a page saying the language changed,
// never a redirect elsewhere.
import type { FastifyInstance } from 'fastify';
import type { Config } from '../config.js';
import { setPageHeaders } from '../http/page-headers.js';
import { queryText } from '../http/page-request.js';
import { isLanguage } from './languages.js';
import { safeBack } from './language-switch.js';
import { LANGUAGE_COOKIE, speechIn, type Speech } from './payer-speech.js';

const YEAR_SECONDS = 365 * 24 * 3600;

/** `page`: how the payer's pages draw a page that only says something (the portal's notice). */
export function registerLanguageSwitch(app: FastifyInstance, options: { config: Config; page: (speech: Speech, content: { title: string; message: string }) => string }) {
  app.get('/language/:language', async (request, reply) => {
    const { language } = request.params as { language: string };
    if (!isLanguage(language)) return reply.callNotFound();
    reply.setCookie(LANGUAGE_COOKIE, language, { path: '/', httpOnly: true, sameSite: 'lax', secure: options.config.publicUrl.startsWith('https:'), maxAge: YEAR_SECONDS });
    const back = safeBack(queryText(request, 'back'));
    if (back) return reply.code(303).redirect(back);
    const speech = speechIn(language);
    return setPageHeaders(reply).code(200).send(options.page(speech, speech.t.notices.switched));
  });
}

