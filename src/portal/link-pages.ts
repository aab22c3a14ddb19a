// The payer's pages of a payment link: the link's page (the business, what is paid for, the amount or
// a box for it, the details the link asks), and its receipt page, where the payer lands when the
// payment ends. Every sentence comes from the payer's catalogue (src/language/).
import { html, type Html } from '../http/html.js';
import { formatAmount, unbrokenAmount } from '../language/amounts.js';
import { formatMoment } from '../language/dates.js';
import type { Environment } from '../environment.js';
import type { Payment } from '../payments/payment.js';
import type { PayerField, PayerFieldProblem } from '../payment-links/payer-details.js';
import { expiryWords } from '../payment-links/expiry-words.js';
import type { PaymentLink } from '../payment-links/payment-link.js';
import { portalLayout, type PayerFrame } from './layout.js';
import { outcomeTone } from './notice-page.js';

/** What every payer page of a link knows: the payer's language and the page's address, and TIME_ZONE. */
export interface PayerView extends PayerFrame {
  timeZone: string;
}

export interface LinkPageView extends PayerView {
  link: PaymentLink;
  business: string;
  csrf: string;
  /** What the payer typed, shown again with the problems. */
  values?: Partial<Record<PayerField, string>>;
  problems?: Partial<Record<PayerField, PayerFieldProblem>>;
}

function problemText(view: LinkPageView, problem: PayerFieldProblem): string {
  const { link } = view;
  const { t, language } = view.speech;
  switch (problem) {
    case 'amount_below_min':
      return t.link.problems.amount_below_min(formatAmount(link.min_amount!, language));
    case 'amount_above_max':
      return t.link.problems.amount_above_max(formatAmount(link.max_amount!, language));
    default:
      return t.link.problems[problem];
  }
}

const INPUTS: Record<PayerField, { type: string; autocomplete: string; inputmode?: string }> = {
  amount: { type: 'text', autocomplete: 'off', inputmode: 'decimal' },
  name: { type: 'text', autocomplete: 'name' },
  phone: { type: 'tel', autocomplete: 'tel', inputmode: 'tel' },
  email: { type: 'email', autocomplete: 'email' },
};

function input(view: LinkPageView, field: PayerField, label: string, hint?: string): Html {
  const id = `link-${field}`;
  const problem = view.problems?.[field];
  const described = [hint ? `${id}-hint` : '', problem ? `${id}-error` : ''].filter(Boolean).join(' ');
  const { type, autocomplete, inputmode } = INPUTS[field];
  return html`<label for="${id}">${label}</label>
    ${hint ? html`<p class="hint" id="${id}-hint">${hint}</p>` : ''}
    <input id="${id}" name="${field}" type="${type}" class="detail" autocomplete="${autocomplete}"${inputmode ? html` inputmode="${inputmode}"` : ''} required value="${view.values?.[field] ?? ''}"${described ? html` aria-describedby="${described}"` : ''}${problem ? html` aria-invalid="true"` : ''}>
    ${problem ? html`<p class="field-error" id="${id}-error">${problemText(view, problem)}</p>` : ''}`;
}

export function linkPage(view: LinkPageView): Html {
  const { link } = view;
  const { t, language } = view.speech;
  const labels: Record<Exclude<PayerField, 'amount'>, string> = { name: t.link.nameLabel, phone: t.link.phoneLabel, email: t.link.emailLabel };
  return portalLayout({
    speech: view.speech,
    back: view.back,
    title: t.link.title(view.business),
    environment: link.environment,
    body: html`<section class="summary" aria-label="${link.name}">
  <p class="merchant">${t.link.payTo(view.business)}</p>
  <h1 class="order">${link.name}</h1>
  ${link.description ? html`<p class="description">${link.description}</p>` : ''}
  ${link.amount !== null ? html`<p class="amount" data-testid="amount">${formatAmount(link.amount, language)}</p>` : ''}
  ${link.expires_at ? html`<p class="meta">${expiryWords(link.expires_at, view.speech, view.timeZone)}</p>` : ''}
</section>
<form method="post" action="/l/${link.code}" class="pay-form" novalidate>
  <input type="hidden" name="csrf_token" value="${view.csrf}">
  ${view.problems ? html`<p class="error" role="alert">${t.link.fixProblems}</p>` : ''}
  ${link.amount === null ? input(view, 'amount', t.link.amountLabel, t.link.amountRange(formatAmount(link.min_amount!, language), formatAmount(link.max_amount!, language))) : ''}
  ${link.ask.length ? html`<p class="hint asked">${t.link.asked(view.business)}</p>` : ''}
  ${link.ask.map((field) => input(view, field, labels[field]))}
  <button type="submit" class="primary">${t.link.continue}</button>
</form>`,
  });
}

export interface ReceiptView extends PayerView {
  payment: Pick<Payment, 'status' | 'amount' | 'transaction_id' | 'purchase_order_name' | 'created_at' | 'pidx'>;
  /** The status every read reports (an unpaid payment past its expiry is Expired). */
  status: Payment['status'];
  business: string;
  environment: Environment;
  /** The link's page, for "Pay again"; undefined when the link takes no payments now. */
  linkPath?: string;
  /** The hosted page, for a payment not finished yet. */
  paymentPath: string;
}

export function receiptPage(view: ReceiptView): Html {
  const { payment, status } = view;
  const { t, language } = view.speech;
  const outcome = t.receipt[status];
  const amount = unbrokenAmount(payment.amount, language);
  const paid = status === 'Completed' || status === 'Partially refunded' || status === 'Refunded' || status === 'Pending';
  const next =
    status === 'Initiated'
      ? { href: view.paymentPath, text: t.receipt.continuePaying }
      : !paid && view.linkPath
        ? { href: view.linkPath, text: t.receipt.payAgain }
        : undefined;
  return portalLayout({
    speech: view.speech,
    back: view.back,
    title: outcome.title,
    environment: view.environment,
    body: html`<section class="notice ${outcomeTone[status]}" data-status="${status}">
  <h1>${outcome.title}</h1>
  <p>${outcome.message(amount, view.business)}</p>
  ${
    paid
      ? html`<dl class="receipt">
    <div><dt>${t.receipt.paidFor}</dt><dd>${payment.purchase_order_name}</dd></div>
    <div><dt>${t.receipt.amount}</dt><dd data-testid="amount">${amount}</dd></div>
    ${payment.transaction_id ? html`<div><dt>${t.receipt.transactionId}</dt><dd class="id" data-testid="transaction-id">${payment.transaction_id}</dd></div>` : ''}
    <div><dt>${t.receipt.paidOn}</dt><dd>${formatMoment(payment.created_at, language, view.timeZone)}</dd></div>
  </dl>
  <p class="hint">${t.receipt.showSeller}</p>`
      : ''
  }
  ${next ? html`<p><a class="button primary" href="${next.href}">${next.text}</a></p>` : ''}
</section>`,
  });
}
