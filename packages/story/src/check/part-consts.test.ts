// biome-ignore-all lint/suspicious/noTemplateCurlyInString: the story language interpolates with ${}
/**
 * 1.1 constants in a part (README "Language versions and 1.1", section 9): `{const N = e}` in a
 * part's declaration block, visible in that part, with the module rules. At 1.0 it stays the
 * error it was.
 */
import { describe, expect, it } from 'vitest'
import { where } from '../../test/helpers/parse.ts'
import { memorySource, play } from '../../test/helpers/play.ts'
import type { StoryLang } from '../lang.ts'
import { parseStory } from '../parse/parse-story.ts'
import { type CheckStoryInput, checkStory } from './check-story.ts'

const check = (parts: Record<string, string>, extra: Partial<CheckStoryInput> = {}, storyLang = '1.1') =>
  checkStory({ parts, order: Object.keys(parts), storyLang, ...extra }).map(
    (d) =>
      `${d.path}:${d.line}:${d.column} ${d.code}${d.code === 'story/duplicate-declaration' || d.code === 'story/const-assign' ? ` ${d.message}` : ''}`,
  )
const src = (files: Record<string, string>, lang: StoryLang = '1.1') => ({ ...memorySource(files), lang })

describe('constants in a part at 1.1', () => {
  it('parses {const} in the declaration block, with {set} and {use} around it', () => {
    const r = parseStory('{set gold = 1}\n{const MAX = 3}\n{const HALF = MAX / 2}\nText.', {
      path: 'a.sty',
      lang: '1.1',
    })
    expect(r.diagnostics).toEqual([])
    expect(r.ast.declarations.consts?.map((c) => `${c.name}@${c.namePos.line}:${c.namePos.column}`)).toEqual([
      'MAX@2:8',
      'HALF@3:8',
    ])
  })
  it('is visible in the part, from literals, module constants and the constants before it', async () => {
    const files = {
      'a.sty':
        '{use m}\n{const MAX = LIMIT + 1}\n{const LABEL = "max " + MAX}\nYou carry ${MAX} (${LABEL}).\n[[ b.sty ]]',
      'b.sty': '${MAX}',
      'm.xty': '{const LIMIT = 2}',
    }
    const { lines } = await play(src(files), [], { seed: 1 })
    expect(lines).toContain('#0 paragraph "You carry 3 (max 3)."')
    // not visible in another part
    expect(lines).toContain('! story/undefined 1:3')
    const found = check(
      { 'a.sty': files['a.sty'], 'b.sty': files['b.sty'] },
      { modules: { 'm.xty': files['m.xty'] } },
    )
    expect(found.filter((f) => !f.includes('unreachable'))).toEqual(['b.sty:1:3 story/undeclared'])
  })
  it('cannot be assigned: story/const-assign, in the checker and at play time', async () => {
    const text = '{const N = 1}\n{set N = 5}\nStart.\n{set N = 2}\nN is ${N}.'
    expect(check({ 'a.sty': text })).toEqual([
      "a.sty:2:6 story/const-assign 'N' is a constant of 'a.sty' and cannot change",
      "a.sty:4:6 story/const-assign 'N' is a constant of 'a.sty' and cannot change",
    ])
    const { lines } = await play(src({ 'a.sty': text }), [], { seed: 1 })
    expect(lines.slice(1)).toEqual([
      '! story/const-assign 2:1',
      // a 1.1 paragraph is shown when it closes: after what happened before the next text
      '! story/const-assign 4:1',
      '#0 paragraph "Start."',
      '#1 paragraph "N is 1."',
      '-- end',
    ])
  })
  it('reports duplicates: twice in the part, a built-in, a name a module declares', () => {
    expect(
      check(
        {
          'a.sty': '{use m}\n{const A = 1}\n{const A = 2}\n{const max = 1}\n{const L = 1}\n{const f = 1}\nx',
        },
        { modules: { 'm.xty': '{const L = 2}\n{fn f(x) = x}' } },
      ),
    ).toEqual([
      "a.sty:3:8 story/duplicate-declaration 'A' is already declared on line 2",
      "a.sty:4:8 story/duplicate-declaration 'max' is a built-in function; name the constant otherwise",
      "a.sty:5:8 story/duplicate-declaration 'L' is already declared in 'm.xty'",
      "a.sty:6:8 story/duplicate-declaration 'f' is already declared in 'm.xty'",
    ])
  })
  it('takes only literals, constants and pure built-ins', () => {
    expect(
      check({ 'a.sty': '{set gold = 1}\n{const A = gold}\n{const B = 1d6}\n{const C = max(1, 2)}\nx' }),
    ).toEqual([
      // the one read of gold is in a constant that cannot use it
      'a.sty:1:6 story/unused-variable',
      'a.sty:2:12 story/bad-expression',
      'a.sty:3:12 story/bad-expression',
    ])
  })
  it('is an error in the body of a part, saying where it belongs', () => {
    const r = parseStory('Text.\n{const N = 1}', { path: 'a.sty', lang: '1.1' })
    expect(where(r.diagnostics)).toEqual(['story/unknown-command@2:1'])
    expect(r.diagnostics[0]!.message).toMatch(/declaration block at the top of the part/)
  })
})

describe('at 1.0', () => {
  it('stays the error it was', () => {
    const r = parseStory('{const N = 1}\nText.', { path: 'a.sty' })
    expect(where(r.diagnostics)).toEqual(['story/unknown-command@1:1'])
    expect(r.diagnostics[0]!.message).toMatch(/only allowed in a module/)
    expect(r.ast.declarations.consts).toBeUndefined()
  })
})
