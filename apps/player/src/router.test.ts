import { describe, expect, it } from 'vitest'
import { matchRoute, registerRoute } from './router'

describe('matchRoute', () => {
  const home = () => {}
  const story = () => {}
  const progress = () => {}
  registerRoute('/', home)
  registerRoute('/story/:slug', story)
  registerRoute('#/progress', progress)

  it('matches static and parameter segments, decoded, with the query of the hash', () => {
    expect(matchRoute('')?.render).toBe(home)
    expect(matchRoute('#/')?.render).toBe(home)
    const m = matchRoute('#/story/crooked%20inn?x=1')
    expect(m?.render).toBe(story)
    expect(m?.params.slug).toBe('crooked inn')
    expect(m?.query.get('x')).toBe('1')
    expect(matchRoute('#/progress')?.render).toBe(progress)
  })
  it('matches nothing for unknown paths and malformed escapes', () => {
    expect(matchRoute('#/nope')).toBeUndefined()
    expect(matchRoute('#/story/a/b/c')).toBeUndefined()
    expect(matchRoute('#/story/%E0%A4%A')).toBeUndefined()
  })
  it('lets a later registration of a pattern win', () => {
    const other = () => {}
    registerRoute('/progress', other)
    expect(matchRoute('#/progress')?.render).toBe(other)
  })
})
