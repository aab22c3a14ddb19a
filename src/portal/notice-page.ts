// Pages for a payment that cannot be paid here: unknown, expired, already paid, finished; and the
// other notices of the payer's pages (a form expired, too many attempts, the outage page).
import { html, type Html } from '../http/html.js';
import type { Environment } from '../environment.js';
import type { PaymentStatus } from '../payments/payment-status.js';
import { portalLayout, type PayerFrame } from './layout.js';

export type Tone = 'info' | 'success' | 'error';

/** How a page that tells a payment's outcome looks, by the payment's status (the link's receipt, the demo shop's result). */
export const outcomeTone: Record<PaymentStatus, Tone> = {
  Completed: 'success',
  'Partially refunded': 'info',
  Refunded: 'info',
  Pending: 'info',
  // The payer's own choice, not a failure.
  'User canceled': 'info',
  Expired: 'error',
  Initiated: 'info',
};

export function noticePage(
  options: PayerFrame & {
    title: string;
    message: string;
    environment?: Environment;
    link?: { href: string; text: string };
    tone?: Tone;
  },
): Html {
  return portalLayout({
    speech: options.speech,
    back: options.back,
    title: options.title,
    environment: options.environment,
    body: html`<section class="notice ${options.tone ?? 'info'}">
  <h1>${options.title}</h1>
  <p>${options.message}</p>
  ${options.link ? html`<p><a class="button primary" href="${options.link.href}">${options.link.text}</a></p>` : ''}
</section>`,
  });
}
