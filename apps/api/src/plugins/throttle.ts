/**
 * Throttle tiers routes declare with `config: { throttle }` (SPEC Limits: API rate limits). The
 * rate-limit plugin (src/plugins/rate-limit.ts, which declares the `config.throttle` type) reads it: a tier name adds that tier to the global one,
 * `false` exempts the route (health), absent means the global tier only.
 */
import type { FastifyContextConfig } from 'fastify'

/** Per-route tiers of the SPEC's rate-limit table. */
export const THROTTLE_TIERS = ['reports', 'catalog-read', 'csp-report', 'catalog-write'] as const

/** One of {@link THROTTLE_TIERS}. */
export type ThrottleTier = (typeof THROTTLE_TIERS)[number]

/**
 * Route options declaring the tier: `app.get(url, { ...throttle('catalog-read'), schema }, h)`.
 * (The `config.throttle` type itself is declared by the rate-limit plugin.)
 */
export function throttle(tier: ThrottleTier | false): { config: FastifyContextConfig } {
  return { config: { throttle: tier } as FastifyContextConfig }
}
