export default /* sql */ `
-- The console finds a payment across all merchants by pidx and transaction_id (already unique), by
-- purchase_order_id and by the payer's mobile: without these two, either search reads every payment.
-- Newest first within a value, so a busy payer's (or a reused order id's) latest payments are the
-- first entries of the index.
CREATE INDEX payments_purchase_order ON payments (purchase_order_id, created_at DESC);
CREATE INDEX payments_payer_mobile ON payments (payer_mobile, created_at DESC) WHERE payer_mobile IS NOT NULL;
-- The console's queue of payments waiting for an operator: few rows, so a small partial index.
CREATE INDEX payments_pending ON payments (created_at) WHERE status = 'Pending';

-- A wallet's history, newest first, reads its postings by account in id order; the same one index
-- still serves the balance sums by account.
DROP INDEX postings_account;
CREATE INDEX postings_account ON postings (account_id, id);

`;
