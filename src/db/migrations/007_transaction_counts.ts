export default /* sql */ `
-- How many list records each closed hour holds, per merchant, environment and state ('' = all), so
-- a page deep in a long history is found without counting or skipping the whole history.
CREATE TABLE transaction_hour_counts (
  merchant_id bigint NOT NULL REFERENCES merchants (id),
  environment text NOT NULL,
  state text NOT NULL,
  hour timestamptz NOT NULL,
  count bigint NOT NULL CHECK (count >= 0),
  PRIMARY KEY (merchant_id, environment, state, hour)
);

-- Hours before counted_until are in transaction_hour_counts; later records are counted live.
CREATE TABLE transaction_count_coverage (
  merchant_id bigint NOT NULL REFERENCES merchants (id),
  environment text NOT NULL,
  counted_until timestamptz NOT NULL,
  PRIMARY KEY (merchant_id, environment)
);
`;
