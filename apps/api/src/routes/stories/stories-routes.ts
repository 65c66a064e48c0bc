/**
 * /api/stories: story records CRUD. Creators and administrators create; the creator's `sub` is the
 * owner; update and delete need ownership or `administrator`. Instruction records (package type
 * `instruction`) are never listed; a story may link one through `instruction`.
 */

import {
  CreateStorySchema,
  PageQuerySchema,
  SlugParamsSchema,
  StoryPageSchema,
  StorySchema,
  UpdateStorySchema,
} from '@spkg/api-contract'
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { z } from 'zod'
import type { Db } from '../../db/connection'
import { deleteStory, findStoryRef, getStory, insertStory, listStories, updateStory } from '../../db/stories'
import { ApiError, errorResponses, sqlState } from '../../errors'
import { authenticated, requireOwnerOrAdministrator, userOf, withRole } from '../../plugins/route-auth'
import { keysBefore, removeAfter } from '../../publishing/delete-story-files'
import type { AuthUser } from '../../roles'

/**
 * The instruction record a story of `owner` may link: one of the same owner only (a link to
 * another creator's instruction would make it public with the story). Another creator's record is answered as not
 * found: it says nothing about their unlisted records.
 */
async function resolveInstruction(db: Db, slug: string | null | undefined, owner: string) {
  if (slug === undefined) return undefined
  if (slug === null) return null
  const ref = await findStoryRef(db, slug)
  if (ref?.type !== 'instruction' || ref.owner !== owner) {
    throw new ApiError(
      400,
      'INSTRUCTION_NOT_FOUND',
      `No instruction package with slug "${slug}" owned by the story's owner`,
    )
  }
  return ref.id
}

async function loadOwned(db: Db, slug: string, user: AuthUser) {
  const ref = await findStoryRef(db, slug)
  if (!ref) throw new ApiError(404, 'NOT_FOUND', 'Story not found')
  requireOwnerOrAdministrator(user, ref.owner, 'change this story')
  return ref
}

/** The /api/stories routes. */
export const storiesRoutes: FastifyPluginAsyncZod<{ db: Db }> = async (app, { db }) => {
  app.post(
    '/api/stories',
    {
      onRequest: withRole(app, 'creator', 'administrator'),
      schema: {
        tags: ['stories'],
        summary: 'Create a story record',
        description:
          'Creator or administrator. The caller becomes the owner. A duplicate slug is 409 STORY_EXISTS; `content` is at most 500,000 characters.',
        security: [{ bearerAuth: [] }],
        body: CreateStorySchema,
        response: { 201: StorySchema, ...errorResponses(400, 401, 403, 409, 413) },
      },
    },
    async (request, reply) => {
      const user = userOf(request)
      const b = request.body
      if (b.type === 'instruction' && b.instruction) {
        throw new ApiError(400, 'VALIDATION_FAILED', 'An instruction package cannot link an instruction')
      }
      const instructionId = (await resolveInstruction(db, b.instruction, user.sub)) ?? null
      try {
        await insertStory(db, {
          slug: b.slug,
          title: b.title,
          author: b.author,
          genre: b.genre,
          content: b.content,
          type: b.type,
          ownerSub: user.sub,
          instructionId,
        })
      } catch (err) {
        if (sqlState(err) === '23505')
          throw new ApiError(409, 'STORY_EXISTS', `Story "${b.slug}" exists already`)
        throw err
      }
      const story = await getStory(db, b.slug)
      if (!story) throw new ApiError(404, 'NOT_FOUND', 'Story not found')
      return reply.code(201).header('location', `/api/stories/${b.slug}`).send(story)
    },
  )

  app.get(
    '/api/stories',
    {
      onRequest: authenticated(app),
      schema: {
        tags: ['stories'],
        summary: 'List story records',
        description:
          'Newest first, without content. `page` is clamped to >= 1 and `limit` to 1-100. Instruction records are never listed.',
        security: [{ bearerAuth: [] }],
        querystring: PageQuerySchema,
        response: { 200: StoryPageSchema, ...errorResponses(401) },
      },
    },
    async (request) => listStories(db, request.query),
  )

  app.get(
    '/api/stories/:slug',
    {
      onRequest: authenticated(app),
      schema: {
        tags: ['stories'],
        summary: 'Read a story record',
        security: [{ bearerAuth: [] }],
        params: SlugParamsSchema,
        response: { 200: StorySchema, ...errorResponses(400, 401, 404) },
      },
    },
    async (request) => {
      const story = await getStory(db, request.params.slug)
      if (!story) throw new ApiError(404, 'NOT_FOUND', 'Story not found')
      return story
    },
  )

  app.put(
    '/api/stories/:slug',
    {
      onRequest: authenticated(app),
      schema: {
        tags: ['stories'],
        summary: 'Update a story record',
        description: 'Owner or administrator. Only the given fields change; `slug` and `type` are fixed.',
        security: [{ bearerAuth: [] }],
        params: SlugParamsSchema,
        body: UpdateStorySchema,
        response: { 200: StorySchema, ...errorResponses(400, 401, 403, 404, 413) },
      },
    },
    async (request) => {
      const { slug } = request.params
      const ref = await loadOwned(db, slug, userOf(request))
      const { instruction, ...fields } = request.body
      if (ref.type === 'instruction' && instruction) {
        throw new ApiError(400, 'VALIDATION_FAILED', 'An instruction package cannot link an instruction')
      }
      const instructionId = await resolveInstruction(db, instruction, ref.owner)
      // A published story's former instruction stops being public: its files go to the CDN purge hook.
      const purge = instructionId !== undefined ? await app.filePurge.before([ref.id]) : undefined
      await updateStory(db, slug, { ...fields, ...(instructionId !== undefined && { instructionId }) })
      const story = await getStory(db, slug)
      if (!story) throw new ApiError(404, 'NOT_FOUND', 'Story not found')
      await app.filePurge.after(purge, 'instruction-unlinked', slug)
      return story
    },
  )

  app.delete(
    '/api/stories/:slug',
    {
      onRequest: authenticated(app),
      schema: {
        tags: ['stories'],
        summary: 'Delete a story record',
        description:
          'Owner or administrator. Stories linking a deleted instruction are unlinked. The package and cover files of its ' +
          'versions are removed after the deletion commits, unless another version uses them.',
        security: [{ bearerAuth: [] }],
        params: SlugParamsSchema,
        response: { 204: z.null().meta({ description: 'deleted' }), ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request, reply) => {
      const { slug } = request.params
      const ref = await loadOwned(db, slug, userOf(request))
      // The files of its versions go once the row is gone and nothing else names them.
      const keys = await keysBefore(db, ref.id)
      const purge = await app.filePurge.before([ref.id])
      if (!(await deleteStory(db, slug))) throw new ApiError(404, 'NOT_FOUND', 'Story not found')
      await app.filePurge.after(purge, 'story-deleted', slug)
      await removeAfter(db, app.publishing.storage, keys, request.log)
      return reply.code(204).send(null)
    },
  )
}
