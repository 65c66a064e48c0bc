/**
 * PUT/GET /api/auth/profiles/:role: the caller's own profile in a role they hold.
 */
import { avatarHref, ProfileBodySchema, ProfileSchema, RoleParamsSchema } from '@spkg/api-contract'
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import type { Db } from '../../db/connection'
import { getProfile, upsertProfile } from '../../db/profiles'
import { ApiError, errorResponses } from '../../errors'
import { authenticated, recordAuthEvent, userOf } from '../../plugins/route-auth'

/** The profile routes. */
export const profileRoutes: FastifyPluginAsyncZod<{ db: Db }> = async (app, { db }) => {
  app.put(
    '/api/auth/profiles/:role',
    {
      onRequest: authenticated(app),
      schema: {
        tags: ['profiles'],
        summary: "Create or update the caller's profile in one role",
        description:
          "Only the caller's own profile, in a role the token holds (else 403). Absent fields keep their value.",
        security: [{ bearerAuth: [] }],
        params: RoleParamsSchema,
        body: ProfileBodySchema,
        response: { 200: ProfileSchema, ...errorResponses(400, 401, 403) },
      },
    },
    async (request) => {
      const user = userOf(request)
      const { role } = request.params
      if (!user.roles.includes(role))
        throw new ApiError(403, 'FORBIDDEN', `You do not hold the role "${role}"`)
      const { avatar, ...fields } = request.body
      const { profile, recordEvent } = await upsertProfile(db, user.sub, role, {
        ...fields,
        ...(avatar !== undefined && { avatar: avatar === null ? null : (avatarHref(avatar) ?? null) }),
      })
      // At most one event per profile an hour (PROFILE_EVENT_INTERVAL): auth_events stays bounded per user.
      if (recordEvent) recordAuthEvent(app, 'profile_changed', user.sid, { role })
      return profile
    },
  )

  app.get(
    '/api/auth/profiles/:role',
    {
      onRequest: authenticated(app),
      schema: {
        tags: ['profiles'],
        summary: "Read the caller's profile in one role",
        security: [{ bearerAuth: [] }],
        params: RoleParamsSchema,
        response: { 200: ProfileSchema, ...errorResponses(400, 401, 404) },
      },
    },
    async (request) => {
      const profile = await getProfile(db, userOf(request).sub, request.params.role)
      if (!profile) throw new ApiError(404, 'NOT_FOUND', 'Profile not found')
      return profile
    },
  )
}
