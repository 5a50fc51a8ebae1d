-- The house's ledger accounts (modules/ledger/ledger.ts, HOUSE_ACCOUNT_KINDS), opened here once rather than
-- by the first posting that needs each of them, so that every server process can remember their ids from
-- its first order on. Databases where a posting already opened some keep those.
INSERT INTO "ledger_accounts" ("user_id", "kind")
SELECT NULL, h."kind"
FROM (VALUES ('demo_funding'), ('market_settlement'), ('fees'), ('bank_clearing')) AS h("kind")
WHERE NOT EXISTS (
  SELECT 1 FROM "ledger_accounts" a WHERE a."user_id" IS NULL AND a."kind" = h."kind"
);
