export default /* sql */ `
CREATE TABLE merchants (
  id bigserial PRIMARY KEY,
  idx text NOT NULL UNIQUE,
  name text NOT NULL,
  email text NOT NULL,
  mobile text NOT NULL DEFAULT '',
  password_hash text NOT NULL,
  fee_bps integer NOT NULL DEFAULT 300 CHECK (fee_bps BETWEEN 0 AND 10000),
  created_at timestamptz NOT NULL
);
CREATE UNIQUE INDEX merchants_email ON merchants (lower(email));

CREATE TABLE secret_keys (
  id bigserial PRIMARY KEY,
  merchant_id bigint NOT NULL REFERENCES merchants (id),
  environment text NOT NULL CHECK (environment IN ('test', 'live')),
  key_hash text NOT NULL UNIQUE,
  prefix text NOT NULL,
  created_at timestamptz NOT NULL,
  -- A key stops working once revoked_at has passed; a future value is a grace period.
  revoked_at timestamptz,
  last_used_at timestamptz
);
CREATE INDEX secret_keys_merchant ON secret_keys (merchant_id, environment);

CREATE TABLE payments (
  pidx text PRIMARY KEY,
  merchant_id bigint NOT NULL REFERENCES merchants (id),
  environment text NOT NULL CHECK (environment IN ('test', 'live')),
  purchase_order_id text NOT NULL,
  purchase_order_name text NOT NULL,
  amount bigint NOT NULL CHECK (amount >= 10),
  fee bigint NOT NULL CHECK (fee >= 0 AND fee <= amount),
  return_url text NOT NULL,
  website_url text NOT NULL,
  customer_info jsonb,
  amount_breakdown jsonb,
  product_details jsonb,
  merchant_fields jsonb NOT NULL DEFAULT '{}',
  status text NOT NULL CHECK (status IN ('Initiated', 'Pending', 'Completed', 'Partially refunded', 'Refunded', 'Expired', 'User canceled')),
  transaction_id text UNIQUE,
  payer_mobile text,
  refunded_amount bigint NOT NULL DEFAULT 0 CHECK (refunded_amount >= 0 AND refunded_amount <= amount),
  created_at timestamptz NOT NULL,
  expires_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL
);
CREATE INDEX payments_merchant_created ON payments (merchant_id, environment, created_at DESC);
-- At most one pidx of an order can ever hold or take the money.
CREATE UNIQUE INDEX payments_one_paid_per_order ON payments (merchant_id, environment, purchase_order_id)
  WHERE status IN ('Pending', 'Completed', 'Partially refunded', 'Refunded');
CREATE INDEX payments_overdue ON payments (expires_at) WHERE status = 'Initiated';

-- What happened to a payment, in order: every status move and every payer attempt.
CREATE TABLE payment_events (
  id bigserial PRIMARY KEY,
  pidx text NOT NULL REFERENCES payments (pidx),
  occurred_at timestamptz NOT NULL,
  event text NOT NULL,
  detail jsonb NOT NULL DEFAULT '{}'
);
CREATE INDEX payment_events_pidx ON payment_events (pidx, id);

-- The records of the merchant transaction list: one per payment that reached a transaction, one per refund.
CREATE TABLE transactions (
  id bigserial PRIMARY KEY,
  idx text NOT NULL UNIQUE,
  merchant_id bigint NOT NULL REFERENCES merchants (id),
  environment text NOT NULL CHECK (environment IN ('test', 'live')),
  type text NOT NULL CHECK (type IN ('Wallet payment', 'Refund')),
  state text NOT NULL CHECK (state IN ('Completed', 'Confirmed', 'Canceled')),
  pidx text NOT NULL REFERENCES payments (pidx),
  purchase_order_id text NOT NULL,
  amount bigint NOT NULL,
  fee_amount bigint NOT NULL,
  refunded boolean NOT NULL DEFAULT false,
  payer_idx text NOT NULL,
  payer_mobile text NOT NULL,
  payer_name text NOT NULL,
  created_at timestamptz NOT NULL
);
CREATE INDEX transactions_list ON transactions (merchant_id, environment, created_at DESC, id DESC);
CREATE INDEX transactions_list_by_state ON transactions (merchant_id, environment, state, created_at DESC, id DESC);
CREATE INDEX transactions_pidx ON transactions (pidx);
`;
