// The switch on every payer page: a link per language, each named in itself (`English`, `नेपाली`),
// to /language/<language>?back=<this page>, which remembers the choice in a cookie and brings the
// payer back (language-switch.route.ts). A link, not a form: it works without JavaScript, and
// changing a page's language is no act another site could abuse (no CSRF to guard).
import { html, type Html } from '../http/html.js';
import { languages } from './languages.js';
import { speechIn, type Speech } from './payer-speech.js';

/** The addresses the switch may send the payer back to: the payer's own pages, never another site. */
const PAYER_PAGES = /^\/(pay(\/|\?|$)|l\/|demo(\/|\?|$))/;

/** `back` when it is one of our payer pages' addresses (path and query only), else undefined. */
export function safeBack(back: string | undefined): string | undefined {
  if (!back || back.length > 2048 || !PAYER_PAGES.test(back) || back.includes('\\') || /[\u0000-\u001f]/.test(back)) return undefined;
  try {
    const url = new URL(back, 'http://payer.invalid');
    return url.origin === 'http://payer.invalid' && PAYER_PAGES.test(url.pathname + url.search) ? `${url.pathname}${url.search}` : undefined;
  } catch {
    return undefined;
  }
}

export function languageSwitch(speech: Speech, back: string): Html {
  return html`<nav class="language-switch" aria-label="${speech.t.switch.label}">${languages.map((language) => {
    const name = speechIn(language).t.switch.name;
    return language === speech.language
      ? html`<span lang="${language}" aria-current="true">${name}</span>`
      : html`<a href="/language/${language}?back=${encodeURIComponent(back)}" lang="${language}" hreflang="${language}">${name}</a>`;
  })}</nav>`;
}
