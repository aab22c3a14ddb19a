// The people of merchants' teams. A person logs in (e-mail, password,
// two-factor: their own); a user is one person's membership of one merchant's team, with its role. One
// person may be a user of several merchants. What each role may do is the permission table of the
// dashboard; here only who they are.

export const merchantRoles = ['owner', 'admin', 'developer', 'finance', 'viewer'] as const;
export type MerchantRole = (typeof merchantRoles)[number];

/** Someone who logs in to the dashboard: their e-mail, and whether it is verified and two-factor on. */
export interface MerchantPerson {
  id: number;
  email: string;
  email_verified_at: Date | null;
  totp_enrolled_at: Date | null;
}

/** A person's membership of one merchant's team; the person's e-mail and account state come along. */
export interface MerchantUser {
  id: number;
  merchant_id: number;
  person_id: number;
  email: string;
  role: MerchantRole;
  email_verified_at: Date | null;
  totp_enrolled_at: Date | null;
  created_at: Date;
}

/** One business of a person's, as the switcher lists it. */
export interface Membership {
  userId: number;
  merchantId: number;
  merchantIdx: string;
  merchantName: string;
  role: MerchantRole;
}
