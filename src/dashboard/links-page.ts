// The Payment links page: the environment's links with what each has collected, and (for a role that
// may) the form that creates one: a fixed amount or the payer's between a least and a most, an expiry
// day, a most number of payments, and which of the payer's name, phone and e-mail to ask.
import { html, type Html } from '../http/html.js';
import { formatRupees } from '../http/money.js';
import { askable, linkStatus, type LinkStatus, type PaymentLink } from '../payment-links/payment-link.js';
import type { LinkTotals } from '../payment-links/payment-link-store.js';
import { csrfField, textInput } from './form-controls.js';
import { formatDateAndTime } from './format.js';
import { dashboardLayout, type PageFrame, userMay } from './layout.js';

const STATUS: Record<LinkStatus, [string, string]> = {
  active: ['Active', 'ok'],
  inactive: ['Inactive', 'muted'],
  expired: ['Expired', 'muted'],
  used_up: ['Used up', 'warn'],
};

export function linkStatusBadge(link: PaymentLink, now: Date): Html {
  const [text, tone] = STATUS[linkStatus(link, now)];
  return html`<span class="badge ${tone}" data-testid="link-status">${text}</span>`;
}

/** `Rs. 450.00`, or the payer's range `Rs. 100.00 – Rs. 1,500.00`. */
export function linkAmount(link: PaymentLink): string {
  return link.amount !== null ? formatRupees(link.amount) : `${formatRupees(link.min_amount!)} – ${formatRupees(link.max_amount!)}`;
}

export const ASK_LABELS: Record<(typeof askable)[number], string> = { name: 'Name', phone: 'Phone', email: 'E-mail' };

export interface LinksView {
  links: PaymentLink[];
  totals: Map<string, LinkTotals>;
  now: Date;
  page: number;
  hasNext: boolean;
  /** After a refused create: what was typed, each field's message, and the page's message. */
  values?: Record<string, string | string[]>;
  errors?: Record<string, string>;
  message?: string;
}

function linkTable(view: LinksView, timeZone: string): Html {
  if (view.links.length === 0) return html`<p class="empty-list">No payment links yet.</p>`;
  return html`<div class="table-wrap"><table class="records links">
<caption class="visually-hidden">Payment links</caption>
<thead><tr><th scope="col">Created</th><th scope="col">Link</th><th scope="col" class="num">Amount</th><th scope="col">Status</th><th scope="col" class="num">Paid</th><th scope="col" class="num">Collected</th></tr></thead>
<tbody>
${view.links.map((link) => {
  const when = formatDateAndTime(link.created_at, timeZone);
  const totals = view.totals.get(link.idx)!;
  return html`<tr data-idx="${link.idx}">
  <td data-label="Created"><span>${when.date}<span class="time">${when.time}</span></span></td>
  <td data-label="Link" class="order"><a href="/dashboard/links/${encodeURIComponent(link.idx)}">${link.name}</a><span class="pidx">/l/${link.code}</span></td>
  <td data-label="Amount" class="num">${linkAmount(link)}</td>
  <td data-label="Status">${linkStatusBadge(link, view.now)}</td>
  <td data-label="Paid" class="num">${totals.payments_count}${link.max_payments !== null ? ` of ${link.max_payments}` : ''}</td>
  <td data-label="Collected" class="num">${formatRupees(totals.payments_total)}</td>
</tr>`;
})}
</tbody></table></div>`;
}

/** What a refused form says first, inside it: the page's message and a link to each field it marks. */
function errorSummary(view: LinksView, labels: Record<string, string>): Html | '' {
  if (!view.message) return '';
  const marked = Object.entries(view.errors ?? {});
  return html`<div class="alert error" role="alert"><p>${view.message}</p>${
    marked.length ? html`<ul>${marked.map(([name, error]) => html`<li><a href="#field-${name}">${labels[name] ?? name}: ${error}</a></li>`)}</ul>` : ''
  }</div>`;
}

function createForm(frame: PageFrame, view: LinksView): Html {
  const v = view.values ?? {};
  const e = view.errors ?? {};
  const text = (name: string) => (typeof v[name] === 'string' ? (v[name] as string) : '');
  const range = text('pricing') === 'range';
  const asked = new Set([v.ask ?? []].flat());
  const labels: Record<string, string> = {
    name: 'What is it for',
    description: 'Description (optional)',
    amount: 'Fixed amount in rupees',
    min_amount: 'Least in rupees',
    max_amount: 'Most in rupees',
    expires_on: 'Last day (optional)',
    max_payments: 'Most payments (optional)',
    ask: 'Ask the payer for',
  };
  const rupees = (name: string) => textInput({ name, label: labels[name], value: text(name), error: e[name], autocomplete: 'off', attributes: html` inputmode="decimal"` });
  return html`<section class="panel" aria-labelledby="create-heading">
  <h2 id="create-heading">Create a payment link</h2>
  <p class="hint">Share its address or print its QR code: payers pay you without a website. Each payment is an ordinary payment of your ${frame.session.environment} data.</p>
  <form method="post" action="/dashboard/links" class="stack" novalidate>
    ${csrfField(frame.csrf)}
    ${errorSummary(view, labels)}
    ${textInput({ name: 'name', label: labels.name, value: text('name'), error: e.name, hint: 'The payer sees it: "Momo platter", "Tuition, May".', required: true, autocomplete: 'off' })}
    ${textInput({ name: 'description', label: labels.description, value: text('description'), error: e.description, autocomplete: 'off' })}
    <fieldset class="choices pricing">
      <legend>Amount</legend>
      <div class="choice">
        <label><input type="radio" name="pricing" value="fixed"${range ? '' : html` checked`}> A fixed amount</label>
        <div class="choice-fields">${rupees('amount')}</div>
      </div>
      <div class="choice">
        <label><input type="radio" name="pricing" value="range"${range ? html` checked` : ''}> The payer chooses, between a least and a most</label>
        <div class="choice-fields form-grid">${rupees('min_amount')}${rupees('max_amount')}</div>
      </div>
    </fieldset>
    <div class="form-grid">
      ${textInput({ name: 'expires_on', label: labels.expires_on, type: 'date', value: text('expires_on'), error: e.expires_on, hint: `It takes payments until that day ends (${frame.timeZone}).` })}
      ${textInput({ name: 'max_payments', label: labels.max_payments, value: text('max_payments'), error: e.max_payments, autocomplete: 'off', attributes: html` inputmode="numeric"`, hint: 'Exactly this many can be paid.' })}
    </div>
    <fieldset class="choices${e.ask ? ' invalid' : ''}" id="field-ask">
      <legend>${labels.ask}</legend>
      ${askable.map((field) => html`<label><input type="checkbox" name="ask" value="${field}"${asked.has(field) ? html` checked` : ''}> ${ASK_LABELS[field]}</label>`)}
      ${e.ask ? html`<p class="field-error">${e.ask}</p>` : ''}
    </fieldset>
    <div class="actions"><button type="submit" class="primary">Create link</button></div>
  </form>
</section>`;
}

export function linksPage(frame: PageFrame, view: LinksView): Html {
  const pager =
    view.page > 1 || view.hasNext
      ? html`<nav class="pager" aria-label="Pages"><p class="pages">
    ${view.page > 1 ? html`<a class="button small" rel="prev" href="/dashboard/links?page=${view.page - 1}">← Newer</a>` : ''}
    <span class="page-of">Page ${view.page}</span>
    ${view.hasNext ? html`<a class="button small" rel="next" href="/dashboard/links?page=${view.page + 1}">Older →</a>` : ''}
  </p></nav>`
      : '';
  const form = userMay(frame.session, 'links.manage') ? createForm(frame, view) : '';
  return dashboardLayout({
    ...frame,
    title: 'Payment links',
    // A refused form comes first, its summary beside its fields; else the links, then the form.
    body: html`<h1 class="page-title">Payment links</h1>
${view.message ? form : ''}
<section class="panel" aria-labelledby="links-heading">
  <h2 id="links-heading">Your links</h2>
  ${linkTable(view, frame.timeZone)}
  ${pager}
</section>
${view.message ? '' : form}`,
  });
}
