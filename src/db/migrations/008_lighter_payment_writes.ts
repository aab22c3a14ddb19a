export default /* sql */ `
-- No query reads payments by merchant and time (the list reads transactions); the index only cost
-- every initiate and every status move an entry.
DROP INDEX payments_merchant_created;

-- A payment's timeline starts at payments.created_at; initiate no longer writes an event for it.
DELETE FROM payment_events WHERE event = 'initiate';
`;
