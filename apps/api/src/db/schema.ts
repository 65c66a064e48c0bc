/**
 * The drizzle schema of the API, shared by PostgreSQL and PGlite. `drizzle-kit generate` turns it
 * into the SQL migrations under `apps/api/drizzle/`; the report quota trigger is a custom migration.
 */
import { sql } from 'drizzle-orm'
import {
  type AnyPgColumn,
  bigint,
  bigserial,
  boolean,
  check,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
  varchar,
} from 'drizzle-orm/pg-core'

const timestamps = {
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
}

/** Catalog series: an ordered group of published stories. */
export const series = pgTable('series', {
  id: uuid('id').primaryKey().defaultRandom(),
  slug: varchar('slug', { length: 100 }).notNull().unique(),
  title: varchar('title', { length: 200 }).notNull(),
  description: varchar('description', { length: 2000 }).notNull().default(''),
  ...timestamps,
})

/**
 * Story records. `type` is the package type: `instruction` records are reachable only through the
 * story that links them (`instruction_id`) and never appear in a list or in the catalog.
 */
export const stories = pgTable(
  'stories',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    slug: varchar('slug', { length: 100 }).notNull().unique(),
    title: varchar('title', { length: 200 }).notNull(),
    author: varchar('author', { length: 100 }).notNull(),
    genre: varchar('genre', { length: 50 }).notNull(),
    content: text('content').notNull(),
    type: varchar('type', { length: 20 }).notNull().default('story'),
    ownerSub: text('owner_sub').notNull(),
    instructionId: uuid('instruction_id').references((): AnyPgColumn => stories.id, {
      onDelete: 'set null',
    }),
    published: boolean('published').notNull().default(false),
    seriesId: uuid('series_id').references(() => series.id, { onDelete: 'set null' }),
    seriesPosition: integer('series_position'),
    /** The manifest `id` of the story's packages, fixed by the first uploaded version. */
    packageId: uuid('package_id'),
    /** The version the catalog shows (`PUT /catalog/stories/:slug` with `version`); null: none published yet. */
    publishedVersionId: uuid('published_version_id').references((): AnyPgColumn => storyVersions.id, {
      onDelete: 'set null',
    }),
    ...timestamps,
  },
  (t) => [
    check('stories_type_check', sql`${t.type} in ('story', 'instruction')`),
    check('stories_content_length', sql`char_length(${t.content}) <= 500000`),
    index('stories_list_idx').on(t.type, t.createdAt),
    index('stories_catalog_idx').on(t.published, t.type, t.genre),
    index('stories_series_idx').on(t.seriesId),
  ],
)

/** One profile per user and role (`PUT /api/auth/profiles/:role`). */
export const profiles = pgTable(
  'profiles',
  {
    sub: text('sub').notNull(),
    role: varchar('role', { length: 20 }).notNull(),
    displayName: varchar('display_name', { length: 100 }),
    avatar: varchar('avatar', { length: 2048 }),
    bio: varchar('bio', { length: 1000 }),
    /** When the last `profile_changed` auth event of this profile was recorded (at most one an hour). */
    eventAt: timestamp('event_at', { withTimezone: true }).notNull().defaultNow(),
    ...timestamps,
  },
  (t) => [primaryKey({ columns: [t.sub, t.role] })],
)

/** User reports; a trigger caps them at 10 per user per 24 hours (migration `report_quota`). */
export const reports = pgTable(
  'reports',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userSub: text('user_sub').notNull(),
    reason: varchar('reason', { length: 30 }).notNull(),
    storySlug: varchar('story_slug', { length: 100 }),
    details: varchar('details', { length: 2000 }).notNull().default(''),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('reports_user_created_idx').on(t.userSub, t.createdAt)],
)

/**
 * CSP violation reports, bounded: identical reports share a row and a `count`, one source (a keyed hash of the
 * client address) holds a bounded number of rows, and the route keeps the newest rows only (db/csp-reports.ts).
 */
export const cspReports = pgTable(
  'csp_reports',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    receivedAt: timestamp('received_at', { withTimezone: true }).notNull().defaultNow(),
    /** Last time an identical report arrived. */
    lastSeenAt: timestamp('last_seen_at', { withTimezone: true }).notNull().defaultNow(),
    /** How many identical reports arrived (from any source). */
    count: integer('count').notNull().default(1),
    /** SHA-256 of the stored fields: identical reports share a row (NULL on rows older than the column). */
    fingerprint: varchar('fingerprint', { length: 64 }).unique(),
    /** Keyed hash of the client address that first sent it (no address is stored). */
    source: varchar('source', { length: 32 }),
    format: varchar('format', { length: 20 }).notNull(),
    documentUri: varchar('document_uri', { length: 2048 }),
    blockedUri: varchar('blocked_uri', { length: 2048 }),
    effectiveDirective: varchar('effective_directive', { length: 200 }),
    disposition: varchar('disposition', { length: 20 }),
    sourceFile: varchar('source_file', { length: 2048 }),
    lineNumber: integer('line_number'),
    sample: varchar('sample', { length: 200 }),
  },
  (t) => [index('csp_reports_source_idx').on(t.source)],
)

/** Reading state per user and story, with a revision for compare-and-set (`If-Match`). */
export const readingProgress = pgTable(
  'reading_progress',
  {
    userSub: text('user_sub').notNull(),
    storyId: varchar('story_id', { length: 200 }).notNull(),
    /**
     * The state's JSON text, validated on the way in and sent back as is. Text, not jsonb: the database never looks
     * inside, and PGlite (PostgreSQL in WASM on the API's own thread) spent 30-40 ms building the jsonb of a large
     * state on every save.
     */
    state: text('state').notNull(),
    /** Bytes of the state's JSON text, for the per-user quota (trigger `reading_progress_quota`). */
    stateBytes: integer('state_bytes').notNull().default(0),
    revision: integer('revision').notNull().default(1),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.userSub, t.storyId] })],
)

/** Sessions the platform has seen (owned by the auth plugin). */
export const authSessions = pgTable(
  'auth_sessions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    sub: text('sub').notNull(),
    sid: text('sid').notNull().unique(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    lastSeenAt: timestamp('last_seen_at', { withTimezone: true }).notNull().defaultNow(),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
  },
  (t) => [index('auth_sessions_sub_idx').on(t.sub)],
)

/** Auth events without personal data (owned by the auth plugin; purged after the retention period). */
export const authEvents = pgTable(
  'auth_events',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    kind: text('kind').notNull(),
    sessionId: uuid('session_id'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    detail: jsonb('detail').notNull().default({}),
  },
  // session_id: `GET /api/auth/events` lists a user's events through their sessions.
  (t) => [index('auth_events_created_idx').on(t.createdAt), index('auth_events_session_idx').on(t.sessionId)],
)

/**
 * Uploaded package versions of a story. The package file is content-addressed in the file storage
 * (`packages/<sha256>.spkg`); the row keeps the canonical manifest with its `integrity` map and the catalog's
 * metadata columns. Files are deleted only after the row is gone (publishing/files.ts).
 */
export const storyVersions = pgTable(
  'story_versions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    storyId: uuid('story_id')
      .notNull()
      .references((): AnyPgColumn => stories.id, { onDelete: 'cascade' }),
    version: varchar('version', { length: 100 }).notNull(),
    packageId: uuid('package_id').notNull(),
    type: varchar('type', { length: 20 }).notNull().default('story'),
    sha256: varchar('sha256', { length: 64 }).notNull(),
    size: bigint('size', { mode: 'number' }).notNull(),
    /** `verified` (signed by a key the uploader registered), `unverified` or `unsigned`. */
    signature: varchar('signature', { length: 12 }).notNull(),
    signer: varchar('signer', { length: 100 }),
    /** Canonical manifest with the `integrity` map (computed when the package had none). */
    manifest: jsonb('manifest').notNull(),
    warnings: jsonb('warnings').notNull().default([]),
    coverKey: varchar('cover_key', { length: 100 }),
    /** Catalog metadata from the manifest (filters and text search without reading the jsonb). */
    title: varchar('title', { length: 500 }),
    description: text('description'),
    language: varchar('language', { length: 50 }),
    genre: varchar('genre', { length: 100 }),
    tags: jsonb('tags').notNull().default([]),
    series: varchar('series', { length: 200 }),
    /** `upload` or `repository` (then `sourceUrl`, `sourceRef`, `sourceCommit`). */
    source: varchar('source', { length: 20 }).notNull().default('upload'),
    sourceUrl: varchar('source_url', { length: 2048 }),
    sourceRef: varchar('source_ref', { length: 300 }),
    sourceCommit: varchar('source_commit', { length: 100 }),
    uploaderSub: text('uploader_sub').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('story_versions_story_version_idx').on(t.storyId, t.version),
    index('story_versions_sha_idx').on(t.sha256),
    index('story_versions_uploader_idx').on(t.uploaderSub),
    check('story_versions_signature_check', sql`${t.signature} in ('verified', 'unverified', 'unsigned')`),
    check('story_versions_source_check', sql`${t.source} in ('upload', 'repository')`),
  ],
)

/** signify public keys a creator registered: packages signed by one of them are `verified`. */
export const signingKeys = pgTable(
  'signing_keys',
  {
    sub: text('sub').notNull(),
    /** `ed25519:<base64>` of the key. */
    fingerprint: varchar('fingerprint', { length: 100 }).notNull(),
    /** The signify public-key text as registered. */
    publicKey: varchar('public_key', { length: 1000 }).notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.sub, t.fingerprint] })],
)

/**
 * CDN purges waiting for `FILES_PURGE_URL` (src/publishing/file-purge.ts): written after a change that made files
 * non-public (at most 100 addresses a row), claimed by one instance at a time (`next_at` is its lease, then the
 * retry time), deleted once the hook answered 2xx; after the last attempt `given_up_at` is set and the row stays
 * for the operator (docs/operating.md, "Takedown").
 */
export const filePurges = pgTable(
  'file_purges',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    reason: varchar('reason', { length: 40 }).notNull(),
    storySlug: varchar('story_slug', { length: 100 }).notNull(),
    /** The public file addresses as clients fetch them. */
    urls: jsonb('urls').notNull(),
    attempts: integer('attempts').notNull().default(0),
    nextAt: timestamp('next_at', { withTimezone: true }).notNull().defaultNow(),
    lastError: varchar('last_error', { length: 500 }),
    givenUpAt: timestamp('given_up_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('file_purges_next_idx').on(t.nextAt)],
)
