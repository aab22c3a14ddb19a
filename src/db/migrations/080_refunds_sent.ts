export default /* sql */ `
-- When a refund's request last left for the provider's refund API (written before it leaves). A
-- refund with one is in doubt until the provider's record decides; its record saying "not refunded"
-- is believed only once PROVIDER_REFUND_QUIET_SECONDS have passed since, as a late request could
-- still arrive before. Refunds already tried without an answer are in doubt from now on.
ALTER TABLE provider_refunds ADD COLUMN sent_at timestamptz;
UPDATE provider_refunds SET sent_at = date_trunc('milliseconds', now()) WHERE state = 'Queued' AND tries > 0;
`;
