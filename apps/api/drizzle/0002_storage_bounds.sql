ALTER TABLE "csp_reports" ADD COLUMN "last_seen_at" timestamp with time zone DEFAULT now() NOT NULL;--> statement-breakpoint
ALTER TABLE "csp_reports" ADD COLUMN "count" integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE "csp_reports" ADD COLUMN "fingerprint" varchar(64);--> statement-breakpoint
ALTER TABLE "csp_reports" ADD COLUMN "source" varchar(32);--> statement-breakpoint
ALTER TABLE "reading_progress" ADD COLUMN "state_bytes" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
CREATE INDEX "csp_reports_source_idx" ON "csp_reports" USING btree ("source");--> statement-breakpoint
ALTER TABLE "csp_reports" ADD CONSTRAINT "csp_reports_fingerprint_unique" UNIQUE("fingerprint");--> statement-breakpoint
-- Rows saved before this migration: their size, for the quota below.
UPDATE "reading_progress" SET "state_bytes" = octet_length("state"::text);
--> statement-breakpoint
-- Per-user quota of saved reading states: at most 200 states and 16 MiB (16,777,216 bytes of JSON text) per
-- user, counting the row being written at its new size. Enforced in the database, with a per-user advisory lock
-- like the report quota (0001), so concurrent writes through several instances cannot exceed it. SQLSTATE RQ001
-- (count) and RQ002 (bytes) are mapped by the API to 409 READING_STATE_QUOTA; the figures are
-- PROGRESS_QUOTA in src/db/progress.ts.
CREATE OR REPLACE FUNCTION enforce_progress_quota() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE others integer; other_bytes bigint;
BEGIN
  PERFORM pg_advisory_xact_lock(hashtextextended('progress:' || NEW.user_sub, 0));
  SELECT count(*), coalesce(sum(state_bytes), 0) INTO others, other_bytes FROM reading_progress
   WHERE user_sub = NEW.user_sub AND story_id <> NEW.story_id;
  IF others >= 200 THEN
    RAISE EXCEPTION 'reading state quota: count' USING ERRCODE = 'RQ001';
  END IF;
  IF other_bytes + NEW.state_bytes > 16777216 THEN
    RAISE EXCEPTION 'reading state quota: bytes' USING ERRCODE = 'RQ002';
  END IF;
  RETURN NEW;
END $$;
--> statement-breakpoint
CREATE TRIGGER reading_progress_quota BEFORE INSERT OR UPDATE ON reading_progress FOR EACH ROW EXECUTE FUNCTION enforce_progress_quota();
