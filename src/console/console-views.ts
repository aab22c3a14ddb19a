// Small pieces the console's payments, wallets and merchants pages share: a fact list, an
// environment tag, a status badge, a time, a reason field. Pure.
import { formatDateTime } from '../http/date-format.js';
import { html, type Html } from '../http/html.js';

export const envTag = (environment: string) => html`<span class="env-tag ${environment}">${environment}</span>`;

export const badge = (text: string, tone: 'ok' | 'bad' | 'warn' | 'info' = 'info') => html`<span class="badge ${tone}">${text}</span>`;

const paymentTones: Record<string, 'ok' | 'bad' | 'warn' | 'info'> = {
  Completed: 'ok',
  Pending: 'warn',
  'Partially refunded': 'warn',
  Refunded: 'info',
  Expired: 'bad',
  'User canceled': 'bad',
};
export const paymentBadge = (status: string) => badge(status, paymentTones[status] ?? 'info');

export const when = (date: Date, timeZone: string) => html`<time datetime="${date.toISOString()}">${formatDateTime(date, timeZone)}</time>`;

/** A definition list of label → value. */
export const facts = (rows: [string, Html | string | number][]) => html`<dl class="pairs">${rows.map(([label, value]) => html`<dt>${label}</dt><dd>${value}</dd>`)}</dl>`;

/** The reason every operator action asks for; it goes to the audit log. */
export const reasonField = (id: string, options: { required?: boolean; label?: string } = {}) =>
  html`<label for="${id}">${options.label ?? 'Reason'}${options.required === false ? ' (optional)' : ''}<input id="${id}" name="reason" type="text" maxlength="500"${options.required === false ? '' : html` required`}></label>`;

/** The panel of a form the operator's role may not use: said plainly instead of a form that would fail. */
export const notForRole = (what: string) => html`<p class="muted">Your role may not ${what}.</p>`;
