// The wire shapes of the v2 web-checkout API, as Bhuktani serves them (specification section 2).
// Amounts are integers in paisa; names are the wire's names.

export type PaymentStatus = 'Initiated' | 'Pending' | 'Completed' | 'Partially refunded' | 'Refunded' | 'Expired' | 'User canceled';

/** The statuses a callback to return_url can carry. */
export type CallbackStatus = 'Completed' | 'Pending' | 'User canceled';

/** Metadata fields: any name starting with `merchant_`, echoed by initiate. */
export type MerchantFields = { [field: `merchant_${string}`]: unknown };

export interface CustomerInfo {
  name?: string;
  email?: string;
  phone?: string;
}

export interface AmountBreakdownLine {
  label: string;
  /** Paisa. */
  amount: number;
}

export interface ProductDetail {
  identity: string;
  name: string;
  /** Paisa. */
  total_price: number;
  quantity: number;
  /** Paisa. */
  unit_price: number;
}

export interface InitiateRequest extends MerchantFields {
  /** Where the payer's browser is sent (GET) when the attempt ends. */
  return_url: string;
  website_url: string;
  /** Paisa, at least 10; a numeric string is accepted too. */
  amount: number | string;
  purchase_order_id: string;
  purchase_order_name: string;
  customer_info?: CustomerInfo;
  /** Lines that must add up to `amount`. */
  amount_breakdown?: AmountBreakdownLine[];
  product_details?: ProductDetail[];
  merchant_username?: string;
  merchant_extra?: string;
}

export interface InitiateResponse extends MerchantFields {
  pidx: string;
  /** Redirect the payer here: `<PUBLIC_URL>/pay/?pidx=<pidx>`, the payment in the query as on the real gateway. */
  payment_url: string;
  /** ISO 8601 with offset. */
  expires_at: string;
  /** Seconds until the link expires. */
  expires_in: number;
}

/** The lookup answer: HTTP 200, or 400 for `Expired` and `User canceled` (still a result). */
export interface LookupResponse {
  pidx: string;
  /** Paisa. */
  total_amount: number;
  status: PaymentStatus;
  /** Set for Completed, Partially refunded and Refunded; null otherwise. */
  transaction_id: string | null;
  /** Paisa. */
  fee: number;
  refunded: boolean;
  /** Bhuktani adds these three. */
  purchase_order_id?: string;
  expires_at?: string;
  /** Paisa refunded so far. */
  refunded_amount?: number;
}

/** The query parameters of the redirect to return_url (specification 2.3), plus Bhuktani's `signature`. */
export interface CallbackParams {
  pidx: string;
  status: CallbackStatus;
  /** Empty on cancel. */
  transaction_id: string;
  tidx: string;
  /** The real gateway's name for `transaction_id`, the same value. */
  txnId: string;
  /** Paisa, as text. */
  amount: string;
  total_amount: string;
  /** Masked, e.g. `98XXXXXXX1`; empty on cancel. */
  mobile: string;
  purchase_order_id: string;
  purchase_order_name: string;
  /**
   * Hex HMAC-SHA256 of the parameters above but `txnId` (CALLBACK_SIGNED_PARAMETERS); check it with
   * verifyCallback, which also refuses a `txnId` other than `transaction_id`.
   */
  signature: string;
}

export type TransactionRecordState = 'Completed' | 'Confirmed' | 'Canceled';

/** The list's type names this client knows (the server holds every provider's to this list). */
export type KnownRecordType = 'Wallet payment' | 'Khalti payment' | 'eSewa payment' | 'connectIPS payment' | 'Fonepay payment' | 'Refund';

export interface TransactionRecord {
  idx: string;
  /** A name the client does not know yet is still a string: the server may be newer. */
  type: { idx: string; name: KnownRecordType | (string & {}) };
  state: { idx: string; name: TransactionRecordState | (string & {}); template: string };
  /** Paisa. */
  amount: number;
  fee_amount: number;
  refunded: boolean;
  /** ISO 8601 with microseconds and offset. */
  created_on: string;
  ebanker: null;
  /** The payer; `mobile` is masked. */
  user: { idx: string; name: string; mobile: string };
  merchant: { idx: string; name: string; mobile: string };
  /** Bhuktani adds these two. */
  pidx?: string;
  purchase_order_id?: string;
  /** The idx of the payment link the payment was made through; only on such payments' records. */
  payment_link?: string;
}

export interface TransactionPage {
  total_pages: number;
  total_records: number;
  /** Absolute URL of the next page (same filters), or null. */
  next: string | null;
  previous: string | null;
  /** First and last record numbers on the page; [0, 0] when there are none. */
  record_range: [number, number];
  current_page: number;
  records: TransactionRecord[];
}

export interface TransactionFilters {
  status?: TransactionRecordState;
  /** A day (YYYY-MM-DD, in the server's TIME_ZONE) or an instant (ISO timestamp or Date). */
  from?: string | Date;
  to?: string | Date;
  purchase_order_id?: string;
  /** 1 to 100; the server's default is 20. */
  page_size?: number;
}

export interface RefundResponse {
  detail: string;
}

/** Field errors of a validation failure: nested like the request (`customer_info.email`, `product_details[1].quantity`). */
export type FieldErrors = { [field: string]: FieldError };
export type FieldError = string[] | FieldErrors | FieldErrors[];

/** Every error body of the contract has one of these shapes. */
export interface ErrorBody {
  detail?: string;
  status_code?: number;
  error_key?: string;
  [field: string]: unknown;
}
