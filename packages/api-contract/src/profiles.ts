/**
 * /api/auth/profiles/:role: the caller's own profile in a role they hold.
 */
import { z } from 'zod'
import { TimestampSchema } from './common'

/** Roles the platform knows (SPEC Authentication 6). */
export const ROLES = ['reader', 'creator', 'moderator', 'administrator'] as const

/** One of {@link ROLES}. */
export type Role = (typeof ROLES)[number]

/** `{ role }` path parameters. */
export const RoleParamsSchema = z.strictObject({
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

/** A profile as the API answers it. */
export const ProfileSchema = z
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
