CREATE TABLE "signing_keys" (
	"sub" text NOT NULL,
	"fingerprint" varchar(100) NOT NULL,
	"public_key" varchar(1000) NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "signing_keys_sub_fingerprint_pk" PRIMARY KEY("sub","fingerprint")
);
--> statement-breakpoint
CREATE TABLE "story_versions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"story_id" uuid NOT NULL,
	"version" varchar(100) NOT NULL,
	"package_id" uuid NOT NULL,
	"type" varchar(20) DEFAULT 'story' NOT NULL,
	"sha256" varchar(64) NOT NULL,
	"size" bigint NOT NULL,
	"signature" varchar(12) NOT NULL,
	"signer" varchar(100),
	"manifest" jsonb NOT NULL,
	"warnings" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"cover_key" varchar(100),
	"title" varchar(500),
	"description" text,
	"language" varchar(50),
	"genre" varchar(100),
	"tags" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"series" varchar(200),
	"source" varchar(20) DEFAULT 'upload' NOT NULL,
	"source_url" varchar(2048),
	"source_ref" varchar(300),
	"source_commit" varchar(100),
	"uploader_sub" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "story_versions_signature_check" CHECK ("story_versions"."signature" in ('verified', 'unverified', 'unsigned')),
	CONSTRAINT "story_versions_source_check" CHECK ("story_versions"."source" in ('upload', 'repository'))
);
--> statement-breakpoint
ALTER TABLE "stories" ADD COLUMN "package_id" uuid;--> statement-breakpoint
ALTER TABLE "stories" ADD COLUMN "published_version_id" uuid;--> statement-breakpoint
ALTER TABLE "story_versions" ADD CONSTRAINT "story_versions_story_id_stories_id_fk" FOREIGN KEY ("story_id") REFERENCES "public"."stories"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "story_versions_story_version_idx" ON "story_versions" USING btree ("story_id","version");--> statement-breakpoint
CREATE INDEX "story_versions_sha_idx" ON "story_versions" USING btree ("sha256");--> statement-breakpoint
CREATE INDEX "story_versions_uploader_idx" ON "story_versions" USING btree ("uploader_sub");--> statement-breakpoint
ALTER TABLE "stories" ADD CONSTRAINT "stories_published_version_id_story_versions_id_fk" FOREIGN KEY ("published_version_id") REFERENCES "public"."story_versions"("id") ON DELETE set null ON UPDATE no action;