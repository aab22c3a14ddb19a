// What can go wrong for a payer on the hosted page. Each code has one message for people, shown by
// the portal; none of them is a server error.

export const payerErrorMessages = {
  unknown_wallet: 'No wallet is registered with this mobile number.',
  invalid_input: 'Enter your 10-digit mobile number and your 4-digit MPIN.',
  wrong_mpin: 'Wrong MPIN.',
  wallet_locked: 'This wallet is locked after too many wrong MPINs. Try again later.',
  wallet_frozen: 'This wallet is frozen and cannot pay. Contact Bhuktani support, or pay with another wallet.',
  wrong_otp: 'Wrong OTP.',
  otp_expired: 'The OTP has expired. Start again to get a new one.',
  attempt_ended: 'Too many wrong OTPs. Start again with your mobile number and MPIN.',
  insufficient_balance: 'This wallet does not have enough balance. Try another wallet.',
  otp_not_sent: 'We could not send the OTP to your phone. Please try again in a moment.',
  payment_expired: 'This payment link has expired.',
  order_paid: 'This order has already been paid.',
  link_used_up: 'This payment link has taken all the payments it was made for. You have not been charged.',
  not_payable: 'This payment can no longer be paid.',
} as const;

export type PayerErrorCode = keyof typeof payerErrorMessages;

export class PayerError extends Error {
  constructor(
    readonly code: PayerErrorCode,
    readonly details: { attemptsLeft?: number; lockedUntil?: Date } = {},
  ) {
    super(payerErrorMessages[code]);
  }
}
