/**
 * Browser-side half of tabs.test.ts: one `@spkg/client/auth` session per page (the app's origin, the provider's
 * token endpoint cross-origin), and a way to hold the refresh Web Lock from a third page.
 */
import { type Auth, createAuth, type TokenSet } from '@spkg/client/auth'

const LOCK = 'spkg-client-refresh'
let auth: Auth | undefined
let pending: Promise<string | undefined> | undefined
let releaseHeld: (() => void) | undefined
let issuer = ''

const session = () => {
  auth ??= createAuth({
    issuer,
    clientId: 'spkg-web',
    redirectUri: 'http://127.0.0.1:5173/callback',
    allowHttp: true,
  })
  return auth
}

Object.assign(globalThis, {
  tabTest: {
    /** Stores the session's tokens in this tab (as the login's broadcast does) and starts the session. */
    start({ tokens, at }: { tokens: TokenSet; at: string }) {
      issuer = at
      sessionStorage.setItem('spkg.tokens', JSON.stringify(tokens))
      sessionStorage.setItem('spkg.access-token', tokens.accessToken)
      session()
    },
    /** Moves this tab's expiry 30 s ahead: inside the 60 s refresh margin, so the next getToken refreshes. */
    expireSoon() {
      const t = session().tokens()
      if (!t) throw new Error('no session in this tab')
      sessionStorage.setItem('spkg.tokens', JSON.stringify({ ...t, expiresAt: Date.now() + 30_000 }))
    },
    /** Starts getToken without waiting for it. */
    begin() {
      pending = session().getToken()
    },
    finish: () => pending,
    state: () => ({ tokens: session().tokens(), accessToken: sessionStorage.getItem('spkg.access-token') }),
    /** Takes the refresh lock and keeps it until release(). */
    hold: () =>
      new Promise<void>((held) => {
        void navigator.locks.request(LOCK, () => {
          held()
          return new Promise<void>((release) => {
            releaseHeld = release
          })
        })
      }),
    release: () => releaseHeld?.(),
    /** How many requests wait for the refresh lock. */
    waiting: async () =>
      ((await navigator.locks.query()).pending ?? []).filter((l) => l.name === LOCK).length,
  },
})
