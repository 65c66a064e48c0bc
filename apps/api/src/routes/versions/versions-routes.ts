/**
 * Package publishing routes:
 * - `POST /api/stories/:slug/versions`: the body is the `.spkg` bytes (`application/vnd.spkg+zip` or
 *   `application/zip`), streamed to a temporary file (never buffered whole), refused with 413 past the package
 *   limit before it is all read, validated in the worker pool exactly as `spkg validate` does;
 * - `GET /api/stories/:slug/versions` (owner, moderator, administrator);
 * - `DELETE /api/stories/:slug/versions/:version` (owner, administrator): the current version moves to the newest
 *   remaining one, the story is unpublished when none remains, files go after the commit;
 * - `GET /catalog/stories/:slug/versions/:version/manifest` (public for published stories): the canonical
 *   manifest with its `integrity` map, what a delta update compares;
 * - `GET|PUT /api/auth/signing-keys`: the caller's registered signify keys (a package signed by one is
 *   `verified`). A route of its own rather than a profile field: keys belong to the user, not to one role's
 *   profile, and replacing them must not touch the profile's other fields.
 */
import type { Readable } from 'node:stream'
import {
  CanonicalManifestSchema,
  PublishedVersionSchema,
  SigningKeysBodySchema,
  SigningKeysSchema,
  SlugParamsSchema,
  StoryVersionListSchema,
  StoryVersionParamsSchema,
} from '@spkg/api-contract'
import { keyFingerprint } from '@spkg/integrity'
import type { FastifyReply } from 'fastify'
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { z } from 'zod'
import type { PublishingSettings } from '../../config'
import type { Db } from '../../db/connection'
import { deleteFilesLocked, isLinkedFromPublished } from '../../db/file-access'
import { versionView } from '../../db/version-views'
import {
  deleteVersion,
  findStoryForPublishing,
  findVersion,
  listVersions,
  replaceSigningKeys,
  signingKeysOf,
} from '../../db/versions'
import { ApiError, errorResponses, PackageRefusedSchema } from '../../errors'
import { timedValidations } from '../../plugins/metrics'
import { authenticated, requireOwnerOrAdministrator, userOf, withRole } from '../../plugins/route-auth'
import { throttle } from '../../plugins/throttle'
import { dropAnswer, watchClient } from '../../publishing/client-gone'
import { PackageInvalidError, publishPackage, UploadAbortedError } from '../../publishing/publish-package'
import { PACKAGE_MEDIA_TYPES, receiveUpload, refuseAnnouncedOversize } from '../../publishing/receive-upload'
import type { ValidationPool } from '../../publishing/validation-pool'
import { hasRole } from '../../roles'
import type { FileStorage } from '../../storage/create-storage'

/** Options of {@link publishingRoutes}. */
export interface PublishingRoutesOptions {
  db: Db
  storage: FileStorage
  pool: ValidationPool
  settings: PublishingSettings
  /** Absolute address of the API (files are served under `<publicUrl>/files/` unless FILES_URL is set). */
  publicUrl: string
}

const sendInvalid = (reply: FastifyReply, err: PackageInvalidError) =>
  reply.code(422).send({
    statusCode: 422 as const,
    code: 'PACKAGE_INVALID' as const,
    message: err.message,
    ...(err.omitted ? { omitted: err.omitted } : {}),
    diagnostics: err.diagnostics,
  })

/** The publishing routes (registered by ./register-publishing.ts). */
export const publishingRoutes: FastifyPluginAsyncZod<PublishingRoutesOptions> = async (app, opts) => {
  const { db, storage, pool, settings, publicUrl } = opts
  // Validation timings for the metrics (src/metrics).
  const timedPool = timedValidations(pool, app.metrics)
  // Only this plugin's routes take a package body: the stream is handed to the route unread.
  app.addContentTypeParser([...PACKAGE_MEDIA_TYPES], (_request, payload, done) => done(null, payload))

  app.post(
    '/api/stories/:slug/versions',
    {
      onRequest: [
        ...withRole(app, 'creator', 'administrator'),
        async (request) => refuseAnnouncedOversize(request, settings.maxPackageBytes),
      ],
      config: {
        throttle: [
          { name: 'short', max: 2, ttl: 1000 },
          { name: 'uploads', max: settings.uploadsPerHour, ttl: 3_600_000 },
        ],
      },
      schema: {
        tags: ['publishing'],
        summary: 'Upload a package version',
        description:
          'Owner or administrator. Body: the `.spkg` bytes (`Content-Type: application/vnd.spkg+zip` or `application/zip`), ' +
          `at most ${settings.maxPackageBytes} bytes (413 PACKAGE_TOO_LARGE, before the body is read when Content-Length says so). ` +
          'The package is checked exactly as `spkg validate` checks it, in a worker with a time and memory budget ' +
          '(422 VALIDATION_TIMEOUT / VALIDATION_MEMORY_EXCEEDED / VALIDATION_UNREADABLE; 503 VALIDATION_BUSY when too many ' +
          'wait; 429 VALIDATION_IN_PROGRESS while another upload of the same user is checked or waiting). A fatal or error ' +
          'diagnostic is 422 PACKAGE_INVALID with `diagnostics`; warnings are stored with the version and returned. The first ' +
          'version fixes the package `id` (409 PACKAGE_ID_MISMATCH after); an existing `manifest.version` is 409 VERSION_EXISTS; ' +
          'an instruction package goes to a record of type `instruction` (409 PACKAGE_TYPE_MISMATCH). Over the per-user storage ' +
          'quota: 413 STORAGE_QUOTA_EXCEEDED; over the upload rate (per hour, per user): 429.',
        security: [{ bearerAuth: [] }],
        params: SlugParamsSchema,
        consumes: [...PACKAGE_MEDIA_TYPES],
        response: {
          201: PublishedVersionSchema,
          422: PackageRefusedSchema,
          ...errorResponses(400, 401, 403, 404, 409, 413, 415, 429, 503),
        },
      },
    },
    async (request, reply) => {
      const user = userOf(request)
      const body = request.body as unknown
      if (!body || typeof (body as Readable).pipe !== 'function')
        throw new ApiError(
          415,
          'UNSUPPORTED_MEDIA_TYPE',
          'Send the package bytes as application/vnd.spkg+zip (or application/zip)',
        )
      const story = await findStoryForPublishing(db, request.params.slug)
      if (!story) throw new ApiError(404, 'NOT_FOUND', 'Story not found')
      requireOwnerOrAdministrator(user, story.owner, 'upload versions of this story')
      let upload: Awaited<ReturnType<typeof receiveUpload>>
      const uploadStarted = performance.now()
      try {
        upload = await receiveUpload(body as Readable, {
          dir: settings.tmpDir,
          maxBytes: settings.maxPackageBytes,
        })
      } catch (err) {
        app.metrics?.observeUpload((performance.now() - uploadStarted) / 1000, 0, 'refused')
        // The rest of the body is not read: the connection closes after the answer.
        reply.header('connection', 'close')
        throw err
      }
      app.metrics?.observeUpload((performance.now() - uploadStarted) / 1000, upload.size, 'ok')
      let published: Awaited<ReturnType<typeof publishPackage>>
      // The client gone before its answer (the connection closed while the package waited or was checked): the
      // upload is not committed, so its retry is not refused as VERSION_EXISTS for a version nobody was told about.
      const client = watchClient(reply)
      // A story's upload may link another instruction: the former one may stop being public (CDN purge hook).
      const purge = story.type === 'story' ? await app.filePurge.before([story.id]) : undefined
      try {
        published = await publishPackage(
          { db, storage, pool: timedPool, quotaBytes: settings.quotaBytes },
          story,
          upload,
          user.sub,
          { kind: 'upload' },
          client.signal,
        )
      } catch (err) {
        if (err instanceof PackageInvalidError) {
          await upload.discard()
          return sendInvalid(reply, err)
        }
        if (err instanceof UploadAbortedError) {
          await upload.discard()
          return dropAnswer(request, reply, story.slug)
        }
        throw err
      } finally {
        client.stop()
        // Before the answer leaves: a client that has its answer finds nothing left behind.
        await upload.discard()
      }
      await app.filePurge.after(purge, 'instruction-unlinked', story.slug)
      return reply.code(201).header('location', `/api/stories/${story.slug}/versions`).send(published)
    },
  )

  app.get(
    '/api/stories/:slug/versions',
    {
      onRequest: authenticated(app),
      schema: {
        tags: ['publishing'],
        summary: 'List the versions of a story',
        description:
          'Owner, moderator or administrator. Newest first, with size, hash, signature status, warnings, upload time and source.',
        security: [{ bearerAuth: [] }],
        params: SlugParamsSchema,
        response: { 200: StoryVersionListSchema, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request) => {
      const user = userOf(request)
      const story = await findStoryForPublishing(db, request.params.slug)
      if (!story) throw new ApiError(404, 'NOT_FOUND', 'Story not found')
      if (story.owner !== user.sub && !hasRole(user, 'moderator', 'administrator'))
        throw new ApiError(
          403,
          'FORBIDDEN',
          'Only the owner, a moderator or an administrator may list versions',
        )
      const rows = await listVersions(db, story.id)
      return { items: rows.map((r) => versionView(r, storage, publicUrl, story.publishedVersionId)) }
    },
  )

  app.delete(
    '/api/stories/:slug/versions/:version',
    {
      onRequest: authenticated(app),
      schema: {
        tags: ['publishing'],
        summary: 'Delete one version of a story',
        description:
          "Owner or administrator. When it is the story's current (published) version, the newest remaining version " +
          'takes its place; when it was the last version, the story is unpublished. Its package and cover files are ' +
          'removed after the deletion commits, unless another version uses them. The package id the first version ' +
          'fixed stays. 404 NOT_FOUND for an unknown story or version.',
        security: [{ bearerAuth: [] }],
        params: StoryVersionParamsSchema,
        response: {
          204: z.null().meta({ description: 'deleted' }),
          ...errorResponses(400, 401, 403, 404, 503),
        },
      },
    },
    async (request, reply) => {
      const user = userOf(request)
      const story = await findStoryForPublishing(db, request.params.slug)
      if (!story) throw new ApiError(404, 'NOT_FOUND', 'Story not found')
      requireOwnerOrAdministrator(user, story.owner, 'delete versions of this story')
      // Its files, if public, stop being so (and the story's, when it is unpublished): to the CDN purge hook.
      const purge = await app.filePurge.before([story.id])
      const deleted = await deleteVersion(db, story.id, request.params.version)
      if (!deleted)
        throw new ApiError(404, 'NOT_FOUND', `"${story.slug}" has no version ${request.params.version}`)
      await app.filePurge.after(purge, 'version-deleted', story.slug)
      // After the commit, under the per-key lock: a file another version (or a concurrent upload) names stays.
      const { failed } = await deleteFilesLocked(db, storage, deleted.keys)
      for (const f of failed)
        request.log.warn(
          { key: f.key },
          'storage: a file of a deleted version could not be removed (swept later)',
        )
      return reply.code(204).send(null)
    },
  )

  app.get(
    '/catalog/stories/:slug/versions/:version/manifest',
    {
      ...throttle('catalog-read'),
      schema: {
        tags: ['catalog'],
        summary: 'The canonical manifest of a published story version',
        description:
          'Public for every version of a published story (and of the instruction a published story links): the canonical ' +
          'manifest with its per-file `integrity` map, what a delta update compares. Cached as immutable.',
        params: StoryVersionParamsSchema,
        response: { 200: CanonicalManifestSchema, ...errorResponses(400, 404, 429) },
      },
    },
    async (request, reply) => {
      const story = await findStoryForPublishing(db, request.params.slug)
      const visible = story && (await isPubliclyVisible(db, story))
      const row = visible ? await findVersion(db, story.id, request.params.version) : undefined
      if (!row) throw new ApiError(404, 'NOT_FOUND', 'No such published story version')
      reply.header('cache-control', 'public, max-age=31536000, immutable')
      reply.header('etag', `"${row.sha256}"`)
      return row.manifest as Record<string, unknown>
    },
  )

  app.get(
    '/api/auth/signing-keys',
    {
      onRequest: authenticated(app),
      schema: {
        tags: ['publishing'],
        summary: 'Your registered signing keys',
        security: [{ bearerAuth: [] }],
        response: { 200: SigningKeysSchema, ...errorResponses(401) },
      },
    },
    async (request) => ({ items: (await signingKeysOf(db, userOf(request).sub)).map(keyView) }),
  )

  app.put(
    '/api/auth/signing-keys',
    {
      onRequest: withRole(app, 'creator', 'administrator'),
      schema: {
        tags: ['publishing'],
        summary: 'Register your signing keys',
        description:
          'Creator or administrator. Replaces the list (at most 10 signify Ed25519 public keys, 400 SIGNING_KEY_INVALID for ' +
          'anything else). A package you upload signed by one of them is `verified`; the catalog says so. Versions uploaded ' +
          'before keep the status they were given.',
        security: [{ bearerAuth: [] }],
        body: SigningKeysBodySchema,
        response: { 200: SigningKeysSchema, ...errorResponses(400, 401, 403) },
      },
    },
    async (request) => {
      const sub = userOf(request).sub
      const keys = new Map<string, string>()
      for (const [i, text] of request.body.keys.entries()) {
        try {
          keys.set(await keyFingerprint(text), text)
        } catch {
          throw new ApiError(400, 'SIGNING_KEY_INVALID', `keys[${i}] is not a signify Ed25519 public key`)
        }
      }
      await replaceSigningKeys(
        db,
        sub,
        [...keys].map(([fingerprint, publicKey]) => ({ fingerprint, publicKey })),
      )
      return { items: (await signingKeysOf(db, sub)).map(keyView) }
    },
  )
}

const keyView = (k: { fingerprint: string; publicKey: string; createdAt: Date | string }) => ({
  fingerprint: k.fingerprint,
  publicKey: k.publicKey,
  createdAt: new Date(k.createdAt).toISOString(),
})

/** A published story, or an instruction that a published story of the same owner links (db/file-access.ts). */
async function isPubliclyVisible(db: Db, story: { id: string; type: string; published: boolean }) {
  if (story.type === 'story') return story.published
  return isLinkedFromPublished(db, [story.id])
}
