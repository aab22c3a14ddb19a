export default /* sql */ `
-- An attempt's provider reference becomes the provider's own fields, as JSON, each read back through
-- its provider's schema (the descriptor's \`reference\`), never parsed out of a string again. Khalti's
-- pidx is {"pidx"}; Fonepay's packed 'qr:<message>' and 'web:<trace id>:<bank>' become
-- {"way": "qr", "qrMessage"} and {"way": "web", "uid", "bankCode"}. Another provider never kept one;
-- one that fits none of these is kept whole ({"unread"}) and, fitting no schema, asks nothing.
ALTER TABLE provider_attempts ALTER COLUMN provider_reference TYPE jsonb USING (
  CASE
    WHEN provider_reference IS NULL THEN NULL
    WHEN provider = 'khalti' THEN jsonb_build_object('pidx', provider_reference)
    WHEN provider = 'fonepay' AND provider_reference LIKE 'qr:%' THEN jsonb_build_object('way', 'qr', 'qrMessage', substr(provider_reference, 4))
    WHEN provider = 'fonepay' AND provider_reference ~ '^web:[A-Za-z0-9_]+:' THEN jsonb_build_object(
      'way', 'web',
      'uid', substring(provider_reference FROM '^web:([A-Za-z0-9_]+):'),
      'bankCode', substring(provider_reference FROM '^web:[A-Za-z0-9_]+:(.*)$'))
    ELSE jsonb_build_object('unread', provider_reference)
  END);
`;
