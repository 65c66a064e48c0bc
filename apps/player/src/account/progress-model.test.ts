import { describe, expect, it } from 'vitest'
import { offlineText, reconnectedText } from './connection'
import { catalogRefs, keyOfProgressPath, progressEntries } from './progress-model'

describe('the list of stories in progress', () => {
  const known = new Map([
    ['id-1', { slug: 'tide-bell', title: 'The Tide Bell' }],
    ['id-2', { slug: 'harbour-heist', title: 'The Harbour Heist' }],
  ])

  it('names saved states through the catalog, newest first, each resuming its story', () => {
    const entries = progressEntries({
      where: 'account',
      saved: [
        { key: 'id-1', savedAt: '2026-11-27T01:00:00Z' },
        { key: 'id-2', savedAt: '2026-11-27T02:00:00Z' },
      ],
      waiting: [],
      known,
    })
    expect(entries.map((e) => e.title)).toEqual(['The Harbour Heist', 'The Tide Bell'])
    expect(entries[1]).toEqual({
      key: 'id-1',
      title: 'The Tide Bell',
      where: 'account',
      savedAt: '2026-11-27T01:00:00Z',
      waiting: false,
      resume: '#/story/tide-bell/play',
    })
  })

  it('lists saves waiting for the connection, and stories the catalog does not have without a link', () => {
    const entries = progressEntries({
      where: 'account',
      saved: [{ key: 'gone', savedAt: '2026-11-27T01:00:00Z' }],
      waiting: ['id-1'],
      known,
    })
    expect(entries[0]).toMatchObject({ key: 'id-1', waiting: true, resume: '#/story/tide-bell/play' })
    expect(entries[1]).toMatchObject({ key: 'gone', title: 'A story not in the catalog' })
    expect(entries[1]?.resume).toBeUndefined()
    const unread = progressEntries({
      where: 'device',
      saved: [{ key: 'x' }],
      waiting: [],
      known,
      catalogRead: false,
    })
    expect(unread[0]?.title).toBe('A story (the catalog could not be read)')
  })

  it('reads queued paths and catalog records defensively', () => {
    expect(keyOfProgressPath('/api/progress/a%20b')).toBe('a b')
    expect(keyOfProgressPath('/api/stories/x')).toBeUndefined()
    expect(keyOfProgressPath('/api/progress/%E0%A4%A')).toBeUndefined()
    expect(
      catalogRefs({
        items: [
          { slug: 's', title: 'T', package: { version: '1.0.0', sha256: 'ab' } },
          { slug: 'no-package', title: 'N' },
          null,
        ],
      }),
    ).toEqual([{ slug: 's', title: 'T', version: '1.0.0', sha256: 'ab' }])
    expect(catalogRefs('nope')).toEqual([])
  })
})

describe('the connection banner and the reconnect indicator', () => {
  it('say what happens to progress', () => {
    expect(offlineText(false, true)).toMatch(/^You are offline\..*synced when the connection returns/)
    expect(offlineText(true, false)).toMatch(/^The server cannot be reached\..*saved on this device/)
    expect(reconnectedText(0, 0)).toBe('Back online.')
    expect(reconnectedText(2, 0)).toBe('Back online. Progress synced (2 saves).')
    expect(reconnectedText(1, 1)).toMatch(/still waiting/)
  })
})
