export default /* sql */ `
-- Every confirm writes a journal, its postings and a transaction record in the statement that moves
-- the payment, each row referring to a row the same statement just wrote or moved. Their foreign
-- keys checked each of those rows again, one lookup and row lock per row, and with them the
-- completion benchmark ran about 0.8 × pgbench where without them it ran 1.2–1.4 ×, alternating
-- runs (docs/benchmarks.md). Payments and journals are never deleted, and \`bhuktani ledger verify\`
-- reports a posting without its journal, a journal without its payment and a record without its
-- payment. The keys to merchants and ledger accounts stay: dropping them changed nothing measured.
ALTER TABLE journals DROP CONSTRAINT journals_pidx_fkey;
ALTER TABLE postings DROP CONSTRAINT postings_journal_id_fkey;
ALTER TABLE transactions DROP CONSTRAINT transactions_pidx_fkey;
`;
