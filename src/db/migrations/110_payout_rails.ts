export default /* sql */ `
-- The payout rail of each environment (src/settlements/payout-rail-setup.ts): the bank file an
-- operator uploads by hand, or NCHL's National Payments Interface. No row: the test environment's
-- rail is the sandbox's NPI simulator, live's the bank file. An NPI set-up keeps its addresses, ids
-- and debtor account in settings (shown), its client secret, password and PFX sealed as providers'
-- credentials are (src/secrets/seal.ts).
CREATE TABLE payout_rails (
  environment text PRIMARY KEY CHECK (environment IN ('test', 'live')),
  rail text NOT NULL CHECK (rail IN ('file', 'npi')),
  settings jsonb NOT NULL,
  credentials_sealed text,
  updated_at timestamptz NOT NULL,
  CHECK ((rail = 'npi') = (credentials_sealed IS NOT NULL))
);
`;
