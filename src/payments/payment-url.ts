// Where the payer pays: the hosted page names the payment in its query, `/pay/?pidx=<pidx>`, as the
// real gateway's payment_url does (merchant code reads the pidx from there). The `/pay/<pidx>`
// addresses given out before keep working (portal.routes.ts).

/** The hosted page of `pidx`; with `attempt`, its OTP step. Relative to PUBLIC_URL. */
export function paymentPath(pidx: string, attempt?: string): string {
  const query = new URLSearchParams({ pidx, ...(attempt === undefined ? {} : { attempt }) });
  return `/pay/?${query}`;
}

/** The `payment_url` initiate answers. */
export function paymentUrl(publicUrl: string, pidx: string): string {
  return `${publicUrl}${paymentPath(pidx)}`;
}
