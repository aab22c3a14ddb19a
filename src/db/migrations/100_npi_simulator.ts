export default /* sql */ `
-- The NPI simulator's own books (src/sandbox/npi/): the tokens it issued, the batches and
-- transactions members posted (each member's batch ids its own, as NCHL keeps them), and its
-- entries of money moved: a debit from the debtor's account to NCHL's settlement, then a credit from
-- it to the creditor's or a reversal back to the debtor. One entry of a kind per batch or
-- transaction, so a batch posted twice is never debited twice.
CREATE TABLE npi_sim_tokens (
  token text PRIMARY KEY,
  kind text NOT NULL CHECK (kind IN ('access', 'refresh')),
  client_id text NOT NULL,
  username text NOT NULL,
  expires_at timestamptz NOT NULL
);

CREATE TABLE npi_sim_batches (
  id bigserial PRIMARY KEY,
  member text NOT NULL,
  rail text NOT NULL CHECK (rail IN ('cips', 'ips')),
  batch_id text NOT NULL,
  batch_amount bigint NOT NULL CHECK (batch_amount > 0),
  batch_count integer NOT NULL,
  batch_crncy text NOT NULL,
  category_purpose text NOT NULL,
  debtor_agent text NOT NULL,
  debtor_branch text NOT NULL,
  debtor_name text NOT NULL,
  debtor_account text NOT NULL,
  debit_status text NOT NULL,
  ips_batch_id text,
  details jsonb NOT NULL,
  rec_date date NOT NULL,
  created_at timestamptz NOT NULL,
  UNIQUE (member, batch_id)
);
CREATE INDEX npi_sim_batches_by_day ON npi_sim_batches (member, rec_date);

CREATE TABLE npi_sim_transactions (
  id bigserial PRIMARY KEY,
  batch bigint NOT NULL REFERENCES npi_sim_batches (id),
  member text NOT NULL,
  position integer NOT NULL,
  instruction_id text NOT NULL,
  end_to_end_id text NOT NULL,
  amount bigint NOT NULL CHECK (amount > 0),
  creditor_agent text NOT NULL,
  creditor_branch text NOT NULL,
  creditor_name text NOT NULL,
  creditor_account text NOT NULL,
  credit_status text NOT NULL,
  -- The credit's fate, decided when posted; a batch credit reaches it through NCHL-IPS's states.
  final_status text NOT NULL,
  reason_code text,
  reason_desc text,
  reversal_status text,
  ips_txn_id text,
  details jsonb NOT NULL,
  created_at timestamptz NOT NULL,
  UNIQUE (member, instruction_id)
);
CREATE INDEX npi_sim_transactions_of_batch ON npi_sim_transactions (batch, position);
CREATE INDEX npi_sim_transactions_pending ON npi_sim_transactions (member) WHERE credit_status <> final_status;

CREATE TABLE npi_sim_entries (
  id bigserial PRIMARY KEY,
  member text NOT NULL,
  batch bigint NOT NULL REFERENCES npi_sim_batches (id),
  txn bigint REFERENCES npi_sim_transactions (id),
  kind text NOT NULL CHECK (kind IN ('debit', 'credit', 'reversal')),
  from_account text NOT NULL,
  to_account text NOT NULL,
  amount bigint NOT NULL CHECK (amount > 0),
  at timestamptz NOT NULL
);
CREATE UNIQUE INDEX npi_sim_entries_once ON npi_sim_entries (batch, coalesce(txn, 0), kind);
`;
