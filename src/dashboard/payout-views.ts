// A payout's state as a badge, on the Settlements page and a payout's statement.
import { html, type Html } from '../http/html.js';
import type { PayoutState } from '../settlements/payout.js';

const TONE: Record<PayoutState, string> = { Requested: 'info', Processing: 'warn', Paid: 'ok', Failed: 'bad' };

export const payoutBadge = (state: PayoutState): Html => html`<span class="badge ${TONE[state]}">${state}</span>`;
