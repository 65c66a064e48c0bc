// biome-ignore-all lint/suspicious/noTemplateCurlyInString: the story language interpolates with ${}
/** 1.1: what checkStory reports about alternatives, read counts across parts and turns(). */
import { describe, expect, it } from 'vitest'
import { checkStory } from './check-story.ts'

const check = (parts: Record<string, string>, storyLang = '1.1') =>
  checkStory({ parts, order: Object.keys(parts), storyLang }).map(
    (d) => `${d.path}:${d.line}:${d.column} ${d.code}`,
  )

describe('checkStory at 1.1', () => {
  it('checks the part targets of visits() and turns() as gate targets, any id counting', () => {
    const parts = {
      'story/a.sty': [
        '# A [#a]',
        '${visits(b.sty)} ${visits(b.sty:hall)} ${visits(b.sty:ring)} ${turns(b.sty:hall)}',
        '${visits(c.sty)} ${visits(b.sty:nope)} ${turns(b.sty:nope)}',
        '[[b.sty]]',
      ].join('\n'),
      'story/b.sty': '# Hall [#hall]\n+ Ring [#ring]\n  Done.',
    }
    expect(check(parts)).toEqual([
      'story/a.sty:3:10 story/unknown-part',
      'story/a.sty:3:33 story/unknown-id',
      'story/a.sty:3:54 story/unknown-id',
    ])
  })

  it('a count is no way in: a part only counted is still unreachable', () => {
    expect(check({ 'story/a.sty': '${visits(b.sty:x)}\n-> END', 'story/b.sty': '# X [#x]' })).toEqual([
      'story/b.sty:1:1 story/unreachable',
    ])
  })

  it('knows turns() at 1.1 (0 or 1 argument), not at 1.0', () => {
    expect(check({ 'story/a.sty': '[#x]\n${turns()} ${turns(#x)}' })).toEqual([])
    expect(check({ 'story/a.sty': '${turns(1, 2)}' })).toEqual(['story/a.sty:1:3 story/arity'])
    expect(check({ 'story/a.sty': '${turns()}' }, '1.0')).toEqual(['story/a.sty:1:3 story/unknown-function'])
  })

  it('checks what alternatives hold: names, links, and empty ones', () => {
    const parts = {
      'story/a.sty': '{seq ${nobody}|[go > b.sty:nowhere]|}\n{cycle}\n${ghost}\n{end}\n{once}\n{end}',
      'story/b.sty': 'B',
    }
    expect(check(parts)).toEqual([
      'story/a.sty:1:8 story/undeclared',
      'story/a.sty:1:28 story/unknown-id',
      'story/a.sty:3:3 story/undeclared',
      'story/a.sty:5:1 story/empty-alternative',
    ])
  })
})
