// The text a payer receives with a live OTP. It names the merchant and the amount, so a payer can
// tell a payment they started from a request someone else is making with their wallet.
import { formatRupees } from '../http/money.js';

export function otpMessage({ amount, merchantName, otp }: { amount: number; merchantName: string; otp: string }): string {
  return `${formatRupees(amount)} to ${merchantName}: your OTP is ${otp}. Valid 5 minutes; never share it.`;
}
