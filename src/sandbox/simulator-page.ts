// The page of a sandbox provider (its simulator): the payment it was asked to take, and the outcome
// the developer picks. The same page for the three simulators, in each provider's name.
import type { FastifyReply } from 'fastify';
import { html } from '../http/html.js';
import { formatRupees } from '../http/money.js';
import { setPageHeaders } from '../http/page-headers.js';
import { speechIn } from '../language/payer-speech.js';
import { portalLayout } from '../portal/layout.js';
import type { Simulation, SimulatedOutcome } from './simulator-store.js';

/** A choice of the page: its outcome, its button's words, what it does, and fields of its own. */
export type SimulatorChoice = [SimulatedOutcome, string, string, [string, string][]?];

const choices: SimulatorChoice[] = [
  ['paid', 'Pay', 'The payment succeeds; the status check says paid.'],
  ['canceled', 'Cancel', 'The payer cancels; nothing is paid.'],
  ['pending_then_paid', 'Pay: pending, then paid', 'The status check answers undecided twice, then paid.'],
  ['never_answers', 'Pay: status never answers', 'The payment succeeds, but the status check never answers.'],
];

/** `moreChoices`: the provider's own, after the common four (Khalti's payment from a bank). */
export function sendSimulatorPage(reply: FastifyReply, options: { label: string; simulation: Simulation; action: string; fields: [string, string][]; csrf: string; returnOrigins: string[]; moreChoices?: SimulatorChoice[] }) {
  const label = options.label;
  // It stands for the provider's own page: in English, as the simulated provider's would be, with no switch.
  const page = portalLayout({
    speech: speechIn('en'),
    back: '',
    title: `${label} sandbox`,
    environment: 'test',
    body: html`<section class="simulator" aria-label="${label} sandbox">
  <p class="merchant">${label} <strong>sandbox</strong>: a simulator of ${label}'s page, speaking its protocol</p>
  <h1 class="order">${options.simulation.details.name ?? options.simulation.reference}</h1>
  <p class="amount">${formatRupees(options.simulation.amount)}</p>
  <p class="hint">Pick what happens: the outcome is the same every time Bhuktani asks.</p>
  ${[...choices, ...(options.moreChoices ?? [])].map(
    // A form per choice, the outcome in a field: portal.js disables a form's buttons as it submits.
    ([outcome, text, hint, own = []]) => html`<form method="post" action="${options.action}" class="simulator-choice">
    <input type="hidden" name="csrf_token" value="${options.csrf}">
    ${[...options.fields, ...own].map(([name, value]) => html`<input type="hidden" name="${name}" value="${value}">`)}
    <input type="hidden" name="outcome" value="${outcome}">
    <button type="submit" class="${outcome === 'paid' ? 'primary' : 'secondary'}" title="${hint}">${text}</button>
  </form>`,
  )}
</section>`,
  });
  return setPageHeaders(reply, { formActionOrigins: options.returnOrigins }).send(page.value);
}
