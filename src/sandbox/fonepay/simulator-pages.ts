// The Fonepay sandbox's two pages: Fonepay's web checkout (the payer picks Pay or Decline) and a
// bank app that scanned a Fonepay QR (the payer reads whom and how much, then Pay or Decline). In
// English, as the pages they stand for would be; the outcome picked answers the same way every time.
import type { FastifyReply } from 'fastify';
import { html } from '../../http/html.js';
import { formatRupees } from '../../http/money.js';
import { setPageHeaders } from '../../http/page-headers.js';
import { speechIn } from '../../language/payer-speech.js';
import { portalLayout } from '../../portal/layout.js';
import type { SimulatedOutcome } from '../simulator-store.js';

const choices: [SimulatedOutcome, string, string][] = [
  ['paid', 'Pay', 'The payment succeeds; Fonepay says paid.'],
  ['canceled', 'Decline', 'The payer declines; nothing is paid.'],
  ['pending_then_paid', 'Pay: pending, then paid', 'Fonepay answers pending twice, then paid.'],
  ['never_answers', 'Pay: Fonepay never answers', 'The payment succeeds, but Fonepay never answers a question about it.'],
];

interface SimulatorPage {
  title: string;
  heading: string;
  facts: [string, string][];
  amount: number;
  action: string;
  fields: [string, string][];
  csrf: string;
  formActionOrigins: string[];
}

function send(reply: FastifyReply, page: SimulatorPage) {
  const body = portalLayout({
    speech: speechIn('en'),
    back: '',
    title: page.title,
    environment: 'test',
    body: html`<section class="simulator" aria-label="${page.title}">
  <p class="merchant">${page.title}: a simulator speaking Fonepay's protocol</p>
  <h1 class="order">${page.heading}</h1>
  <p class="amount">${formatRupees(page.amount)}</p>
  ${page.facts.length ? html`<dl class="facts">${page.facts.map(([name, value]) => html`<dt>${name}</dt><dd>${value}</dd>`)}</dl>` : ''}
  <p class="hint">Pick what happens: the outcome is the same every time Bhuktani asks.</p>
  ${choices.map(
    ([outcome, text, hint]) => html`<form method="post" action="${page.action}" class="simulator-choice">
    <input type="hidden" name="csrf_token" value="${page.csrf}">
    ${page.fields.map(([name, value]) => html`<input type="hidden" name="${name}" value="${value}">`)}
    <input type="hidden" name="outcome" value="${outcome}">
    <button type="submit" class="${outcome === 'paid' ? 'primary' : 'secondary'}" title="${hint}">${text}</button>
  </form>`,
  )}
</section>`,
  });
  return setPageHeaders(reply, { formActionOrigins: page.formActionOrigins }).type('text/html; charset=utf-8').send(body.value);
}

export const sendCheckoutPage = (reply: FastifyReply, page: Omit<SimulatorPage, 'title' | 'facts'>) => send(reply, { ...page, title: 'Fonepay sandbox', facts: [] });

export const sendBankAppPage = (reply: FastifyReply, page: Omit<SimulatorPage, 'title' | 'formActionOrigins'>) => send(reply, { ...page, title: 'Bank app sandbox (Fonepay QR)', formActionOrigins: [] });

/** What the bank app shows once the payer chose. */
export function sendBankAppDone(reply: FastifyReply, outcome: 'paid' | 'canceled' | 'open', amount: number) {
  const said = outcome === 'canceled' ? 'You declined this payment.' : outcome === 'open' ? 'This QR was answered already.' : `You paid ${formatRupees(amount)}.`;
  const body = portalLayout({
    speech: speechIn('en'),
    back: '',
    title: 'Bank app sandbox (Fonepay QR)',
    environment: 'test',
    body: html`<section class="simulator" aria-label="Bank app sandbox (Fonepay QR)">
  <h1 class="order" role="status">${said}</h1>
  <p class="hint">Go back to the page that shows the QR: it moves on by itself.</p>
</section>`,
  });
  return setPageHeaders(reply).type('text/html; charset=utf-8').send(body.value);
}
