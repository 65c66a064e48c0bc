/**
 * The isomorphic entry as a browser runs it: no address guard, and redirects that scripts cannot
 * see (`redirect: 'manual'` gives an opaque answer). The fetch here stands in for the browser's:
 * it answers the way a browser does, and records what was requested.
 */
import { describe, expect, it } from 'vitest'
import { importRepository } from './index'

function browserFetch(finalUrl: string, calls: { url: string; init: RequestInit }[]): typeof fetch {
  return (async (input: string | URL | Request, init: RequestInit = {}) => {
    const url = String(input)
    calls.push({ url, init })
    if (init.redirect === 'manual') {
      // What a browser gives a script for a redirect it may not see.
      const opaque = new Response(null, { status: 200 })
      Object.defineProperty(opaque, 'type', { value: 'opaqueredirect' })
      Object.defineProperty(opaque, 'status', { value: 0 })
      return opaque
    }
    const res = new Response(new Uint8Array(10), { status: 200 })
    Object.defineProperty(res, 'url', { value: finalUrl })
    Object.defineProperty(res, 'redirected', { value: true })
    return res
  }) as typeof fetch
}

describe('the browser path', () => {
  it.each([
    'http://github.com/owner/story',
    'https://github.com.evil.example/owner/story',
    'https://github.com/owner/../story',
    'https://github.com/owner/story?x=1',
    'https://user@github.com/owner/story',
    'https://github.com/owner%2Fstory/x',
    'https://github.com/owner/story/blob/main/x',
  ])('refuses %s before any request', async (url) => {
    const calls: { url: string; init: RequestInit }[] = []
    const r = await importRepository(url, { fetch: browserFetch('https://codeload.github.com/x', calls) })
    expect(r.diagnostics.map((d) => d.code)).toEqual(['repo/invalid-url'])
    expect(calls).toEqual([])
  })

  it('lets the browser follow the redirect, then refuses a final URL off the allow-list, sending no token', async () => {
    const calls: { url: string; init: RequestInit }[] = []
    const r = await importRepository('https://github.com/owner/story', {
      fetch: browserFetch('https://evil.example/owner/story.zip', calls),
      token: 'sekrit',
    })
    expect(r.diagnostics.map((d) => d.code)).toEqual(['repo/redirect-refused'])
    expect(calls.map((c) => c.url)).toEqual([
      'https://api.github.com/repos/owner/story/zipball',
      'https://api.github.com/repos/owner/story/zipball',
    ])
    expect(calls[1]!.init.redirect).toBe('follow')
    expect(JSON.stringify(calls[1]!.init.headers)).not.toContain('sekrit')
  })

  it('accepts the answer when the final URL is HTTPS on an allowed host (then the reader judges the bytes)', async () => {
    const calls: { url: string; init: RequestInit }[] = []
    const r = await importRepository('https://github.com/owner/story', {
      fetch: browserFetch('https://codeload.github.com/owner/story/legacy.zip/refs/heads/main', calls),
    })
    // Ten zero bytes are no ZIP: refused by the unwrapping, not by the redirect check.
    expect(r.diagnostics.map((d) => d.code)).toEqual(['pkg/not-zip'])
  })
})
