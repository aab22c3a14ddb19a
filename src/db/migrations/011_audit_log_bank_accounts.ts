export default /* sql */ `
-- Every operator action, one row each, written in the same transaction as the action. Append-only:
-- the code has no UPDATE or DELETE path, and these triggers refuse one from anywhere else.
CREATE TABLE audit_log (
  id bigserial PRIMARY KEY,
  occurred_at timestamptz NOT NULL,
  -- 'operator' (signed in to the console; actor_id is the operator's id) or 'cli' (a command run on
  -- the server; actor_id is null). actor_label is who it was as shown then (an e-mail, or 'cli').
  actor_kind text NOT NULL CHECK (actor_kind IN ('operator', 'cli')),
  actor_id bigint,
  actor_label text NOT NULL,
  -- What was done, as '<object>.<verb>' (merchant.approve, payment.resolve, wallet.freeze, …), and to what.
  action text NOT NULL,
  object_type text NOT NULL,
  object_id text NOT NULL,
  environment text CHECK (environment IN ('test', 'live')),
  reason text,
  before jsonb,
  after jsonb
);
-- Read newest first (id order is commit order within one writer, and close enough across writers).
CREATE INDEX audit_log_actor ON audit_log (actor_id, id DESC);
CREATE INDEX audit_log_object ON audit_log (object_type, object_id, id DESC);
CREATE INDEX audit_log_action ON audit_log (action, id DESC);

CREATE FUNCTION audit_log_refuse_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'audit_log is append-only: % refused', TG_OP USING ERRCODE = 'insufficient_privilege';
END
$$;
CREATE TRIGGER audit_log_append_only BEFORE UPDATE OR DELETE ON audit_log
  FOR EACH ROW EXECUTE FUNCTION audit_log_refuse_change();
CREATE TRIGGER audit_log_no_truncate BEFORE TRUNCATE ON audit_log
  FOR EACH STATEMENT EXECUTE FUNCTION audit_log_refuse_change();

-- Where a merchant's payouts go. One account per merchant; the merchant's business details name it
-- when it applies to go live, and settlements pay to it.
CREATE TABLE merchant_bank_accounts (
  merchant_id bigint PRIMARY KEY REFERENCES merchants (id),
  bank_name text NOT NULL,
  branch text NOT NULL,
  account_name text NOT NULL,
  account_number text NOT NULL,
  updated_at timestamptz NOT NULL
);
`;
