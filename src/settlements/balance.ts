// The split of a merchant's balance: money of payments younger than the hold
// is pending, the rest available. Refunds draw on the balance as a whole, so they reduce what is
// available first; pending never exceeds the balance. And how far a refund may draw on it.
import type { Environment } from '../environment.js';

export interface SettlementBalance {
  /** Net of payments completed less than SETTLEMENT_HOLD_HOURS ago (at most the balance). */
  pending: number;
  /** What a payout may take now. */
  available: number;
  /** In payouts requested but not yet paid (already out of pending and available). */
  clearing: number;
}

/** Pure: `total` is the merchant account's balance, `recent` the net of its payments inside the hold. */
export function splitBalance(figures: { total: number; recent: number; clearing: number }): SettlementBalance {
  const pending = Math.max(0, Math.min(figures.recent, figures.total));
  return { pending, available: figures.total - pending, clearing: figures.clearing };
}

/** The start of the hold: payments completed after it are still pending. */
export function holdCutoff(now: Date, holdHours: number): Date {
  return new Date(now.getTime() - holdHours * 3_600_000);
}

/**
 * Pure: how a refund of `amount` draws on a balance of `total`. Live: it may not take more than the
 * balance (never an overdraft). Test: the sandbox covers what the balance lacks (so a
 * developer's first full refund works, as in the real gateway's sandbox), so the balance ends at
 * zero, never below, and no covered paisa is ever left to pay out.
 */
export function refundDraw(environment: Environment, total: number, amount: number): { refused: true } | { refused: false; cover: number } {
  const shortfall = Math.max(0, amount - Math.max(0, total));
  if (shortfall === 0) return { refused: false, cover: 0 };
  return environment === 'test' ? { refused: false, cover: shortfall } : { refused: true };
}
