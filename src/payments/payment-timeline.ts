// The events of a payment (payment_events) in words, for the merchant's and the operator's payment
// pages. Pure.
import { formatRupees } from '../http/money.js';
import { maskMobile } from '../transactions/transaction-record.js';

export interface PaymentEvent {
  occurred_at: Date;
  event: string;
  detail: Record<string, unknown>;
}

export interface TimelineEntry {
  at: Date;
  title: string;
  note?: string;
  tone: 'info' | 'ok' | 'warn' | 'bad';
}

const payerOf = (detail: Record<string, unknown>) => (typeof detail.mobile === 'string' ? ` from ${maskMobile(detail.mobile)}` : '');

/** How another room words its own events (a provider attempt's), or undefined for an event it does not know. */
export type MoreEntries = (event: string, detail: Record<string, unknown>) => Omit<TimelineEntry, 'at'> | undefined;

export function timelineEntry(e: PaymentEvent, more?: MoreEntries): TimelineEntry {
  const at = e.occurred_at;
  const detail = e.detail ?? {};
  switch (e.event) {
    case 'otp_sent':
      return { at, title: 'Payer started paying', note: 'Wallet and MPIN accepted; OTP sent.', tone: 'info' };
    case 'otp_not_sent':
      return { at, title: 'OTP not sent', note: `The SMS gateway failed to send the OTP${payerOf(detail)}; the payer can try again.`, tone: 'warn' };
    case 'wrong_mpin':
      return { at, title: 'Wrong MPIN', note: `A wrong MPIN was entered${payerOf(detail)}.`, tone: 'warn' };
    case 'wrong_otp':
      return { at, title: 'Wrong OTP', note: `A wrong OTP was entered${payerOf(detail)}.`, tone: 'warn' };
    case 'insufficient_balance':
      return { at, title: 'Attempt failed', note: `The wallet${payerOf(detail)} did not have enough balance.`, tone: 'bad' };
    case 'pay':
      return { at, title: 'Paid', note: 'The payment completed.', tone: 'ok' };
    case 'hold':
      return { at, title: 'Held as Pending', note: 'Waiting for the operator to resolve it. Do not deliver yet.', tone: 'warn' };
    case 'cancel':
      return { at, title: 'Canceled by the payer', tone: 'bad' };
    case 'expire':
      return { at, title: 'Link expired', note: 'The payment link expired unpaid.', tone: 'bad' };
    case 'resolve_completed':
      return { at, title: 'Resolved as Completed', note: 'The operator completed the pending payment.', tone: 'ok' };
    case 'resolve_canceled':
      return { at, title: 'Resolved as canceled', note: 'The operator canceled the pending payment.', tone: 'bad' };
    case 'refund':
      return { at, title: `Refunded ${typeof detail.amount === 'number' ? formatRupees(detail.amount) : ''}`.trim(), note: 'Sent back to the payer’s wallet.', tone: 'warn' };
    case 'provider_pay':
    case 'provider_confirm':
      return { at, title: 'Paid', note: 'The payment completed.', tone: 'ok' };
    case 'provider_hold':
      return { at, title: 'Held as Pending', note: 'Waiting for the provider’s answer. Do not deliver yet.', tone: 'warn' };
    case 'provider_fail':
      return { at, title: 'Canceled', note: 'The provider said it was not paid.', tone: 'bad' };
    default:
      const entry = more?.(e.event, detail);
      if (entry) return { at, ...entry };
      return { at, title: e.event.replace(/_/g, ' '), tone: 'info' };
  }
}

/**
 * The payment's creation (its `created_at`; initiate writes no event of its own), then every event
 * in order; an expiry that no job has written down yet is shown at its time.
 */
export function paymentTimeline(initiatedAt: Date, events: PaymentEvent[], expiry?: Date, more?: MoreEntries): TimelineEntry[] {
  const entries: TimelineEntry[] = [{ at: initiatedAt, title: 'Payment initiated', note: 'The merchant’s server asked for a payment link.', tone: 'info' }, ...events.map((e) => timelineEntry(e, more))];
  if (expiry && !events.some((e) => e.event === 'expire')) entries.push({ at: expiry, title: 'Link expired', note: 'The payment link expired unpaid.', tone: 'bad' });
  return entries;
}
