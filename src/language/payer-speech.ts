// Which language a payer's page speaks: the one the payer chose with the switch (a cookie), else the
// first of English and Nepali their browser's Accept-Language asks for, else English.
// `Speech` is that language with its words, handed to every payer page.
import type { FastifyRequest } from 'fastify';
import { en, type Messages } from './en.js';
import { isLanguage, type Language } from './languages.js';
import { ne } from './ne.js';

export const LANGUAGE_COOKIE = 'bhuktani_lang';

export interface Speech {
  language: Language;
  t: Messages;
}

const catalogues: Record<Language, Messages> = { en, ne };

export const speechIn = (language: Language): Speech => ({ language, t: catalogues[language] });

/**
 * The first of our languages the header asks for, by its q-values (ties in the header's order):
 * `ne-NP,ne;q=0.9,en;q=0.8` is Nepali, `en-GB,ne;q=0.5` English. A language the header refuses
 * (`q=0`) is not taken; none of ours asked for: undefined.
 */
export function fromAcceptLanguage(header: string | undefined): Language | undefined {
  if (!header) return undefined;
  const asked = header
    .split(',')
    .slice(0, 50)
    .map((part, order) => {
      const [tag, ...params] = part.trim().split(';');
      const q = params.map((p) => /^\s*q=([01](\.\d{0,3})?)\s*$/i.exec(p)).find(Boolean);
      return { primary: tag.trim().toLowerCase().split('-')[0], q: q ? Number(q[1]) : 1, order };
    })
    .filter((a) => a.q > 0 && isLanguage(a.primary))
    .sort((a, b) => b.q - a.q || a.order - b.order);
  return asked[0]?.primary as Language | undefined;
}

export function payerSpeech(request: FastifyRequest): Speech {
  const chosen = request.cookies?.[LANGUAGE_COOKIE];
  return speechIn(isLanguage(chosen) ? chosen : (fromAcceptLanguage(request.headers['accept-language']) ?? 'en'));
}
