export default /* sql */ `
-- The secret a merchant's callbacks and webhooks are signed with, one per environment.
CREATE TABLE signing_secrets (
  merchant_id bigint NOT NULL REFERENCES merchants (id),
  environment text NOT NULL CHECK (environment IN ('test', 'live')),
  secret text NOT NULL,
  created_at timestamptz NOT NULL,
  PRIMARY KEY (merchant_id, environment)
);

-- Idempotency-Key: the first response to a key is kept for 24 hours and replayed.
CREATE TABLE idempotency_keys (
  merchant_id bigint NOT NULL REFERENCES merchants (id),
  environment text NOT NULL,
  route text NOT NULL,
  key text NOT NULL,
  request_hash text NOT NULL,
  response_status integer,
  response_body text,
  created_at timestamptz NOT NULL,
  -- While a request holds the key, others wait; a holder that died frees it when this passes.
  locked_until timestamptz,
  PRIMARY KEY (merchant_id, environment, route, key)
);
CREATE INDEX idempotency_keys_created ON idempotency_keys (created_at);

CREATE TABLE webhook_endpoints (
  merchant_id bigint NOT NULL REFERENCES merchants (id),
  environment text NOT NULL CHECK (environment IN ('test', 'live')),
  url text NOT NULL,
  updated_at timestamptz NOT NULL,
  PRIMARY KEY (merchant_id, environment)
);

-- The outbox: one row per event for a merchant with an endpoint, written in the same transaction
-- as the state change, then delivered (at least once) by the sender.
CREATE TABLE webhook_deliveries (
  id bigserial PRIMARY KEY,
  event_id text NOT NULL UNIQUE,
  merchant_id bigint NOT NULL REFERENCES merchants (id),
  environment text NOT NULL CHECK (environment IN ('test', 'live')),
  type text NOT NULL,
  pidx text,
  payload jsonb NOT NULL,
  url text NOT NULL,
  status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'delivered', 'failed')),
  attempts integer NOT NULL DEFAULT 0,
  next_attempt_at timestamptz NOT NULL,
  locked_until timestamptz,
  last_status integer,
  last_response text,
  last_error text,
  created_at timestamptz NOT NULL,
  delivered_at timestamptz
);
CREATE INDEX webhook_deliveries_due ON webhook_deliveries (next_attempt_at) WHERE status = 'pending';
CREATE INDEX webhook_deliveries_merchant ON webhook_deliveries (merchant_id, environment, id DESC);
`;
