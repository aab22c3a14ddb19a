// A provider attempt's events (attempt-state-machine.ts) in words, on the payment pages' timelines.
import type { MoreEntries, TimelineEntry } from '../payments/payment-timeline.js';
import { isProviderName, providerLabel } from '../providers/registry.js';

/** A provider's name as payers know it, from an attempt's event. */
const providerOf = (detail: Record<string, unknown>) => (isProviderName(detail.provider) ? providerLabel(detail.provider) : 'the provider');
const answerOf = (detail: Record<string, unknown>) => (typeof detail.answer === 'string' && detail.answer ? ` (${detail.answer})` : '');

/** The events of an attempt at a provider, by move (attempt-state-machine.ts). */
const attemptEntries: Record<string, (detail: Record<string, unknown>) => Omit<TimelineEntry, 'at'>> = {
  attempt_start: (d) => ({ title: `Payer chose ${providerOf(d)}`, note: `Sent to ${providerOf(d)} to pay.`, tone: 'info' }),
  attempt_pay: (d) => ({ title: `Paid through ${providerOf(d)}`, note: `${providerOf(d)} confirmed the payment${answerOf(d)}.`, tone: 'ok' }),
  attempt_surplus: (d) => ({ title: `Paid twice through ${providerOf(d)}`, note: 'The payment was decided already: this money is refunded to the payer.', tone: 'warn' }),
  attempt_fail: (d) => ({ title: `Not paid through ${providerOf(d)}`, note: `No money was taken${answerOf(d)}.`, tone: 'bad' }),
  attempt_doubt: (d) => ({ title: `${providerOf(d)} could not confirm yet`, note: `Asked again until it can${answerOf(d)}.`, tone: 'warn' }),
  attempt_escalate: (d) => ({ title: `Handed to the operators`, note: `${providerOf(d)} gave no final answer${answerOf(d)}.`, tone: 'warn' }),
  attempt_reopen: (d) => ({ title: `${providerOf(d)} asked again`, note: answerOf(d).slice(2, -1) || undefined, tone: 'info' }),
};

/** For paymentTimeline: the attempt's events, undefined for any other. */
export const attemptTimelineEntry: MoreEntries = (event, detail) => attemptEntries[event]?.(detail);
