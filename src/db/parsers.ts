// Both drivers get the same parsers, so a `bigint` amount is a JS number on PGlite and on pg alike.
// Numbers are safe: amounts are capped by MAX_AMOUNT_PAISA, far below 2^53.

export const OID = { int8: 20, numeric: 1700 } as const;

export function parseBigint(value: string): number {
  const n = Number(value);
  if (!Number.isSafeInteger(n)) throw new Error(`bigint ${value} is outside the safe integer range`);
  return n;
}

export const parsers: Record<number, (value: string) => unknown> = {
  [OID.int8]: parseBigint,
  // sum() over bigint returns numeric; money sums are whole paisa.
  [OID.numeric]: parseBigint,
};
