import { describe, expect, it } from 'vitest'
import { decodeJwtPayload, userFromToken } from './user'

const b64url = (s: string) => Buffer.from(s, 'utf8').toString('base64url')
const jwt = (claims: unknown) => `${b64url('{"alg":"RS256"}')}.${b64url(JSON.stringify(claims))}.sig`

describe('the signed-in user', () => {
  it('is named by the token claims, falling back to sub', () => {
    expect(userFromToken(jwt({ sub: 'u1', name: 'Mara Lind' }))).toEqual({ id: 'u1', name: 'Mara Lind' })
    expect(userFromToken(jwt({ sub: 'u1', preferred_username: 'mara' }))).toEqual({ id: 'u1', name: 'mara' })
    expect(userFromToken(jwt({ sub: 'reader' }))).toEqual({ id: 'reader', name: 'reader' })
  })

  it('decodes UTF-8 names and url-safe base64', () => {
    expect(userFromToken(jwt({ sub: 'ü?>', name: 'Łucja Żak' }))?.name).toBe('Łucja Żak')
  })

  it('is undefined for anything that is not a JWT with a sub', () => {
    expect(userFromToken(undefined)).toBeUndefined()
    expect(userFromToken('opaque-token')).toBeUndefined()
    expect(userFromToken(jwt({ name: 'no sub' }))).toBeUndefined()
    expect(userFromToken(jwt([1, 2]))).toBeUndefined()
    expect(decodeJwtPayload('a.%%%.c')).toBeUndefined()
  })
})
