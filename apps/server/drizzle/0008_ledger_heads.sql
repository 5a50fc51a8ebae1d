CREATE TABLE "ledger_heads" (
	"user_id" integer PRIMARY KEY NOT NULL,
	"seq" integer DEFAULT 0 NOT NULL,
	"hash" text DEFAULT '0000000000000000000000000000000000000000000000000000000000000000' NOT NULL,
	"cash" bigint DEFAULT 0 NOT NULL,
	"reserved" bigint DEFAULT 0 NOT NULL,
	"margin" bigint DEFAULT 0 NOT NULL,
	"withdrawing" bigint DEFAULT 0 NOT NULL
);
--> statement-breakpoint
ALTER TABLE "ledger_heads" ADD CONSTRAINT "ledger_heads_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
-- Every existing user's head, from the postings: the balances are the sums of the user's accounts' postings,
-- the chain head is the user's last posting. New users get theirs where their accounts are opened.
INSERT INTO "ledger_heads" ("user_id", "seq", "hash", "cash", "reserved", "margin", "withdrawing")
SELECT u."id",
  coalesce(last."seq", 0),
  coalesce(last."hash", '0000000000000000000000000000000000000000000000000000000000000000'),
  coalesce(sum(p."amount") FILTER (WHERE a."kind" = 'cash'), 0),
  coalesce(sum(p."amount") FILTER (WHERE a."kind" = 'reserved'), 0),
  coalesce(sum(p."amount") FILTER (WHERE a."kind" = 'margin'), 0),
  coalesce(sum(p."amount") FILTER (WHERE a."kind" = 'withdrawing'), 0)
FROM "users" u
LEFT JOIN "ledger_accounts" a ON a."user_id" = u."id"
LEFT JOIN "postings" p ON p."account_id" = a."id"
LEFT JOIN LATERAL (
  SELECT l."seq", l."hash" FROM "postings" l WHERE l."user_id" = u."id" ORDER BY l."seq" DESC LIMIT 1
) last ON true
GROUP BY u."id", last."seq", last."hash";
