import { describe, expect, it } from 'vitest'
import { bearer, useTestApp } from './helpers/app'

const t = useTestApp()

const put = (role: string, payload: unknown, headers = bearer('pat', 'creator', 'reader')) =>
  t.app.inject({ method: 'PUT', url: `/api/auth/profiles/${role}`, headers, payload: payload as object })

describe('PUT /api/auth/profiles/:role', () => {
  it("creates and updates the caller's own profile in a role held", async () => {
    const res = await put('creator', { displayName: 'Pat', avatar: 'https://cdn.example.org/pat.png' })
    expect(res.statusCode).toBe(200)
    expect(res.json()).toMatchObject({
      role: 'creator',
      displayName: 'Pat',
      avatar: 'https://cdn.example.org/pat.png',
      bio: null,
    })
    const upd = await put('creator', { bio: 'Writes.' })
    expect(upd.json()).toMatchObject({ displayName: 'Pat', bio: 'Writes.' })
    const other = await t.app.inject({ url: '/api/auth/profiles/creator', headers: bearer('sam', 'creator') })
    expect(other.statusCode).toBe(404)
    const mine = await t.app.inject({ url: '/api/auth/profiles/creator', headers: bearer('pat', 'creator') })
    expect(mine.json().bio).toBe('Writes.')
  })

  it('records a profile_changed auth event with the session id and role, and no personal data', async () => {
    const events = (t.app as unknown as { testAuthEvents: Array<{ kind: string }> }).testAuthEvents
    const before = events.length
    expect((await put('reader', { displayName: 'Pat Reader' })).statusCode).toBe(200)
    expect(events.slice(before)).toEqual([
      {
        kind: 'profile_changed',
        sessionId: '00000000-0000-4000-8000-000000000001',
        detail: { role: 'reader' },
      },
    ])
    expect(JSON.stringify(events)).not.toContain('Pat')
    expect((await put('moderator', { displayName: 'x' })).statusCode).toBe(403)
    expect(events.length).toBe(before + 1)
  })

  it('refuses a role the caller does not hold with 403', async () => {
    const res = await put('administrator', { displayName: 'Boss' })
    expect(res.statusCode).toBe(403)
    expect(res.json().code).toBe('FORBIDDEN')
  })

  it.each([
    ['http avatar', { avatar: 'http://cdn.example.org/a.png' }],
    ['javascript avatar', { avatar: 'javascript:alert(1)' }],
    ['over-long name', { displayName: 'x'.repeat(101) }],
    ['over-long bio', { bio: 'x'.repeat(1001) }],
    ['unknown field', { isAdmin: true }],
    ['wrong type', { displayName: 5 }],
  ])('refuses %s with 400', async (_n, body) => {
    const res = await put('creator', body)
    expect(res.statusCode).toBe(400)
    expect(res.json().code).toBe('VALIDATION_FAILED')
  })

  it('refuses an unknown role with 400 and no token with 401', async () => {
    expect((await put('superuser', {})).statusCode).toBe(400)
    expect(
      (await t.app.inject({ method: 'PUT', url: '/api/auth/profiles/creator', payload: {} })).statusCode,
    ).toBe(401)
  })
})
