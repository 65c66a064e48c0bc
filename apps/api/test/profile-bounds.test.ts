/**
 * Profiles: avatars are stored as their parsed https URL, and profile writes record
 * at most one `profile_changed` auth event per profile an hour, so `auth_events` stays bounded per user.
 */
import { sql } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import { bearer, useTestApp } from './helpers/app'

const t = useTestApp()

const put = (who: string, body: unknown) =>
  t.app.inject({
    method: 'PUT',
    url: '/api/auth/profiles/reader',
    headers: bearer(who, 'reader'),
    payload: body as object,
  })
const events = () =>
  (t.app as unknown as { testAuthEvents: Array<{ kind: string }> }).testAuthEvents.filter(
    (e) => e.kind === 'profile_changed',
  )

describe('avatars', () => {
  it('are stored as the parsed URL, never as typed', async () => {
    for (const [typed, href] of [
      [
        'https://a.example/"><script>alert(1)</script>',
        'https://a.example/%22%3E%3Cscript%3Ealert(1)%3C/script%3E',
      ],
      ['https:\\\\evil.example', 'https://evil.example/'],
      ['HTTPS://CDN.Example.org/a b.png', 'https://cdn.example.org/a%20b.png'],
    ]) {
      const res = await put('avatar-user', { avatar: typed })
      expect(res.statusCode, typed).toBe(200)
      expect(res.json().avatar).toBe(href)
      const read = await t.app.inject({
        url: '/api/auth/profiles/reader',
        headers: bearer('avatar-user', 'reader'),
      })
      expect(read.json().avatar).toBe(href)
    }
  })

  it('refuse what is not an https URL with a host and no credentials', async () => {
    for (const avatar of [
      'http://a.example/x.png',
      'javascript:alert(1)',
      'https://',
      '//a.example/x',
      'https://u:p@a.example/',
      'not a url',
    ]) {
      const res = await put('avatar-user', { avatar })
      expect(res.statusCode, avatar).toBe(400)
      expect(res.json()).toMatchObject({
        code: 'VALIDATION_FAILED',
        message: 'body.avatar: avatar must be an https:// URL',
      })
    }
  })
})

describe('profile_changed events', () => {
  it('at most one per profile an hour, however many writes', async () => {
    const before = events().length
    for (let i = 0; i < 30; i++) expect((await put('busy-user', { bio: `bio ${i}` })).statusCode).toBe(200)
    expect(events().length - before).toBe(1)
    // an hour later, the next change is recorded again
    await t.tdb.db.execute(
      sql`update profiles set event_at = now() - interval '61 minutes' where sub = 'busy-user'`,
    )
    await put('busy-user', { bio: 'later' })
    await put('busy-user', { bio: 'later still' })
    expect(events().length - before).toBe(2)
    // another user's first change is recorded
    await put('other-user', { bio: 'x' })
    expect(events().length - before).toBe(3)
  })
})
