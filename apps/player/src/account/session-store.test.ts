import { afterEach, describe, expect, it } from 'vitest'
import { tabStorage } from '../../test/account/tab-storage'
import { createSharedSessionStore, SESSION_PREFIX } from './session-store'

const open: { close(): void }[] = []
afterEach(() => {
  for (const o of open.splice(0)) o.close()
})

function tab(name: string) {
  const storage = tabStorage()
  const store = createSharedSessionStore({ storage, channel: new BroadcastChannel(name) })
  open.push(store)
  return { storage, store }
}

describe('the session hand-over between tabs', () => {
  it('keeps the session under its prefix, separate from other items', () => {
    const a = tab('c1')
    a.storage.setItem('other', 'x')
    a.store.setItem('spkg.tokens', '{"accessToken":"t"}')
    expect(a.storage.map.get(`${SESSION_PREFIX}spkg.tokens`)).toBe('{"accessToken":"t"}')
    expect(a.store.items()).toEqual({ 'spkg.tokens': '{"accessToken":"t"}' })
    a.store.removeItem('spkg.tokens')
    expect(a.store.items()).toEqual({})
    a.store.setItem('x', '1')
    a.store.setItem('y', '2')
    a.store.clear()
    expect(a.store.items()).toEqual({})
    expect(a.storage.map.get('other')).toBe('x')
  })

  it('gives a new tab the session of a signed-in tab', async () => {
    const a = tab('c2')
    const b = tab('c2')
    a.store.setItem('spkg.tokens', 'T')
    a.store.setItem('spkg.access-token', 'A')
    a.store.serve(() => a.store.getItem('spkg.tokens') !== null)
    b.store.serve(() => b.store.getItem('spkg.tokens') !== null)
    expect(await b.store.requestFromOtherTabs(() => b.store.getItem('spkg.tokens') !== null, 5_000)).toBe(
      true,
    )
    expect(b.store.getItem('spkg.tokens')).toBe('T')
    expect(b.store.getItem('spkg.access-token')).toBe('A')
  })

  it('asks nothing when the tab has a session, and gets nothing from signed-out tabs', async () => {
    const a = tab('c3')
    const b = tab('c3')
    a.store.serve(() => false)
    expect(await b.store.requestFromOtherTabs(() => true)).toBe(false)
    expect(await b.store.requestFromOtherTabs(() => false, 50)).toBe(false)
    expect(b.store.items()).toEqual({})
  })
})
