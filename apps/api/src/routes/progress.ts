/**
 * Reading state between sessions: `/api/progress/:storyId` for the caller, in the protocol of the
 * `@spkg/state` http driver. GET answers the saved state with its revision in `ETag`; PUT needs
 * `If-None-Match: *` (first save) or `If-Match: "<revision>"` and answers 412 with the current
 * `ETag` when the revision is stale, so two devices cannot silently overwrite each other.
 */
import { parseReadingState } from '@spkg/manifest'
import { ReadingStateSchema } from '@spkg/manifest/schemas'
import type { FastifyReply } from 'fastify'
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { z } from 'zod'
import type { Db } from '../db/index'
import { createProgress, deleteProgress, getProgress, listProgress, updateProgress } from '../db/progress'
import { ApiError, errorResponses } from '../errors'
import { authenticated, userOf } from './_auth'
import { TimestampSchema } from './_schemas'

const StoryIdParamsSchema = z.strictObject({
  storyId: z
    .string()
    .min(1)
    .max(200)
    .regex(/^[^\u0000-\u001f\u007f]+$/, 'storyId must not contain control characters')
    .refine((s) => s !== '.' && s !== '..', 'storyId must not be . or ..')
    .meta({
      description: 'the key of the saved state (the story id of the manifest)',
      examples: ['9b2f…-uuid'],
    }),
})

const ConditionalHeadersSchema = z.object({
  'if-match': z.string().max(100).optional().meta({ description: '"<revision>" read before; * matches any' }),
  'if-none-match': z.string().max(100).optional().meta({ description: '* for a first save' }),
})

const SavedSchema = z
  .object({ storyId: z.string(), revision: z.number().int(), updatedAt: TimestampSchema })
  .meta({
    id: 'ProgressSaved',
    examples: [{ storyId: 'lighthouse', revision: 2, updatedAt: '2026-11-23T10:00:00.000Z' }],
  })

/** The reading-state schema of @spkg/manifest, with an example for the documentation. */
const ProgressStateSchema = ReadingStateSchema.meta({
  id: 'ProgressState',
  description: 'A saved reading state (the @spkg/manifest ReadingState schema)',
  examples: [
    {
      format: 1,
      id: '6f1c2d9a-7b1e-4c55-9a51-3c2e8f0b9d10',
      savedAt: '2026-11-23T10:00:00.000Z',
      variables: { gold: 3, name: 'Mara' },
      choices: { 'inn-door': ['enter'] },
      visitedChoiceGroups: ['inn-door'],
      rng: { algorithm: 'mulberry32', seed: 42, state: 1_234_567 },
      currentPart: 'story/0002-forest.sty',
      visitedParts: ['story/0001-inn.sty'],
      renderedParagraph: 7,
    },
  ],
})

const etag = (revision: number) => `"${revision}"`

function parseIfMatch(value: string): number | '*' {
  const v = value.trim()
  if (v === '*') return '*'
  const m = /^(?:W\/)?"?(\d{1,9})"?$/.exec(v)
  if (!m) throw new ApiError(400, 'VALIDATION_FAILED', 'If-Match must be "*" or a revision such as "3"')
  return Number(m[1])
}

async function preconditionFailed(db: Db, sub: string, storyId: string, reply: FastifyReply): Promise<never> {
  const current = await getProgress(db, sub, storyId)
  if (current) reply.header('etag', etag(current.revision))
  throw new ApiError(412, 'PRECONDITION_FAILED', 'The saved reading state changed since it was read')
}

/** The reading-state routes. */
export const progressRoutes: FastifyPluginAsyncZod<{ db: Db }> = async (app, { db }) => {
  app.get(
    '/api/progress',
    {
      onRequest: authenticated(app),
      schema: {
        tags: ['progress'],
        summary: "The caller's saved reading states",
        security: [{ bearerAuth: [] }],
        response: {
          200: z
            .object({
              items: z.array(
                z.object({ key: z.string(), revision: z.number().int(), updatedAt: TimestampSchema }),
              ),
            })
            .meta({
              examples: [
                { items: [{ key: 'lighthouse', revision: 3, updatedAt: '2026-11-23T10:00:00.000Z' }] },
              ],
            }),
          ...errorResponses(401),
        },
      },
    },
    async (request) => ({ items: await listProgress(db, userOf(request).sub) }),
  )

  app.get(
    '/api/progress/:storyId',
    {
      onRequest: authenticated(app),
      schema: {
        tags: ['progress'],
        summary: "The caller's saved reading state of a story",
        description: 'The state as saved, with its revision in `ETag`.',
        security: [{ bearerAuth: [] }],
        params: StoryIdParamsSchema,
        response: { 200: ProgressStateSchema, ...errorResponses(400, 401, 404) },
      },
    },
    async (request, reply) => {
      const saved = await getProgress(db, userOf(request).sub, request.params.storyId)
      if (!saved) throw new ApiError(404, 'NOT_FOUND', 'No saved reading state for this story')
      reply.header('etag', etag(saved.revision)).header('cache-control', 'no-store')
      return saved.state as z.infer<typeof ProgressStateSchema>
    },
  )

  app.put(
    '/api/progress/:storyId',
    {
      onRequest: authenticated(app),
      schema: {
        tags: ['progress'],
        summary: 'Save the reading state of a story',
        description:
          'Body: a reading state (the @spkg/manifest ReadingState schema). `If-None-Match: *` creates (412 if one exists); ' +
          '`If-Match: "<revision>"` replaces that revision (412 with the current ETag when stale); without either header a ' +
          'first save is accepted and an overwrite is 428.',
        security: [{ bearerAuth: [] }],
        params: StoryIdParamsSchema,
        headers: ConditionalHeadersSchema,
        body: ProgressStateSchema,
        response: { 200: SavedSchema, 201: SavedSchema, ...errorResponses(400, 401, 412, 413, 428) },
      },
    },
    async (request, reply) => {
      const sub = userOf(request).sub
      const { storyId } = request.params
      // The zod schema checks the shape; parseReadingState adds the depth bound and the cross-field rules.
      const checked = parseReadingState(request.body)
      if (!checked.state) {
        const first = checked.diagnostics.find((d) => d.severity === 'error' || d.severity === 'fatal')
        throw new ApiError(400, 'VALIDATION_FAILED', `body: ${first?.message ?? 'not a valid reading state'}`)
      }
      const state = checked.state
      const ifMatch = request.headers['if-match']
      const ifNoneMatch = request.headers['if-none-match']
      let saved: Awaited<ReturnType<typeof createProgress>>
      let status: 200 | 201 = 200
      if (ifMatch !== undefined) {
        saved = await updateProgress(db, sub, storyId, state, parseIfMatch(ifMatch))
        if (!saved) await preconditionFailed(db, sub, storyId, reply)
      } else {
        if (ifNoneMatch !== undefined && ifNoneMatch.trim() !== '*') {
          throw new ApiError(400, 'VALIDATION_FAILED', 'If-None-Match must be "*"')
        }
        saved = await createProgress(db, sub, storyId, state)
        if (!saved) {
          if (ifNoneMatch !== undefined) await preconditionFailed(db, sub, storyId, reply)
          const current = await getProgress(db, sub, storyId)
          if (current) reply.header('etag', etag(current.revision))
          throw new ApiError(428, 'PRECONDITION_REQUIRED', 'Overwriting a saved reading state needs If-Match')
        }
        status = 201
      }
      if (!saved) throw new Error('unreachable: no saved state')
      return reply
        .code(status)
        .header('etag', etag(saved.revision))
        .send({ storyId, revision: saved.revision, updatedAt: saved.updatedAt })
    },
  )

  app.delete(
    '/api/progress/:storyId',
    {
      onRequest: authenticated(app),
      schema: {
        tags: ['progress'],
        summary: 'Forget the saved reading state of a story',
        description: 'With `If-Match`, only that revision is deleted (412 otherwise).',
        security: [{ bearerAuth: [] }],
        params: StoryIdParamsSchema,
        headers: ConditionalHeadersSchema,
        response: { 204: z.null(), ...errorResponses(400, 401, 404, 412) },
      },
    },
    async (request, reply) => {
      const sub = userOf(request).sub
      const { storyId } = request.params
      const ifMatch = request.headers['if-match']
      const rev = ifMatch === undefined ? undefined : parseIfMatch(ifMatch)
      const deleted = await deleteProgress(db, sub, storyId, rev === '*' ? undefined : rev)
      if (!deleted) {
        if (rev !== undefined) await preconditionFailed(db, sub, storyId, reply)
        throw new ApiError(404, 'NOT_FOUND', 'No saved reading state for this story')
      }
      return reply.code(204).send(null)
    },
  )
}
