-- Issue 31, items 8 and 9: a story links only an instruction record of its own owner. Links made before across
-- owners (a story naming another creator's private instruction, an instruction squatting the slug another
-- creator's story names) are removed; the API no longer makes them.
UPDATE "stories" AS "s" SET "instruction_id" = NULL
FROM "stories" AS "i"
WHERE "s"."instruction_id" = "i"."id" AND "i"."owner_sub" <> "s"."owner_sub";
