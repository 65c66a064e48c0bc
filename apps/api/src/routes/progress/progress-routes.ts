/**
 * Reading state between sessions: `/api/progress/:storyId` for the caller, in the protocol of the
 * `@spkg/state` http driver. `:storyId` is the story `id` of the manifest, which the state carries in its `id`. GET answers the saved state with its revision in `ETag`; PUT needs
 * `If-None-Match: *` (first save) or `If-Match: "<revision>"` and answers 412 with the current
 * `ETag` when the revision is stale, so two devices cannot silently overwrite each other.
 */
import {
  ConditionalHeadersSchema,
  ProgressListSchema,
  ProgressSavedSchema,
  ProgressStateSchema,
  READING_STATE_MAX_BYTES,
  READING_STATE_MAX_MEMBERS,
  READING_STATE_MAX_VALUES,
  StoryIdParamsSchema,
} from '@spkg/api-contract'
import { isPlainObject, parseReadingState, type ReadingState } from '@spkg/manifest'
import { ReadingStateSchema } from '@spkg/manifest/schemas'
import type { FastifyReply, FastifySchemaCompiler } from 'fastify'
import { type FastifyPluginAsyncZod, validatorCompiler } from 'fastify-type-provider-zod'
import { z } from 'zod'
import type { Db } from '../../db/connection'
import {
  createProgress,
  deleteProgress,
  getProgressText,
  getRevision,
  listProgress,
  PROGRESS_QUOTA,
  PROGRESS_QUOTA_SQLSTATES,
  stateText,
  updateProgress,
} from '../../db/progress'
import { ApiError, errorResponses, formatBytes, sqlState } from '../../errors'
import { bodyTextOf } from '../../input'
import { authenticated, userOf } from '../../plugins/route-auth'

/** The reading-state bounds, defined with the schemas in @spkg/api-contract. */
export { READING_STATE_MAX_BYTES, READING_STATE_MAX_MEMBERS, READING_STATE_MAX_VALUES }

const invalid = (where: string, message: string) =>
  new ApiError(400, 'VALIDATION_FAILED', `${where}: ${message}`)
const pointer = (path: PropertyKey[]) => path.map((p) => `.${String(p)}`).join('')

/**
 * Validates a reading-state body once, in time linear in its size and without zod's per-value cost (zod over
 * 350,000 values took 0.5-0.8 s; an invalid body more): zod checks the fixed fields only, with the four
 * collections emptied; the collections are checked here by hand in one pass; then `parseReadingState`, whose fast
 * path the checks above guarantee (it would otherwise fall back to its full schema walk), adds its own rules.
 * Depth was bounded before parsing (src/input.ts). Returns the state as saved, or a 400 naming the field.
 */
export function checkReadingStateBody(body: unknown): { value: ReadingState } | { error: ApiError } {
  if (!isPlainObject(body)) return { error: invalid('body', 'must be a reading state object') }
  const { variables, choices, visitedChoiceGroups, visitedParts } = body
  const fixed = ReadingStateSchema.safeParse({
    ...body,
    variables: {},
    choices: {},
    visitedChoiceGroups: [],
    visitedParts: [],
  })
  if (!fixed.success) {
    const issue = fixed.error.issues[0]
    return { error: invalid(`body${pointer(issue?.path ?? [])}`, issue?.message ?? 'not a reading state') }
  }
  const problem = collectionProblem(variables, choices, visitedChoiceGroups, visitedParts)
  if (problem) return { error: invalid(`body${problem[0]}`, problem[1]) }
  const checked = parseReadingState(body)
  if (!checked.state) {
    const first = checked.diagnostics.find((d) => d.severity === 'error' || d.severity === 'fatal')
    return { error: invalid('body', first?.message ?? 'not a valid reading state') }
  }
  if (onlyKnownFields(body)) asSent.add(checked.state)
  return { value: checked.state }
}

/** States whose body, as sent, held only the fields validation keeps: their text can be stored as sent. */
const asSent = new WeakSet<object>()

const isStringArray = (v: unknown, nonEmptyItems: boolean): v is string[] =>
  Array.isArray(v) && v.every((s) => typeof s === 'string' && (!nonEmptyItems || s.length > 0))

/** The rules of the four collections of a reading state: `[where, problem]` of the first broken one. */
function collectionProblem(
  variables: unknown,
  choices: unknown,
  visitedChoiceGroups: unknown,
  visitedParts: unknown,
): [string, string] | undefined {
  if (!isPlainObject(variables)) return ['.variables', 'must be an object']
  // JSON values only; JSON text can hold no other kind except a number too large for a double (1e400).
  const stack: unknown[] = [variables]
  for (let v = stack.pop(); stack.length > 0 || v !== undefined; v = stack.pop()) {
    if (typeof v === 'number' && !Number.isFinite(v)) return ['.variables', 'numbers must be finite']
    if (Array.isArray(v)) for (const item of v) stack.push(item)
    else if (v !== null && typeof v === 'object')
      for (const k in v) stack.push((v as Record<string, unknown>)[k])
  }
  if (!isPlainObject(choices)) return ['.choices', 'must be an object']
  for (const k in choices) {
    const list = choices[k]
    if (!isStringArray(list, false) || list.length === 0)
      return [`.choices.${k}`, 'must be a non-empty array of strings']
  }
  if (!isStringArray(visitedChoiceGroups, false))
    return ['.visitedChoiceGroups', 'must be an array of strings']
  if (!isStringArray(visitedParts, true)) return ['.visitedParts', 'must be an array of non-empty strings']
  return undefined
}

const STATE_FIELDS = new Set(Object.keys(ReadingStateSchema.shape))
const RNG_FIELDS = new Set(['algorithm', 'seed', 'state'])

/** Whether a body (as sent) has only the fields validation keeps, at the top and in `rng`. */
function onlyKnownFields(body: Record<string, unknown>): boolean {
  for (const k in body) if (!STATE_FIELDS.has(k)) return false
  for (const k in body.rng as Record<string, unknown>) if (!RNG_FIELDS.has(k)) return false
  return true
}

/** The body validator of PUT: {@link checkReadingStateBody}; params and headers keep the zod compiler. */
const progressValidator: FastifySchemaCompiler<z.ZodType> = (route) =>
  route.httpPart === 'body' ? checkReadingStateBody : validatorCompiler(route)

const etag = (revision: number) => `"${revision}"`

function parseIfMatch(value: string): number | '*' {
  const v = value.trim()
  if (v === '*') return '*'
  const m = /^(?:W\/)?"?(\d{1,9})"?$/.exec(v)
  if (!m) throw new ApiError(400, 'VALIDATION_FAILED', 'If-Match must be "*" or a revision such as "3"')
  return Number(m[1])
}

async function preconditionFailed(db: Db, sub: string, storyId: string, reply: FastifyReply): Promise<never> {
  const revision = await getRevision(db, sub, storyId)
  if (revision !== undefined) reply.header('etag', etag(revision))
  throw new ApiError(412, 'PRECONDITION_FAILED', 'The saved reading state changed since it was read')
}

/** A write, with the quota trigger's refusal as 409 READING_STATE_QUOTA. */
async function withinQuota<T>(write: Promise<T>): Promise<T> {
  try {
    return await write
  } catch (err) {
    const state = sqlState(err)
    if (state === PROGRESS_QUOTA_SQLSTATES.states) {
      throw new ApiError(
        409,
        'READING_STATE_QUOTA',
        `At most ${PROGRESS_QUOTA.states} saved reading states per user: delete one first`,
      )
    }
    if (state === PROGRESS_QUOTA_SQLSTATES.bytes) {
      throw new ApiError(
        409,
        'READING_STATE_QUOTA',
        `At most ${formatBytes(PROGRESS_QUOTA.bytes)} of saved reading states per user: delete one first`,
      )
    }
    throw err
  }
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
          200: ProgressListSchema,
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
      const saved = await getProgressText(db, userOf(request).sub, request.params.storyId)
      if (!saved) throw new ApiError(404, 'NOT_FOUND', 'No saved reading state for this story')
      // The JSON text as stored, validated when saved: a string payload skips the response schema.
      return reply
        .header('etag', etag(saved.revision))
        .header('cache-control', 'no-store')
        .type('application/json; charset=utf-8')
        .send(saved.text as never)
    },
  )

  app.put(
    '/api/progress/:storyId',
    {
      onRequest: authenticated(app),
      bodyLimit: READING_STATE_MAX_BYTES,
      config: { maxBodyValues: READING_STATE_MAX_VALUES, maxBodyMembers: READING_STATE_MAX_MEMBERS },
      validatorCompiler: progressValidator as never,
      schema: {
        tags: ['progress'],
        summary: 'Save the reading state of a story',
        description:
          'Body: a reading state (the @spkg/manifest ReadingState schema). `If-None-Match: *` creates (412 if one exists); ' +
          '`If-Match: "<revision>"` replaces that revision (412 with the current ETag when stale); without either header a ' +
          "first save is accepted and an overwrite is 428. The key is the state's `id` (the manifest `id`): another is 400 " +
          'READING_STATE_OTHER_STORY. At most 700 KiB, 125,000 JSON values and 12,500 object keys (413); per user at ' +
          'most 200 saved states and 16 MiB in all (409 READING_STATE_QUOTA).',
        security: [{ bearerAuth: [] }],
        params: StoryIdParamsSchema,
        headers: ConditionalHeadersSchema,
        body: ProgressStateSchema,
        response: {
          200: ProgressSavedSchema,
          201: ProgressSavedSchema,
          ...errorResponses(400, 401, 409, 412, 413, 428),
        },
      },
    },
    async (request, reply) => {
      const sub = userOf(request).sub
      const { storyId } = request.params
      // The key is the state's story: a state filed under another story's key would be refused on resume
      // (`state/other-story`) by every reader of it. Stories not in the catalog (a package opened from a file) are
      // saved too: the key is not checked against the stories table (README, Reading-state keys).
      if (request.body.id !== storyId) {
        throw new ApiError(
          400,
          'READING_STATE_OTHER_STORY',
          `body.id: the reading state belongs to story ${JSON.stringify(request.body.id)}; save it at /api/progress/${encodeURIComponent(request.body.id)}, not under ${JSON.stringify(storyId)}`,
        )
      }
      // Validated once, by checkReadingStateBody (the route's validator). Stored as the client's own text when that
      // text holds nothing validation dropped (unknown fields), saving a JSON.stringify of up to 700 KiB.
      const raw = bodyTextOf(request)
      const state =
        raw !== undefined && asSent.has(request.body)
          ? { text: raw, bytes: Buffer.byteLength(raw) }
          : stateText(request.body)
      const ifMatch = request.headers['if-match']
      const ifNoneMatch = request.headers['if-none-match']
      let saved: Awaited<ReturnType<typeof createProgress>>
      let status: 200 | 201 = 200
      if (ifMatch !== undefined) {
        saved = await withinQuota(updateProgress(db, sub, storyId, state, parseIfMatch(ifMatch)))
        if (!saved) await preconditionFailed(db, sub, storyId, reply)
      } else {
        if (ifNoneMatch !== undefined && ifNoneMatch.trim() !== '*') {
          throw new ApiError(400, 'VALIDATION_FAILED', 'If-None-Match must be "*"')
        }
        saved = await withinQuota(createProgress(db, sub, storyId, state))
        if (!saved) {
          if (ifNoneMatch !== undefined) await preconditionFailed(db, sub, storyId, reply)
          const revision = await getRevision(db, sub, storyId)
          if (revision !== undefined) reply.header('etag', etag(revision))
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
