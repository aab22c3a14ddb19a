// A person of a merchant's team (contract section 9). What each role may do is the permission table
// of the dashboard; here only who they are.

export const merchantRoles = ['owner', 'admin', 'developer', 'finance', 'viewer'] as const;
export type MerchantRole = (typeof merchantRoles)[number];

export interface MerchantUser {
  id: number;
  merchant_id: number;
  email: string;
  role: MerchantRole;
  email_verified_at: Date | null;
  totp_enrolled_at: Date | null;
  created_at: Date;
}
