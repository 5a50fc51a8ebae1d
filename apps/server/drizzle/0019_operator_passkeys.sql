ALTER TABLE "passkeys" ALTER COLUMN "user_id" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "passkeys" ADD COLUMN "operator_id" integer;--> statement-breakpoint
ALTER TABLE "webauthn_challenges" ADD COLUMN "subject" text DEFAULT 'user' NOT NULL;--> statement-breakpoint
ALTER TABLE "webauthn_challenges" ADD COLUMN "operator_id" integer;--> statement-breakpoint
ALTER TABLE "passkeys" ADD CONSTRAINT "passkeys_operator_id_operators_id_fk" FOREIGN KEY ("operator_id") REFERENCES "public"."operators"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "webauthn_challenges" ADD CONSTRAINT "webauthn_challenges_operator_id_operators_id_fk" FOREIGN KEY ("operator_id") REFERENCES "public"."operators"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "passkeys_operator_idx" ON "passkeys" USING btree ("operator_id");--> statement-breakpoint
ALTER TABLE "passkeys" ADD CONSTRAINT "passkeys_one_owner" CHECK (("passkeys"."user_id" is null) <> ("passkeys"."operator_id" is null));