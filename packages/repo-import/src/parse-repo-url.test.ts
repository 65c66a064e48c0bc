import { describe, expect, it } from 'vitest'
import { parseRepoUrl } from './parse-repo-url'

describe('parseRepoUrl accepts exactly the two shapes', () => {
  it.each([
    ['https://github.com/owner/story', { owner: 'owner', repo: 'story' }],
    ['https://github.com/Owner-1/my.story_2', { owner: 'Owner-1', repo: 'my.story_2' }],
    ['https://github.com/owner/story/tree/main', { owner: 'owner', repo: 'story', ref: 'main' }],
    ['https://github.com/owner/story/tree/v1.2.0', { owner: 'owner', repo: 'story', ref: 'v1.2.0' }],
    [
      'https://github.com/owner/story/tree/release/1.2',
      { owner: 'owner', repo: 'story', ref: 'release/1.2' },
    ],
    [
      'https://github.com/owner/story/tree/3f786850e387550fdab836ed7e6dc881de23001b',
      { owner: 'owner', repo: 'story', ref: '3f786850e387550fdab836ed7e6dc881de23001b' },
    ],
    // Scheme and host are case-insensitive in URLs.
    ['HTTPS://GitHub.com/owner/story', { owner: 'owner', repo: 'story' }],
  ])('%s', (url, expected) => {
    const r = parseRepoUrl(url)
    expect(r).toEqual({ ok: true, ...expected })
  })

  it('takes the host (with its port) from the configuration', () => {
    expect(
      parseRepoUrl('https://git.example.org:8443/o/r', { repoHost: 'git.example.org:8443' }),
    ).toMatchObject({
      ok: true,
    })
    expect(parseRepoUrl('https://git.example.org/o/r', { repoHost: 'git.example.org:8443' }).ok).toBe(false)
  })
})

describe('parseRepoUrl refuses every other shape with repo/invalid-url', () => {
  it.each([
    ['http://github.com/owner/story', 'only https'],
    ['ftp://github.com/owner/story', 'only https'],
    ['git@github.com:owner/story.git', 'not an absolute URL'],
    ['github.com/owner/story', 'not an absolute URL'],
    ['//github.com/owner/story', 'not an absolute URL'],
    ['https://gitlab.com/owner/story', "only 'github.com'"],
    ['https://github.com:443/owner/story', "only 'github.com'"],
    ['https://github.com:8443/owner/story', "only 'github.com'"],
    ['https://user@github.com/owner/story', 'user information'],
    ['https://user:pw@github.com/owner/story', 'user information'],
    ['https://github.com@evil.example/owner/story', 'user information'],
    ['https://github.com.evil.example/owner/story', "only 'github.com'"],
    ['https://evilgithub.com/owner/story', "only 'github.com'"],
    ['https://github.com./owner/story', 'no trailing dot'],
    ['https://gіthub.com/owner/story', 'non-ASCII'], // Cyrillic і
    ['https://xn--gthub-n4a.com/owner/story', "only 'github.com'"],
    ['https://github.com/owner/story?tab=readme', 'query or fragment'],
    ['https://github.com/owner/story#readme', 'query or fragment'],
    ['https://github.com/owner/story?', 'query or fragment'],
    ['https://github.com/owner/../story', "'..'"],
    ['https://github.com/owner/./story', "'.'"],
    ['https://github.com/owner/story/tree/..', "'..'"],
    ['https://github.com/owner/story/tree/main/../../x', "'..'"],
    ['https://github.com/owner%2Fstory/x', 'percent-encoded'],
    ['https://github.com/owner/story/tree/a%2F..%2Fb', 'percent-encoded'],
    ['https://github.com/owner/%2e%2e', 'percent-encoded'],
    ['https://github.com/owner/story/tree/%2e', 'percent-encoded'],
    ['https://github.com//owner/story', 'empty path segments'],
    ['https://github.com/owner//story', 'empty path segments'],
    ['https://github.com/owner/story/', 'empty path segments'],
    ['https://github.com/owner/story/tree/', 'empty path segments'],
    ['https://github.com/owner/story/tree/main/', 'empty path segments'],
    ['https://github.com/owner', 'repository name is missing'],
    ['https://github.com/', 'names are missing'],
    ['https://github.com', 'names are missing'],
    ['https://github.com/-owner/story', 'not a valid owner'],
    ['https://github.com/own--er/story', 'not a valid owner'],
    ['https://github.com/own_er/story', 'not a valid owner'],
    [`https://github.com/${'a'.repeat(40)}/story`, 'not a valid owner'],
    ['https://github.com/owner/st~ry', 'not a valid repository'],
    ['https://github.com/owner/story.git', 'drop .git'],
    [`https://github.com/owner/${'r'.repeat(101)}`, 'not a valid repository'],
    ['https://github.com/owner/story/blob/main/manifest.json', 'only /tree/<ref>'],
    ['https://github.com/owner/story/tree', 'only /tree/<ref>'],
    ['https://github.com/owner/story/archive/main.zip', 'only /tree/<ref>'],
    ['https://github.com/owner/story/tree/ma:in', 'not a valid ref'],
    ['https://github.com/owner/story/tree/.hidden', 'not a valid ref'],
    ['https://github.com/owner/story/tree/main.lock', 'not a valid ref'],
    ['https://github.com/owner/story/tree/main@{1}', 'not a valid ref'],
    ['https://github.com/owner/story/tree/a/b/c/d/e/f/g/h/i', 'more than 8 segments'],
    ['https://github.com/owner/st ory', 'spaces'],
    ['https://github.com/owner/story\n', 'control'],
    ['https://github.com\\owner\\story', '\\'],
    [`https://github.com/owner/${'x'.repeat(2100)}`, 'longer than 2048'],
  ])('%s (%s)', (url, why) => {
    const r = parseRepoUrl(url)
    expect(r.ok).toBe(false)
    if (r.ok) return
    expect(r.diagnostic.code).toBe('repo/invalid-url')
    expect(r.diagnostic.severity).toBe('fatal')
    expect(r.diagnostic.message).toContain(why)
    // The message always says which shapes are accepted.
    expect(r.diagnostic.message).toContain('https://github.com/<owner>/<repo>/tree/<ref>')
  })

  it('refuses a value that is not a string', () => {
    expect(parseRepoUrl(42 as unknown as string).ok).toBe(false)
  })

  it('refuses a configured host that is not a host name, as a programming error', () => {
    expect(() => parseRepoUrl('https://github.com/o/r', { repoHost: 'https://github.com' })).toThrow(
      TypeError,
    )
  })
})
