CREATE TABLE "secret_failures" (
	"user_id" integer NOT NULL,
	"secret" text NOT NULL,
	"failures" integer DEFAULT 0 NOT NULL,
	"locked_until" timestamp with time zone,
	"updated_at" timestamp with time zone NOT NULL,
	CONSTRAINT "secret_failures_user_id_secret_pk" PRIMARY KEY("user_id","secret")
);
--> statement-breakpoint
ALTER TABLE "secret_failures" ADD CONSTRAINT "secret_failures_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;