import { describe, expect, it } from 'vitest'
import { checkStory } from './check/check-story.ts'
import { atLeast, readingLang, STORY_LANG, storyLangOf } from './lang.ts'
import { createStoryRun } from './run/create-story-run.ts'

describe('story_lang', () => {
  it.each([
    [undefined, '1.0'],
    ['1', '1.0'],
    ['1.0', '1.0'],
    ['1.1', '1.1'],
    ['1.1.4', '1.1'],
    ['1.01', '1.1'],
  ])('reads %s at %s', (declared, lang) => {
    expect(storyLangOf(declared)).toEqual({ lang })
    expect(readingLang(declared)).toBe(lang)
  })

  it.each([
    ['2.0', /not a 1\.x version/],
    ['0.9', /not a 1\.x version/],
    ['one', /not a 1\.x version/],
    ['', /not a 1\.x version/],
    ['1.2', /newer than this library, which reads 1\.0 and 1\.1/],
    ['1.10', /newer than this library/],
  ])('refuses %s', (declared, message) => {
    const r = storyLangOf(declared)
    expect('error' in r && r.error).toMatch(message)
    expect(readingLang(declared)).toBe(STORY_LANG)
  })

  it('orders versions', () => {
    expect(atLeast('1.1', '1.0')).toBe(true)
    expect(atLeast('1.0', '1.1')).toBe(false)
  })

  it('checkStory reports a version it cannot read and accepts 1.1', () => {
    const check = (storyLang: string) =>
      checkStory({ parts: { 'story/a.sty': 'Hi.' }, order: ['story/a.sty'], storyLang }).map(
        (d) => `${d.path} ${d.severity} ${d.code}`,
      )
    expect(check('1.1')).toEqual([])
    expect(check('1.2')).toEqual(['manifest.json error story/lang-version'])
    expect(check('2.0')).toEqual(['manifest.json error story/lang-version'])
  })

  it('a run refuses a story in a version it cannot read, and plays 1.0 and 1.1', async () => {
    const events = async (lang?: string) => {
      const run = createStoryRun({ parts: ['a.sty'], readPart: () => 'Hi.', ...(lang ? { lang } : {}) })
      const out: string[] = []
      for (let e = await run.next(); e; e = await run.next())
        out.push(e.type === 'diagnostic' ? `${e.diagnostic.code}: ${e.diagnostic.message}` : e.type)
      return out
    }
    expect(await events()).toEqual(['part-entered', 'block', 'end'])
    expect(await events('1.1')).toEqual(['part-entered', 'block', 'end'])
    expect(await events('1.2')).toEqual([
      "story/lang-version: story_lang '1.2' is newer than this library, which reads 1.0 and 1.1; update @spkg/story (or the reader app)",
      'end',
    ])
  })
})
