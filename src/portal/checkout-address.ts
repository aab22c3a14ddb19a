// The addresses of the hosted page's steps. The payment is named in the query, as on the page itself
// (payments/payment-url.ts); `/pay/<pidx>/<step>` of pages served before keeps working.
export type PostedStep = 'wallet' | 'confirm' | 'cancel';

export function stepAction(step: PostedStep, pidx: string): string {
  return `/pay/${step}?${new URLSearchParams({ pidx })}`;
}
