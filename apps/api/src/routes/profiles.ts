/**
 * PUT/GET /api/auth/profiles/:role: the caller's own profile in a role they hold.
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { z } from 'zod'
import type { Db } from '../db/index'
import { getProfile, upsertProfile } from '../db/profiles'
import { ApiError, errorResponses } from '../errors'
import { authenticated, ROLES, recordAuthEvent, userOf } from './route-auth'
import { TimestampSchema } from './shared-schemas'

const RoleParamsSchema = z.strictObject({
  role: z.enum(ROLES, { message: `role must be one of ${ROLES.join(', ')}` }),
})

/**
 * An avatar's parsed, normalised form (`URL.href`): an absolute https URL with a host and no credentials, at most
 * 2048 characters once normalised; undefined for anything else. The API stores this, never the text as typed
 * (`https://a.example/"><script>` is kept as `https://a.example/%22%3E%3Cscript%3E`).
 */
export function avatarHref(s: string): string | undefined {
  let url: URL
  try {
    url = new URL(s)
  } catch {
    return undefined
  }
  if (url.protocol !== 'https:' || !url.hostname || url.username || url.password) return undefined
  return url.href.length <= 2048 ? url.href : undefined
}

/** An avatar as sent: what {@link avatarHref} accepts (a refinement, so the documented input and output agree). */
export const AvatarSchema = z
  .string()
  .max(2048)
  .refine((s) => avatarHref(s) !== undefined, 'avatar must be an https:// URL')
  .meta({ description: 'https:// URL of the avatar image, stored normalised' })

/** Body of PUT /api/auth/profiles/:role. */
export const ProfileBodySchema = z
  .strictObject({
    displayName: z.string().trim().min(1).max(100).nullable().optional(),
    avatar: AvatarSchema.nullable().optional(),
    bio: z.string().max(1000).nullable().optional(),
  })
  .meta({
    id: 'ProfileUpdate',
    examples: [{ displayName: 'Ada', avatar: 'https://cdn.example.org/ada.png', bio: 'Writes mysteries.' }],
  })

const ProfileSchema = z
  .object({
    role: z.string(),
    displayName: z.string().nullable(),
    avatar: z.string().nullable(),
    bio: z.string().nullable(),
    updatedAt: TimestampSchema,
  })
  .meta({
    id: 'Profile',
    examples: [
      {
        role: 'creator',
        displayName: 'Ada',
        avatar: 'https://cdn.example.org/ada.png',
        bio: 'Writes mysteries.',
        updatedAt: '2026-11-23T10:00:00.000Z',
      },
    ],
  })

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
