/** fee = round-half-up(amount × fee_bps / 10000), in whole paisa, without floating point. */
export function feeFor(amount: number, feeBps: number): number {
  const scaled = BigInt(amount) * BigInt(feeBps);
  return Number((scaled * 2n + 10000n) / 20000n);
}
