// What can go wrong for a payer on the hosted page. Each code is told to the payer in their language
// by the portal (the payer's catalogues, src/language/: `payerErrors`); none of them is a server error.

export const payerErrorCodes = [
  'unknown_wallet',
  'invalid_input',
  'wrong_mpin',
  'wallet_locked',
  'wallet_frozen',
  'wrong_otp',
  'otp_expired',
  'attempt_ended',
  'insufficient_balance',
  'otp_not_sent',
  'payment_expired',
  'order_paid',
  'not_payable',
  'link_used_up',
  'provider_unavailable',
  'provider_not_answering',
  'provider_not_paid',
  'provider_checking',
  'provider_surplus',
] as const;

export type PayerErrorCode = (typeof payerErrorCodes)[number];

export class PayerError extends Error {
  constructor(
    readonly code: PayerErrorCode,
    readonly details: { attemptsLeft?: number; lockedUntil?: Date } = {},
  ) {
    super(`payer refused: ${code}`);
  }
}
