export const paymentStatuses = ['Initiated', 'Pending', 'Completed', 'Partially refunded', 'Refunded', 'Expired', 'User canceled'] as const;
export type PaymentStatus = (typeof paymentStatuses)[number];

/** Lookup answers 400 for these, 200 for the rest (specification 4.3). */
export const failedStatuses: readonly PaymentStatus[] = ['Expired', 'User canceled'];

/** Statuses in which the payment has a transaction at the service. */
export const transactedStatuses: readonly PaymentStatus[] = ['Pending', 'Completed', 'Partially refunded', 'Refunded'];
