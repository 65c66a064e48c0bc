/**
 * The account without a browser page: its state, the 401 rule (only a signed-in reader is sent to sign in again, once
 * the refused save is queued), the cloud storage only while signed in, and sign-out clearing the queue. The identity
 * provider is unreachable here (sign-in itself is the e2e tests' part).
 */
import { createMemoryDriver } from '@spkg/state/drivers/memory'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { type ProgressServer, startProgressServer } from '../../test/account/progress-server'
import { tabStorage } from '../../test/account/tab-storage'
import { type Account, createAccount } from './account'
import { createSharedSessionStore } from './session-store'

const b64url = (s: string) => Buffer.from(s, 'utf8').toString('base64url')
const jwt = (claims: unknown) => `${b64url('{"alg":"RS256"}')}.${b64url(JSON.stringify(claims))}.sig`

let server: ProgressServer
beforeAll(async () => {
  server = await startProgressServer()
})
afterAll(async () => {
  await server?.close()
})
beforeEach(() => {
  server.states.clear()
  server.refuseTokens = false
})

const open: Account[] = []
afterAll(() => {
  for (const a of open) a.close()
})

function start(signedInAs?: string) {
  const storage = tabStorage()
  const sessionStore = createSharedSessionStore({ storage, channel: null })
  if (signedInAs) {
    const tokens = {
      accessToken: jwt({ sub: signedInAs }),
      refreshToken: 'r',
      expiresAt: Date.now() + 600_000,
    }
    sessionStore.setItem('spkg.tokens', JSON.stringify(tokens))
  }
  const assigned: string[] = []
  const queueStorage = createMemoryDriver()
  const account = createAccount({
    origin: server.origin,
    authConfig: { issuer: 'http://127.0.0.1:9', clientId: 'spkg-web', redirectUri: `${server.origin}/` },
    storage,
    sessionStore,
    queueStorage,
    location: {
      href: `${server.origin}/#/story/inn/play`,
      hash: '#/story/inn/play',
      assign: (u: string | URL) => void assigned.push(String(u)),
      replace: () => undefined,
    },
    replaceUrl: () => undefined,
  })
  open.push(account)
  return { account, assigned, storage, queueStorage }
}

const state = JSON.stringify({
  format: 1,
  id: 'inn',
  savedAt: '2026-11-27T01:00:00.000Z',
  variables: {},
  choices: {},
  visitedChoiceGroups: [],
  rng: { algorithm: 'mulberry32', seed: 1, state: 1 },
  visitedParts: [],
  renderedParagraph: 2,
})

describe('the account', () => {
  it('signed out: no cloud storage, and a 401 starts no sign-in', async () => {
    const { account, assigned } = start()
    await account.ready
    expect(account.state()).toEqual({ status: 'signed-out' })
    expect(account.cloudDriver()).toBeNull()
    await expect(account.client.request('GET', '/api/progress', { retry: 0 })).rejects.toMatchObject({
      status: 401,
    })
    await new Promise((r) => setTimeout(r, 0))
    expect(assigned).toEqual([])
    expect(account.state().error).toBeUndefined()
  })

  it('signed in: names the reader, saves to the account', async () => {
    const { account } = start('mara')
    await account.ready
    expect(account.state()).toEqual({ status: 'signed-in', user: { id: 'mara', name: 'mara' } })
    const driver = account.cloudDriver()
    expect(driver).not.toBeNull()
    await driver?.set('inn', state, { ifRevision: null })
    expect(server.states.get('inn')?.revision).toBe(1)
  })

  it('session ended: the refused save is queued, then the reader is sent to sign in again', async () => {
    const { account, storage } = start('mara')
    await account.ready
    server.refuseTokens = true
    const saved = await account.cloudDriver()?.set('inn', state, { ifRevision: null })
    expect(saved?.revision).toBe('queued:none')
    expect(await account.pendingSaves()).toBe(1)
    // The provider is unreachable here, so the sign-in cannot start: the reader is told.
    await expect.poll(() => account.state().error).toBe('Your session has ended: sign in again.')
    expect(storage.getItem('spkg-player.return-to')).toBe('#/story/inn/play')
  })

  it('sign-out ends the session and drops the saves still queued', async () => {
    const { account, queueStorage } = start('mara')
    await account.ready
    server.refuseTokens = true
    await account.cloudDriver()?.set('inn', state, { ifRevision: null })
    expect(await account.pendingSaves()).toBe(1)
    await account.signOut()
    expect(account.state().status).toBe('signed-out')
    expect(account.cloudDriver()).toBeNull()
    expect(await queueStorage.keys()).toEqual([])
  })
})
