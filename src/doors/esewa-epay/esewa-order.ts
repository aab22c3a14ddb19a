// A payment asked for through one of eSewa's forms (v2's signed form or v1's), read and checked:
// what the door turns into an ordinary payment. Pure.
import type { EsewaAmounts } from './esewa-fields.js';

export type EsewaDoor = 'esewa-v2' | 'esewa-v1';

export interface EsewaOrder {
  door: EsewaDoor;
  productCode: string;
  /** transaction_uuid (v2) or pid (v1): the merchant's id for the payment, one payment each. */
  orderId: string;
  amounts: EsewaAmounts;
  successUrl: string;
  failureUrl: string;
}
