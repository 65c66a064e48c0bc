/**
 * `/api/auth/sessions` and `/api/auth/events`: the caller's sessions and the auth-event log.
 */
import { z } from 'zod'

const clamped = (lo: number, hi: number, fallback: number) =>
  z.coerce
    .number()
    .int()
    .catch(fallback)
    .transform((n) => Math.min(hi, Math.max(lo, n)))

/** A session the platform has seen. */
export const SessionSchema = z.object({
  id: z.uuid(),
  createdAt: z.string(),
  lastSeenAt: z.string(),
  revokedAt: z.string().nullable(),
  current: z.boolean(),
})

/** Answer of GET /api/auth/sessions. */
export const SessionListSchema = z.object({ sessions: z.array(SessionSchema) })

/** `{ id }` path parameters of DELETE /api/auth/sessions/:id. */
export const SessionIdParamsSchema = z.object({ id: z.uuid({ message: 'Session id must be a UUID' }) })

/** One auth event (no personal data). */
export const AuthEventSchema = z.object({
  id: z.number().int(),
  kind: z.string(),
  sessionId: z.string().nullable(),
  createdAt: z.string(),
  detail: z.record(z.string(), z.unknown()),
})

/** Query of GET /api/auth/events. */
export const AuthEventQuerySchema = z.object({
  limit: clamped(1, 200, 50),
  offset: clamped(0, 1_000_000, 0),
  subject: z
    .string()
    .min(1)
    .max(255)
    .optional()
    .describe("A user's `sub`: that user's events (administrators; anyone else only their own)"),
})

/** Answer of GET /api/auth/events. */
export const AuthEventPageSchema = z.object({
  events: z.array(AuthEventSchema),
  total: z.number().int(),
  limit: z.number().int(),
  offset: z.number().int(),
})
