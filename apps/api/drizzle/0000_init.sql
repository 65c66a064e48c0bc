CREATE TABLE "auth_events" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"kind" text NOT NULL,
	"session_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"detail" jsonb DEFAULT '{}'::jsonb NOT NULL
);
--> statement-breakpoint
CREATE TABLE "auth_sessions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"sub" text NOT NULL,
	"sid" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_seen_at" timestamp with time zone DEFAULT now() NOT NULL,
	"revoked_at" timestamp with time zone,
	CONSTRAINT "auth_sessions_sid_unique" UNIQUE("sid")
);
--> statement-breakpoint
CREATE TABLE "csp_reports" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"received_at" timestamp with time zone DEFAULT now() NOT NULL,
	"format" varchar(20) NOT NULL,
	"document_uri" varchar(2048),
	"blocked_uri" varchar(2048),
	"effective_directive" varchar(200),
	"disposition" varchar(20),
	"source_file" varchar(2048),
	"line_number" integer,
	"sample" varchar(200)
);
--> statement-breakpoint
CREATE TABLE "profiles" (
	"sub" text NOT NULL,
	"role" varchar(20) NOT NULL,
	"display_name" varchar(100),
	"avatar" varchar(2048),
	"bio" varchar(1000),
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "profiles_sub_role_pk" PRIMARY KEY("sub","role")
);
--> statement-breakpoint
CREATE TABLE "reading_progress" (
	"user_sub" text NOT NULL,
	"story_id" varchar(200) NOT NULL,
	"state" jsonb NOT NULL,
	"revision" integer DEFAULT 1 NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "reading_progress_user_sub_story_id_pk" PRIMARY KEY("user_sub","story_id")
);
--> statement-breakpoint
CREATE TABLE "reports" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_sub" text NOT NULL,
	"reason" varchar(30) NOT NULL,
	"story_slug" varchar(100),
	"details" varchar(2000) DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "series" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"slug" varchar(100) NOT NULL,
	"title" varchar(200) NOT NULL,
	"description" varchar(2000) DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "series_slug_unique" UNIQUE("slug")
);
--> statement-breakpoint
CREATE TABLE "stories" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"slug" varchar(100) NOT NULL,
	"title" varchar(200) NOT NULL,
	"author" varchar(100) NOT NULL,
	"genre" varchar(50) NOT NULL,
	"content" text NOT NULL,
	"type" varchar(20) DEFAULT 'story' NOT NULL,
	"owner_sub" text NOT NULL,
	"instruction_id" uuid,
	"published" boolean DEFAULT false NOT NULL,
	"series_id" uuid,
	"series_position" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "stories_slug_unique" UNIQUE("slug"),
	CONSTRAINT "stories_type_check" CHECK ("stories"."type" in ('story', 'instruction')),
	CONSTRAINT "stories_content_length" CHECK (char_length("stories"."content") <= 500000)
);
--> statement-breakpoint
ALTER TABLE "stories" ADD CONSTRAINT "stories_instruction_id_stories_id_fk" FOREIGN KEY ("instruction_id") REFERENCES "public"."stories"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "stories" ADD CONSTRAINT "stories_series_id_series_id_fk" FOREIGN KEY ("series_id") REFERENCES "public"."series"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "auth_events_created_idx" ON "auth_events" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "auth_sessions_sub_idx" ON "auth_sessions" USING btree ("sub");--> statement-breakpoint
CREATE INDEX "reports_user_created_idx" ON "reports" USING btree ("user_sub","created_at");--> statement-breakpoint
CREATE INDEX "stories_list_idx" ON "stories" USING btree ("type","created_at");--> statement-breakpoint
CREATE INDEX "stories_catalog_idx" ON "stories" USING btree ("published","type","genre");--> statement-breakpoint
CREATE INDEX "stories_series_idx" ON "stories" USING btree ("series_id");