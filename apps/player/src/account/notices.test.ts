import type { ClientEventDetail } from '@spkg/client'
import { describe, expect, it } from 'vitest'
import { formatWait, noticeFor } from './notices'

const d = (extra: Partial<ClientEventDetail> = {}): ClientEventDetail => ({
  status: 0,
  method: 'GET',
  path: '/api/progress',
  ...extra,
})

describe('notices of client events', () => {
  it('says how long to wait when rate-limited', () => {
    expect(noticeFor('rate-limited', d({ status: 429, retryAfter: 30 }))?.text).toBe(
      'Too many requests: try again in 30 s.',
    )
    expect(noticeFor('rate-limited', d({ status: 429, retryAfter: 90 }))?.text).toContain('1 min 30 s')
    expect(noticeFor('rate-limited', d({ status: 429 }))?.text).toContain('wait a moment')
  })

  it('offers to sign in again when the session ended', () => {
    expect(noticeFor('auth-required', d({ status: 401 }))).toMatchObject({
      level: 'error',
      action: 'sign-in',
    })
  })

  it('shows the server error detail, but not a bare "Internal server error"', () => {
    expect(noticeFor('server-error', d({ status: 503, message: 'database unavailable' }))?.text).toBe(
      'The server had a problem (503): database unavailable',
    )
    expect(noticeFor('server-error', d({ status: 500, message: 'Internal server error' }))?.text).toBe(
      'The server had a problem (500). Try again later.',
    )
  })

  it('covers forbidden, network errors and conflicts; the banner covers offline and reconnected', () => {
    expect(noticeFor('forbidden', d({ status: 403 }))?.text).toMatch(/permission/)
    expect(noticeFor('network-error', d())?.text).toMatch(/could not be reached/)
    expect(noticeFor('conflict', d({ status: 412 }))?.level).toBe('info')
    expect(noticeFor('offline', d())).toBeUndefined()
    expect(noticeFor('reconnected', d())).toBeUndefined()
    expect(noticeFor('logout', d())).toBeUndefined()
  })

  it('formats waits', () => {
    expect(formatWait(0.2)).toBe('1 s')
    expect(formatWait(59)).toBe('59 s')
    expect(formatWait(120)).toBe('2 min')
  })
})
