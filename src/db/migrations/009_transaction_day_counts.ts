export default /* sql */ `
-- The counted hours summed by UTC day, so a page deep in a long history is found by summing a few
-- hundred day rows and then the hours of one day, instead of every hour of the history. Kept in
-- step with transaction_hour_counts: each day row is the sum of that day's hour rows.
CREATE TABLE transaction_day_counts (
  merchant_id bigint NOT NULL REFERENCES merchants (id),
  environment text NOT NULL,
  state text NOT NULL,
  day timestamptz NOT NULL,
  count bigint NOT NULL CHECK (count >= 0),
  PRIMARY KEY (merchant_id, environment, state, day)
);

INSERT INTO transaction_day_counts (merchant_id, environment, state, day, count)
SELECT merchant_id, environment, state, date_trunc('day', hour, 'UTC'), sum(count)
  FROM transaction_hour_counts
 GROUP BY merchant_id, environment, state, date_trunc('day', hour, 'UTC');
`;
