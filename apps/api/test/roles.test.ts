import { describe, expect, it } from 'vitest'
import { requireOwnerOrAdministrator } from '../src/plugins/route-auth.ts'
import { type AuthUser, hasRole } from '../src/roles.ts'

const user = (sub: string, roles: unknown): AuthUser => ({ sub, roles: roles as string[] })

describe('hasRole', () => {
  it('is true when the caller holds one of the roles, false otherwise', () => {
    expect(hasRole(user('u', ['moderator']), 'moderator', 'administrator')).toBe(true)
    expect(hasRole(user('u', ['administrator']), 'moderator', 'administrator')).toBe(true)
    expect(hasRole(user('u', ['creator', 'reader']), 'moderator', 'administrator')).toBe(false)
    expect(hasRole(user('u', ['administrator']))).toBe(false)
  })

  it('gives no role to a caller whose roles are not an array', () => {
    expect(hasRole(user('u', 'administrator'), 'administrator')).toBe(false)
    expect(hasRole(user('u', undefined), 'administrator')).toBe(false)
  })
})

describe('requireOwnerOrAdministrator', () => {
  it('lets the owner and an administrator through', () => {
    expect(() => requireOwnerOrAdministrator(user('alice', []), 'alice', 'change this story')).not.toThrow()
    expect(() =>
      requireOwnerOrAdministrator(user('bob', ['administrator']), 'alice', 'change this story'),
    ).not.toThrow()
  })

  it('refuses anyone else with 403 FORBIDDEN naming the action, a moderator included', () => {
    for (const caller of [user('bob', ['creator']), user('mod', ['moderator'])])
      expect(() => requireOwnerOrAdministrator(caller, 'alice', 'delete versions of this story')).toThrow(
        expect.objectContaining({
          statusCode: 403,
          code: 'FORBIDDEN',
          message: 'Only the owner or an administrator may delete versions of this story',
        }),
      )
  })
})
