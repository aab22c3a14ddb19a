export default /* sql */ `
-- Secrets every instance must share (the CSRF signing key), made once by whichever starts first.
CREATE TABLE server_secrets (
  name text PRIMARY KEY,
  value text NOT NULL
);
`;
