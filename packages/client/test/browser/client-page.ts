/** Browser-side half of client.browser.test.ts: functions the test calls with `page.evaluate`. */
import { createIndexedDbDriver } from '@spkg/state/drivers/indexeddb'
import { createAuth } from '../../src/auth'
import { type Client, createClient } from '../../src/index'

const ok = async () => new Response('{}', { headers: { 'content-type': 'application/json' } })
const seen: string[] = []
let tracked: Client | undefined

const queueClient = () =>
  createClient({
    baseUrl: location.origin,
    fetch: ok,
    connectivity: null,
    storage: createIndexedDbDriver({ database: 'spkg-client-queue-test' }),
  })

Object.assign(globalThis, {
  clientTest: {
    async tokenFromSession() {
      sessionStorage.setItem('spkg.access-token', 'from-session')
      let auth: string | null = null
      const c = createClient({
        baseUrl: location.origin,
        connectivity: null,
        fetch: async (_u: RequestInfo | URL, init?: RequestInit) => {
          auth = new Headers(init?.headers).get('authorization')
          return ok()
        },
      })
      await c.request('GET', '/api/x')
      return auth
    },
    track() {
      tracked = createClient({ baseUrl: location.origin, fetch: ok })
      for (const t of ['offline', 'reconnected']) tracked.events.addEventListener(t, () => seen.push(t))
      return tracked.offline.online
    },
    tracked: () => ({ events: [...seen], online: tracked?.offline.online }),
    signIn() {
      sessionStorage.setItem(
        'spkg.tokens',
        JSON.stringify({ accessToken: 'a', refreshToken: 'r', expiresAt: Date.now() + 900_000 }),
      )
      sessionStorage.setItem('spkg.access-token', 'a')
      const auth = createAuth({
        issuer: 'http://localhost/idp',
        clientId: 'spkg-web',
        redirectUri: `${location.origin}/callback`,
        allowHttp: true,
      })
      const c = createClient({ baseUrl: location.origin, fetch: ok, getToken: auth.getToken })
      auth.attach(c)
      c.events.addEventListener('logout', () => seen.push('logout'))
      Object.assign(globalThis, { testAuth: auth })
    },
    logout: () => (globalThis as unknown as { testAuth: { logout(): void } }).testAuth.logout(),
    session: () => ({ events: [...seen], token: sessionStorage.getItem('spkg.access-token') }),
    async enqueue() {
      const c = queueClient()
      await c.offline.enqueue({ method: 'PUT', path: '/api/progress/a', body: { n: 1 } })
      await c.offline.enqueue({ method: 'PUT', path: '/api/progress/b', body: { n: 2 } })
      return (await c.offline.pending()).map((w) => w.path)
    },
    async pending() {
      return (await queueClient().offline.pending()).map((w) => w.path)
    },
    async replay() {
      const c = queueClient()
      const report = await c.offline.replay()
      return { sent: report.sent, left: (await c.offline.pending()).length }
    },
  },
})
