-- At most 10 reports per user in any 24 hours, enforced by the database so that concurrent
-- requests through several API instances cannot exceed it. The per-user advisory lock serialises
-- the count and the insert of one user; statements in a volatile PL/pgSQL function take a fresh
-- READ COMMITTED snapshot once the lock is granted, so a waiting insert sees the rows committed
-- before it. SQLSTATE RL001 is mapped by the API to 409 REPORT_RATE_LIMITED.
CREATE OR REPLACE FUNCTION enforce_report_quota() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE recent integer;
BEGIN
  PERFORM pg_advisory_xact_lock(hashtextextended('reports:' || NEW.user_sub, 0));
  SELECT count(*) INTO recent FROM reports
   WHERE user_sub = NEW.user_sub AND created_at > now() - interval '24 hours';
  IF recent >= 10 THEN
    RAISE EXCEPTION 'report rate limit exceeded' USING ERRCODE = 'RL001';
  END IF;
  RETURN NEW;
END $$;
--> statement-breakpoint
CREATE TRIGGER reports_quota BEFORE INSERT ON reports FOR EACH ROW EXECUTE FUNCTION enforce_report_quota();
