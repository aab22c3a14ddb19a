// The Fonepay sandbox's pages: Fonepay's web checkout (the payer picks what happens) and a bank app
// that scanned a Fonepay QR (the payer reads whom and how much, then picks), and what the bank app
// shows once picked. In English, as the pages they stand for would be; the outcome picked answers
// the same way every time. Fonepay's checkout keeps the hosted page's frame; the bank app has its
// own, as a bank's app is not Bhuktani's checkout.
import type { FastifyReply } from 'fastify';
import { html, type Html } from '../../http/html.js';
import { formatRupees } from '../../http/money.js';
import { setPageHeaders } from '../../http/page-headers.js';
import { speechIn } from '../../language/payer-speech.js';
import { payerHead, portalLayout } from '../../portal/layout.js';
import { simulatedOutcomes, type SimulatedOutcome } from '../simulator-store.js';

/**
 * What the payer may pick: the sandbox's outcomes, and `failed` beside `canceled`, Fonepay's two
 * ways of not paying (its return's `RC`: `failed` when the bank refused, `cancel` when the payer went back).
 */
export type FonepayChoice = SimulatedOutcome | 'failed';
export const isFonepayChoice = (value: string): value is FonepayChoice => value === 'failed' || (simulatedOutcomes as readonly string[]).includes(value);

const choices = (declined: { failed: string; canceled: string }): [FonepayChoice, string, string][] => [
  ['paid', 'Pay', 'The payment succeeds; Fonepay says paid.'],
  ['failed', 'Decline', declined.failed],
  ['canceled', 'Cancel', declined.canceled],
  ['pending_then_paid', 'Pay: pending, then paid', 'Fonepay answers pending twice, then paid.'],
  ['never_answers', 'Pay: Fonepay never answers', 'The payment succeeds, but Fonepay never answers a question about it.'],
];
const checkoutChoices = choices({ failed: 'The bank refuses the payment: back with RC=failed.', canceled: 'The payer cancels: back with RC=cancel.' });
const bankAppChoices = choices({ failed: 'The bank refuses the payment: the QR’s status says failed.', canceled: 'The payer cancels in the app: the QR’s status says failed.' });

interface ChoiceForms {
  action: string;
  fields: [string, string][];
  csrf: string;
}

const choiceForms = (forms: ChoiceForms, list: [FonepayChoice, string, string][]) =>
  list.map(
    ([outcome, text, hint]) => html`<form method="post" action="${forms.action}" class="simulator-choice">
    <input type="hidden" name="csrf_token" value="${forms.csrf}">
    ${forms.fields.map(([name, value]) => html`<input type="hidden" name="${name}" value="${value}">`)}
    <input type="hidden" name="outcome" value="${outcome}">
    <button type="submit" class="${outcome === 'paid' ? 'primary' : 'secondary'}" title="${hint}">${text}</button>
  </form>`,
  );

/** A row of facts, styled as a receipt (the portal's `.receipt`). */
const receipt = (facts: [string, string][]) => html`<dl class="receipt">${facts.filter(([, value]) => value).map(([name, value]) => html`<div><dt>${name}</dt><dd>${value}</dd></div>`)}</dl>`;

/** Fonepay's page for a web checkout: the order's name (R1), the amount, the payer's choices. */
export function sendCheckoutPage(reply: FastifyReply, page: ChoiceForms & { heading: string; amount: number; formActionOrigins: string[] }) {
  const body = portalLayout({
    speech: speechIn('en'),
    back: '',
    title: 'Fonepay sandbox',
    environment: 'test',
    body: html`<section class="simulator" aria-label="Fonepay sandbox">
  <p class="merchant">Fonepay <strong>sandbox</strong>: a simulator speaking Fonepay's protocol</p>
  <h1 class="order">${page.heading}</h1>
  <p class="amount">${formatRupees(page.amount)}</p>
  <p class="hint">Pick what happens: the outcome is the same every time Bhuktani asks.</p>
  ${choiceForms(page, checkoutChoices)}
</section>`,
  });
  return setPageHeaders(reply, { formActionOrigins: page.formActionOrigins }).send(body.value);
}

const BANK_APP = 'Bank app sandbox (Fonepay QR)';

/** The bank app's frame: the sandbox's banner, the app's own name, no checkout's promise. */
function bankAppLayout(body: Html): Html {
  const { t } = speechIn('en');
  return html`<!doctype html>
<html lang="en">
${payerHead(BANK_APP)}
<body>
<div class="test-banner" role="status"><strong>${t.layout.testMode}</strong> · ${t.layout.testNote}</div>
<header class="brand"><span class="logo" aria-hidden="true">Rs</span> Sandbox bank app</header>
<main class="card">
${body}
</main>
</body>
</html>`;
}

/** What the bank app read off the QR: whom (its merchant name, once) and how much, and its remarks. */
export function sendBankAppPage(reply: FastifyReply, page: ChoiceForms & { payee: string; amount: number; facts: [string, string][] }) {
  const body = bankAppLayout(html`<section class="simulator" aria-label="${BANK_APP}">
  <p class="merchant">Scanned a Fonepay QR: pay to</p>
  <h1 class="order">${page.payee}</h1>
  <p class="amount">${formatRupees(page.amount)}</p>
  ${receipt(page.facts)}
  <p class="hint">Pick what happens: the outcome is the same every time Bhuktani asks.</p>
  ${choiceForms(page, bankAppChoices)}
</section>`);
  return setPageHeaders(reply).send(body.value);
}

export type BankAppEnd = 'paid' | 'failed' | 'canceled' | 'answered';

const ends: Record<BankAppEnd, { heading: string; tone: string; said: (amount: string) => string }> = {
  paid: { heading: 'Payment sent', tone: 'notice success', said: (amount) => `You paid ${amount}.` },
  failed: { heading: 'Payment declined', tone: 'notice error', said: () => 'Your bank declined this payment: nothing was paid.' },
  canceled: { heading: 'Payment canceled', tone: 'notice', said: () => 'You canceled this payment: nothing was paid.' },
  answered: { heading: 'Already answered', tone: 'notice', said: () => 'This QR was answered already: nothing more was paid.' },
};

/** What the bank app shows once the payer chose: a heading, what happened (a status), its facts. */
export function sendBankAppDone(reply: FastifyReply, page: { end: BankAppEnd; amount: number; facts: [string, string][] }) {
  const end = ends[page.end];
  const body = bankAppLayout(html`<section class="${end.tone}" aria-label="${BANK_APP}">
  <h1>${end.heading}</h1>
  <p role="status">${end.said(formatRupees(page.amount))}</p>
  ${receipt(page.facts)}
  <p>Go back to the page that shows the QR: it moves on by itself.</p>
</section>`);
  return setPageHeaders(reply).send(body.value);
}
