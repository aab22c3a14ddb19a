// The frame of every payer page (the hosted page, a payment link's pages, their notices, the outage
// page): the TEST MODE banner in the sandbox, the brand, the language switch, the reminder never to
// share an MPIN or OTP. Its words are the payer's language's (src/language/).
import { html, type Html } from '../http/html.js';
import type { Environment } from '../environment.js';
import { languageSwitch } from '../language/language-switch.js';
import type { Speech } from '../language/payer-speech.js';
import { assetUrl } from '../http/assets.route.js';

/**
 * What every payer page knows: the payer's language and its words, and its own address (a GET's) for
 * the switch to come back to; '' on a page that stands for another site's (a provider's simulator),
 * which has no switch.
 */
export interface PayerFrame {
  speech: Speech;
  back: string;
}

/** The <head> of a payer page (the sandbox's bank app borrows it): no referrer, no favicon request, the payer pages' style and script. */
export function payerHead(title: string): Html {
  return html`<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>${title} · Bhuktani</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="${assetUrl('portal.css')}">
<script src="${assetUrl('portal.js')}" defer></script>
</head>`;
}

export function portalLayout(options: PayerFrame & { title: string; environment?: Environment; body: Html }): Html {
  const { t, language } = options.speech;
  return html`<!doctype html>
<html lang="${language}">
${payerHead(options.title)}
<body>
${options.environment === 'test' ? html`<div class="test-banner" role="status"><strong lang="en">${t.layout.testMode}</strong> · ${t.layout.testNote}</div>` : ''}
<header class="brand"><span class="logo" aria-hidden="true">B</span> Bhuktani ${options.back ? languageSwitch(options.speech, options.back) : ''}<span class="secure">${t.layout.secure}</span></header>
<main class="card">
${options.body}
</main>
<footer class="foot">${t.layout.footer}</footer>
</body>
</html>`;
}
