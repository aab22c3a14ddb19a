// The split of a merchant's balance (contract section 10): money of payments younger than the hold
// is pending, the rest available. Refunds draw on the balance as a whole, so they reduce what is
// available first; pending never exceeds the balance.

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
