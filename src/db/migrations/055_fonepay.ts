export default /* sql */ `
-- Fonepay, the fourth provider (docs/fonepay.md).
ALTER TABLE providers DROP CONSTRAINT providers_name_check;
ALTER TABLE providers ADD CONSTRAINT providers_name_check CHECK (name IN ('khalti', 'esewa', 'connectips', 'fonepay'));
ALTER TABLE provider_attempts DROP CONSTRAINT provider_attempts_provider_check;
ALTER TABLE provider_attempts ADD CONSTRAINT provider_attempts_provider_check CHECK (provider IN ('khalti', 'esewa', 'connectips', 'fonepay'));
ALTER TABLE transactions DROP CONSTRAINT transactions_type_check;
ALTER TABLE transactions ADD CONSTRAINT transactions_type_check
  CHECK (type IN ('Wallet payment', 'Khalti payment', 'eSewa payment', 'connectIPS payment', 'Fonepay payment', 'Refund')) NOT VALID;
`;
