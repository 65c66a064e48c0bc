CREATE TABLE "file_purges" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"reason" varchar(40) NOT NULL,
	"story_slug" varchar(100) NOT NULL,
	"urls" jsonb NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"next_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_error" varchar(500),
	"given_up_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE INDEX "file_purges_next_idx" ON "file_purges" USING btree ("next_at");