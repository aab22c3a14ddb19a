export default /* sql */ `
-- Automatic payouts: a merchant may have its available balance paid out daily, or weekly
-- on a day of its choice, once it reaches a minimum. One schedule per merchant and environment (a
-- developer tries it on test data first); choosing "none" deletes the row.
CREATE TABLE payout_schedules (
  merchant_id bigint NOT NULL REFERENCES merchants (id),
  environment text NOT NULL CHECK (environment IN ('test', 'live')),
  frequency text NOT NULL CHECK (frequency IN ('daily', 'weekly')),
  -- 0 = Sunday … 6 = Saturday; weekly only.
  weekday smallint CHECK (weekday BETWEEN 0 AND 6),
  minimum_amount bigint NOT NULL CHECK (minimum_amount >= 0),
  -- The local day (TIME_ZONE) the schedule was chosen: no earlier period is due.
  starts_on date NOT NULL,
  updated_at timestamptz NOT NULL,
  PRIMARY KEY (merchant_id, environment),
  CHECK ((frequency = 'weekly') = (weekday IS NOT NULL))
);

-- The payout each period of a schedule made, named by the local day the period starts. The primary
-- key is what makes it one payout per merchant per period, however many instances run the job: the
-- row is inserted in the payout's own transaction, and the second insert of a period fails.
CREATE TABLE scheduled_payouts (
  merchant_id bigint NOT NULL REFERENCES merchants (id),
  environment text NOT NULL CHECK (environment IN ('test', 'live')),
  period_start date NOT NULL,
  payout_id bigint NOT NULL REFERENCES payouts (id),
  created_at timestamptz NOT NULL,
  PRIMARY KEY (merchant_id, environment, period_start)
);
`;
