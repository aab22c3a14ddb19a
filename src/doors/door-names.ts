// The doors as people read them, on the dashboard beside each payment.
import type { PaymentDoor } from '../payments/payment.js';

export const doorNames: Record<PaymentDoor, string> = {
  'khalti-v2': 'v2 API',
  'esewa-v2': 'eSewa ePay',
  'esewa-v1': 'eSewa ePay v1',
};
