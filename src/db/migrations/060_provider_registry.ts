export default /* sql */ `
-- Providers come from the code's registry (src/providers/registry.ts): a provider is its folder and one
-- line there, so the store no longer lists them. A provider's name is a short lowercase word, and the
-- list's name of a payment through it is "<Label> payment"; the registry's test holds every
-- descriptor to these checks.
ALTER TABLE providers DROP CONSTRAINT providers_name_check;
ALTER TABLE providers ADD CONSTRAINT providers_name_check CHECK (name ~ '^[a-z][a-z0-9]{1,19}$');
ALTER TABLE provider_attempts DROP CONSTRAINT provider_attempts_provider_check;
ALTER TABLE provider_attempts ADD CONSTRAINT provider_attempts_provider_check CHECK (provider ~ '^[a-z][a-z0-9]{1,19}$');
ALTER TABLE transactions DROP CONSTRAINT transactions_type_check;
ALTER TABLE transactions ADD CONSTRAINT transactions_type_check
  CHECK (type IN ('Wallet payment', 'Refund') OR type ~ '^[A-Za-z][A-Za-z0-9]{1,19} payment$') NOT VALID;

-- connectIPS's payer login page (the gateway) and its validation API live at different addresses:
-- a set-up of one base_url keeps working, as both.
UPDATE providers SET settings = (settings - 'base_url') || jsonb_build_object('gateway_url', settings->>'base_url', 'api_url', settings->>'base_url')
 WHERE name = 'connectips' AND settings ? 'base_url';
`;
