/**
 * The role model: who the caller is (what the auth plugin sets on `request.user`) and the one role check. A leaf
 * file, so that the auth plugin, the routes' helpers and the database's file-access rule all decide with the same
 * code (SPEC Authentication 6).
 */
import type { Role } from '@spkg/api-contract'

/** Roles the platform knows, defined in @spkg/api-contract. */
export type { Role }

/** The authenticated caller. */
export interface AuthUser {
  sub: string
  /** Roles read from the configured claim (`OIDC_ROLES_CLAIM`); empty when absent. */
  roles: string[]
  /** Id (UUID) of the tracked session this token belongs to (what `DELETE /api/auth/sessions/:id` takes). */
  sid?: string
}

/**
 * Whether the caller holds one of `roles`. A caller whose roles are not an array (a token's claim of another
 * shape) holds none.
 *
 * @example
 * hasRole({ sub: 'u', roles: ['moderator'] }, 'moderator', 'administrator') // true
 */
export function hasRole(user: Pick<AuthUser, 'roles'>, ...roles: readonly Role[]): boolean {
  return Array.isArray(user.roles) && roles.some((r) => user.roles.includes(r))
}
