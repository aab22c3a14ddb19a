export default /* sql */ `
-- One person may belong to several businesses: an accountant for three shops logs in once
-- and switches. A person (merchant_people) is an e-mail with its password, two-factor and links; a
-- user of a team (merchant_users) is one person's membership of one merchant, with its role, removed
-- and never deleted as before (the team log's actor ids keep meaning). One e-mail is one person.
CREATE TABLE merchant_people (
  id bigserial PRIMARY KEY,
  email text NOT NULL,
  password_hash text NOT NULL,
  email_verified_at timestamptz,
  totp_secret_sealed text,
  totp_enrolled_at timestamptz,
  totp_last_step bigint NOT NULL DEFAULT 0,
  created_at timestamptz NOT NULL,
  -- Only while this migration runs: the user row whose password and two-factor the person took.
  from_user_id bigint
);
CREATE UNIQUE INDEX merchant_people_email ON merchant_people (lower(email));
-- People's ids never coincide with users' (memberships'): code that takes one for the other then finds
-- nothing, instead of acting on someone else's account.
ALTER SEQUENCE merchant_people_id_seq RESTART WITH 1000000001;

-- One person per e-mail, whatever its case. Of the rows with one e-mail the present user (at most one:
-- migration 015's index) gives the password and two-factor, else the latest removed one.
INSERT INTO merchant_people (email, password_hash, email_verified_at, totp_secret_sealed, totp_enrolled_at, totp_last_step, created_at, from_user_id)
SELECT DISTINCT ON (lower(email)) email, password_hash, email_verified_at, totp_secret_sealed, totp_enrolled_at, totp_last_step, created_at, id
  FROM merchant_users ORDER BY lower(email), removed_at IS NULL DESC, id DESC;

ALTER TABLE merchant_users ADD COLUMN person_id bigint REFERENCES merchant_people (id);
UPDATE merchant_users u SET person_id = p.id FROM merchant_people p WHERE lower(p.email) = lower(u.email);
ALTER TABLE merchant_users ALTER COLUMN person_id SET NOT NULL;
-- When the person last chose this business: log-in lands on the latest.
ALTER TABLE merchant_users ADD COLUMN chosen_at timestamptz;
DROP INDEX merchant_users_email;
ALTER TABLE merchant_users DROP COLUMN email, DROP COLUMN password_hash, DROP COLUMN email_verified_at,
  DROP COLUMN totp_secret_sealed, DROP COLUMN totp_enrolled_at, DROP COLUMN totp_last_step;
CREATE UNIQUE INDEX merchant_users_membership ON merchant_users (person_id, merchant_id) WHERE removed_at IS NULL;
CREATE INDEX merchant_users_person ON merchant_users (person_id);

-- Recovery codes and e-mailed links are the person's: those of the row the person was made from move
-- over; a removed row's (never usable: its user was removed) go, so none opens another row's account.
ALTER TABLE recovery_codes DROP CONSTRAINT recovery_codes_account_kind_check;
UPDATE recovery_codes r SET account_kind = 'merchant_person', account_id = p.id
  FROM merchant_people p WHERE r.account_kind = 'merchant_user' AND r.account_id = p.from_user_id;
DELETE FROM recovery_codes WHERE account_kind = 'merchant_user';
ALTER TABLE recovery_codes ADD CONSTRAINT recovery_codes_account_kind_check CHECK (account_kind IN ('operator', 'merchant_person'));

ALTER TABLE merchant_user_links ADD COLUMN person_id bigint REFERENCES merchant_people (id);
UPDATE merchant_user_links l SET person_id = p.id FROM merchant_people p WHERE l.user_id = p.from_user_id;
DELETE FROM merchant_user_links WHERE person_id IS NULL;
DROP INDEX merchant_user_links_user;
ALTER TABLE merchant_user_links DROP COLUMN user_id;
ALTER TABLE merchant_user_links ALTER COLUMN person_id SET NOT NULL;
CREATE INDEX merchant_user_links_person ON merchant_user_links (person_id, purpose);

-- A session is a person's, looking at one business: user_id is their membership of it (the role is
-- read from it on every request), merchant_id its merchant. Open sessions stay open.
ALTER TABLE merchant_sessions ADD COLUMN person_id bigint REFERENCES merchant_people (id);
UPDATE merchant_sessions s SET person_id = u.person_id FROM merchant_users u WHERE u.id = s.user_id;
ALTER TABLE merchant_sessions ALTER COLUMN person_id SET NOT NULL;
CREATE INDEX merchant_sessions_person ON merchant_sessions (person_id);

ALTER TABLE merchant_people DROP COLUMN from_user_id;

-- A sign-up waits for its e-mail's link (the page answers the same whether the address has an
-- account): what was typed, the password already hashed, only the link's SHA-256; 24 hours, once.
CREATE TABLE merchant_sign_ups (
  token_hash text PRIMARY KEY,
  name text NOT NULL,
  email text NOT NULL,
  password_hash text NOT NULL,
  created_at timestamptz NOT NULL,
  expires_at timestamptz NOT NULL,
  used_at timestamptz
);
CREATE INDEX merchant_sign_ups_email ON merchant_sign_ups (lower(email));
`;
