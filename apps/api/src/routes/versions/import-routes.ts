/**
 * `POST /api/stories/import` `{url, slug?}` (creator or administrator; its own tight rate limit): imports a
 * repository release through `@spkg/repo-import` (its zipball, within the configured hosts and budgets, unwrapped
 * to the repository root), then exactly the upload's path: validation in the pool, the same version record, with
 * the repository URL, ref and commit recorded on the version. The story record is the one named by `slug` (default:
 * the repository's name); a missing one is created for the caller, and removed again when the import fails.
 * Ownership of an existing record is checked before any request to the repository host, and `REPO_TOKEN` is used
 * only once the host has said the repository is public (src/publishing/repo-visibility.ts).
 */
import { createHash, randomUUID } from 'node:crypto'
import { mkdir, rm, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { PublishedVersionSchema, SlugSchema } from '@spkg/api-contract'
import { DEFAULT_REPO_API_HOST, DEFAULT_REPO_HOST, parseRepoUrl } from '@spkg/repo-import'
import { createGuardedFetch, fetchRepositoryArchive, type NodeRepoOptions } from '@spkg/repo-import/node'
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { z } from 'zod'
import type { Config, PublishingSettings } from '../../config'
import type { Db } from '../../db/connection'
import { deleteStory, insertStory } from '../../db/stories'
import { findStoryForPublishing } from '../../db/versions'
import { ApiError, errorResponses, PackageRefusedSchema, sqlState } from '../../errors'
import { requireOwnerOrAdministrator, userOf, withRole } from '../../plugins/route-auth'
import { dropAnswer, watchClient } from '../../publishing/client-gone'
import {
  PackageInvalidError,
  type PublicDiagnostic,
  publishPackage,
  toPublic,
  UploadAbortedError,
} from '../../publishing/publish-package'
import { checkPublicRepository } from '../../publishing/repo-visibility'
import type { ValidationPool } from '../../publishing/validation-pool'
import type { FileStorage } from '../../storage/create-storage'

/** Options of {@link importRoutes}. */
export interface ImportRoutesOptions {
  db: Db
  storage: FileStorage
  pool: ValidationPool
  settings: PublishingSettings
  repo: Config['repo']
  /** Tests: a CA for the fake host, loopback allowed, or a fetch of their own. */
  node?: NodeRepoOptions & { fetch?: typeof fetch }
}

const ImportBodySchema = z
  .strictObject({
    url: z
      .string()
      .min(1)
      .max(2048)
      .meta({ examples: ['https://github.com/owner/story/tree/v1.2'] }),
    slug: SlugSchema.optional(),
  })
  .meta({
    id: 'ImportStory',
    examples: [{ url: 'https://github.com/owner/story/tree/v1.2', slug: 'the-inn' }],
  })

const slugOf = (name: string) =>
  name
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 100)

/** The import route. */
export const importRoutes: FastifyPluginAsyncZod<ImportRoutesOptions> = async (app, opts) => {
  const { db, storage, pool, settings } = opts
  if (opts.repo.off) return // REPO_IMPORT=false: no repository loading at all (404)
  app.post(
    '/api/stories/import',
    {
      onRequest: withRole(app, 'creator', 'administrator'),
      config: {
        throttle: [
          { name: 'short', max: 1, ttl: 1000 },
          { name: 'imports', max: 10, ttl: 3_600_000 },
        ],
      },
      schema: {
        tags: ['publishing'],
        summary: 'Import a repository release as a version',
        description:
          'Creator or administrator; at most 1 a second and 10 an hour per user. Downloads the repository (REPO_HOST, ' +
          'REPO_API_HOST, REPO_DOWNLOAD_HOSTS, REPO_TOKEN) through @spkg/repo-import and publishes it exactly as an upload ' +
          "(same validation, answers and version record), with the repository, ref and commit on the version. The slug's " +
          'ownership is checked before any download (403). With REPO_TOKEN set, only public repositories are imported ' +
          '(422 with `api/repository-not-public` otherwise). A refused ' +
          'repository is 422 PACKAGE_INVALID with its `repo/*` diagnostic. `slug` defaults to the repository name; a missing ' +
          'record is created for the caller (create an instruction record first to import an instruction package).',
        security: [{ bearerAuth: [] }],
        body: ImportBodySchema,
        response: {
          201: PublishedVersionSchema,
          422: PackageRefusedSchema,
          ...errorResponses(400, 401, 403, 409, 413, 429, 503),
        },
      },
    },
    async (request, reply) => {
      const user = userOf(request)
      const r = opts.repo
      const refused = (diagnostics: PublicDiagnostic[]) =>
        reply.code(422).send({
          statusCode: 422 as const,
          code: 'PACKAGE_INVALID' as const,
          message: 'The repository cannot be imported: see diagnostics',
          diagnostics,
        })
      // Everything that needs no request to the host comes first: the address, the slug and its ownership.
      const loc = parseRepoUrl(request.body.url, { repoHost: r.host ?? DEFAULT_REPO_HOST })
      if (!loc.ok) return refused([toPublic(loc.diagnostic)])
      const slug = request.body.slug ?? slugOf(loc.repo)
      if (!SlugSchema.safeParse(slug).success)
        throw new ApiError(
          400,
          'VALIDATION_FAILED',
          'body.slug: give a slug (the repository name is not one)',
        )
      let story = await findStoryForPublishing(db, slug)
      let created = false
      if (story) requireOwnerOrAdministrator(user, story.owner, 'add versions to this story')
      // Within REPO_TIMEOUT_MS, which config keeps inside the connection timeout with the validation after it; and
      // no further than the client's staying (a client gone is not committed for, as with an upload).
      const client = watchClient(reply)
      const deadline = Date.now() + r.timeoutMs
      const signal = AbortSignal.any([AbortSignal.timeout(r.timeoutMs), client.signal]) // the metadata request
      const doFetch = opts.node?.fetch ?? createGuardedFetch(opts.node)
      // REPO_TOKEN goes with public repositories only (src/publishing/repo-visibility.ts).
      if (r.token) {
        const notPublic = await checkPublicRepository(loc, {
          apiHost: r.apiHost ?? DEFAULT_REPO_API_HOST,
          repoHost: r.host ?? DEFAULT_REPO_HOST,
          token: r.token,
          fetch: doFetch,
          signal,
        })
        if (notPublic) return refused([notPublic])
      }
      const got = await fetchRepositoryArchive(request.body.url, {
        ...(r.host && { repoHost: r.host }),
        ...(r.apiHost && { repoApiHost: r.apiHost }),
        ...(r.downloadHosts && { downloadHosts: r.downloadHosts }),
        ...(r.token && { token: r.token }),
        ...opts.node,
        fetch: doFetch,
        signal: client.signal,
        // REPO_TIMEOUT_MS counts from before the metadata request (a `repo/timeout` diagnostic past it).
        timeoutMs: r.timeoutMs,
        deadline,
      })
      if (!got.ok) return refused(got.diagnostics.map(toPublic))
      if (!story) {
        try {
          await insertStory(db, {
            slug,
            title: got.source.repo.slice(0, 200),
            author: got.source.owner.slice(0, 100),
            genre: 'other',
            content: '',
            type: 'story',
            ownerSub: user.sub,
            instructionId: null,
          })
        } catch (err) {
          if (sqlState(err) === '23505')
            throw new ApiError(409, 'STORY_EXISTS', `Story "${slug}" exists already`)
          throw err
        }
        created = true
        story = await findStoryForPublishing(db, slug)
        if (!story) throw new ApiError(404, 'NOT_FOUND', 'Story not found')
      }
      await mkdir(settings.tmpDir, { recursive: true, mode: 0o700 })
      const path = join(settings.tmpDir, `${randomUUID()}.spkg.part`)
      const discard = () => rm(path, { force: true })
      let ok = false
      // A story's package may link another instruction: the former one may stop being public (CDN purge hook).
      const purge = story.type === 'story' ? await app.filePurge.before([story.id]) : undefined
      try {
        await writeFile(path, got.bytes, { flag: 'wx', mode: 0o600 })
        const published = await publishPackage(
          { db, storage, pool, quotaBytes: settings.quotaBytes },
          story,
          {
            path,
            sha256: createHash('sha256').update(got.bytes).digest('hex'),
            size: got.bytes.length,
            discard,
          },
          user.sub,
          { kind: 'repository', url: request.body.url, ref: got.source.ref, commit: got.source.commit },
          client.signal,
        )
        ok = true
        await discard()
        await app.filePurge.after(purge, 'instruction-unlinked', slug)
        return reply.code(201).header('location', `/api/stories/${slug}/versions`).send(published)
      } catch (err) {
        if (err instanceof UploadAbortedError) return dropAnswer(request, reply, slug)
        if (err instanceof PackageInvalidError) {
          await discard()
          if (created) await deleteStory(db, slug)
          return reply.code(422).send({
            statusCode: 422 as const,
            code: 'PACKAGE_INVALID' as const,
            message: err.message,
            ...(err.omitted ? { omitted: err.omitted } : {}),
            diagnostics: err.diagnostics,
          })
        }
        throw err
      } finally {
        client.stop()
        await discard()
        if (!ok && created) await deleteStory(db, slug).catch(() => {})
      }
    },
  )
}
