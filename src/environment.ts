// Test (sandbox) and live (production). Every merchant key, wallet, ledger account, payment and
// session view belongs to one, and data never crosses. Shared vocabulary below the domains, so a
// domain never imports another only for this type.
export const environments = ['test', 'live'] as const;
export type Environment = (typeof environments)[number];
