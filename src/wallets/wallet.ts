import type { Environment } from '../environment.js';

export interface Wallet {
  id: number;
  idx: string;
  environment: Environment;
  mobile: string;
  name: string;
  mpin_hash: string | null;
  sandbox: boolean;
  created_at: Date;
  /** Set while an operator has the wallet frozen: it cannot pay. */
  frozen_at: Date | null;
  frozen_reason: string | null;
}

/** The published sandbox wallets, present in every test environment. */
export const sandbox = {
  mobiles: ['9800000000', '9800000001', '9800000002', '9800000003', '9800000004', '9800000005', '9800000007'],
  /** Payments from this wallet stay Pending until the operator resolves them. */
  pendingMobile: '9800000007',
  mpin: '1111',
  otp: '987654',
  /** Rs. 1,000,000. */
  fundingPaisa: 100_000_000,
} as const;

/**
 * eSewa's published test IDs: sandbox wallets of every test environment too,
 * with eSewa's MPIN and OTP, so eSewa's own instructions work on the hosted page.
 */
export const esewaSandbox = {
  mobiles: ['9806800001', '9806800002', '9806800003', '9806800004', '9806800005'],
  mpin: '1122',
  otp: '123456',
} as const;

/** The MPIN and OTP a sandbox wallet answers to. */
export function sandboxSecrets(mobile: string): { mpin: string; otp: string } {
  return (esewaSandbox.mobiles as readonly string[]).includes(mobile) ? esewaSandbox : sandbox;
}

export const MOBILE_PATTERN = /^9\d{9}$/;
export const MPIN_PATTERN = /^\d{4}$/;
