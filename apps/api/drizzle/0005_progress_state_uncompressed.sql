-- Reading states are stored without TOAST compression: on PGlite (PostgreSQL in WASM on the API's own thread)
-- compressing a 450 KB state cost 7-10 ms of every save, time every other request waited for. The per-user quota
-- (0002) bounds the uncompressed bytes anyway: 16 MiB per user.
ALTER TABLE "reading_progress" ALTER COLUMN "state" SET STORAGE EXTERNAL;
