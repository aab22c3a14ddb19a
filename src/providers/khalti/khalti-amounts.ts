// The amounts Khalti takes: at least Rs 10 (its initiate refuses less: "Amount should be greater than
// Rs. 10, that is 1000 paisa.", docs.khalti.com, Web Checkout), so a smaller payment is not offered Khalti.
import type { AmountsAccepted } from '../provider.js';

export const khaltiAmounts: AmountsAccepted = { least: 1000 };
