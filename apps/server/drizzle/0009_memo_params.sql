-- A journal entry's memo parameters (ADR 0020), from which clients render the memo in the reader's language.
-- Nullable: entries written before keep only their English memo. Not part of the hash chain, like the memo.
ALTER TABLE "journal_entries" ADD COLUMN "params" jsonb;