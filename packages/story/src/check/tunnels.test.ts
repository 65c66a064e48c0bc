/**
 * Parsing and checking tunnels and threads (1.1): line kinds, targets, reachability and
 * `story/tunnel-end`; the same text at 1.0 parses as before.
 */
import { fc, test } from '@fast-check/vitest'
import { describe, expect, it } from 'vitest'
import { parseModule } from '../parse/parse-module.ts'
import { parseStory } from '../parse/parse-story.ts'
import { visitNodes } from '../parse/walk.ts'
import { createStoryRun } from '../run/create-story-run.ts'
import { type CheckStoryInput, checkStory } from './check-story.ts'

const parse = (src: string, lang: '1.0' | '1.1' = '1.1') => parseStory(src, { path: 'story/a.sty', lang })
const diags = (src: string, lang: '1.0' | '1.1' = '1.1') =>
  parse(src, lang).diagnostics.map((d) => `${d.line}:${d.column} ${d.code}: ${d.message}`)
const check = (parts: Record<string, string>, extra: Partial<CheckStoryInput> = {}) =>
  checkStory({ order: Object.keys(parts), storyLang: '1.1', ...extra, parts }).map(
    (d) => `${d.path}:${d.line}:${d.column} ${d.severity} ${d.code}`,
  )

describe('parsing tunnels and threads at 1.1', () => {
  it('reads calls, returns and threads as their own nodes', () => {
    const { ast, diagnostics } = parse(
      '-> #t ->\n-> b.sty:x ->\n-> b.sty ->\n<- #t\n# [#t]\n->-> #t\n[#u]\n->-> b.sty:x\n[#v]\n->->',
    )
    expect(diagnostics).toEqual([])
    expect(
      ast.body.map((n) => [n.kind, 'target' in n ? n.target : undefined, 'part' in n ? n.part : undefined]),
    ).toEqual([
      ['tunnel', 't', false],
      ['tunnel', 'b.sty:x', true],
      ['tunnel', 'b.sty', true],
      ['thread', 't', undefined],
      ['heading', undefined, undefined],
      ['tunnel-return', 't', false],
      ['anchor', undefined, undefined],
      ['tunnel-return', 'b.sty:x', true],
      ['anchor', undefined, undefined],
      ['tunnel-return', undefined, undefined],
    ])
    expect(ast.body[0]).toMatchObject({ pos: { line: 1, column: 1 }, targetPos: { line: 1, column: 4 } })
  })

  it('checks same-file targets with the jumps, at the target', () => {
    expect(diags('-> #nowhere ->\n<- #gone\n* A [#opt]\n->-> #opt')).toEqual([
      "1:4 story/unknown-id: no heading, anchor or group '#nowhere'",
      "2:4 story/unknown-id: no heading, anchor or group '#gone'",
      "4:6 story/not-a-target: '#opt' names an option; jump to its group's anchor or a heading instead",
    ])
  })

  it('reports malformed lines with the fix, and threads from another part as a static error', () => {
    expect(diags('-> t ->\n<- side\n->-> END\n<- b.sty:x')).toEqual([
      "1:4 story/bad-target: 't' is not a target (#id, or a path ending .sty, optionally :id); did you mean '#t' or 't.sty'?",
      "2:4 story/bad-target: 'side' is not a target (#id, or a path ending .sty, optionally :id); did you mean '#side' or 'side.sty'?",
      "3:6 story/bad-expression: a return is written '->->', '->-> #id' or '->-> part.sty:id'",
      "4:4 story/bad-target: a thread gathers options from a section of its own part ('<- #id'); 'b.sty:x' is another part (threads across parts are not in 1.1): tunnel there with '-> b.sty:x ->', or move the section into this part",
    ])
  })

  it("marks what follows '->->' unreachable, not what follows a call", () => {
    expect(diags('-> #t ->\nAfter the call.\n# [#t]\n->->\nDead.')).toEqual([
      "5:1 story/unreachable: unreachable after the '->->' on line 4",
    ])
  })

  it('parses the same text at 1.0 as before (a bad jump, text, with a warning naming 1.1)', () => {
    const src = '<- #t\n-> #t ->\n->->\n[#t]'
    const at10 = parse(src, '1.0')
    expect(at10.ast.body.map((n) => n.kind)).toEqual(['paragraph', 'anchor'])
    expect(at10.diagnostics.map((d) => `${d.line}:${d.column} ${d.code}`)).toEqual([
      '1:1 story/ink-syntax',
      '2:1 story/bad-expression',
      '3:1 story/bad-expression',
    ])
  })

  it('refuses tunnels and threads in a passage', () => {
    const r = parseModule('{passage p()}\n-> #t ->\n<- #t\n->->\n{end}', { path: 'm.xty', lang: '1.1' })
    expect(r.diagnostics.map((d) => `${d.line}:${d.column} ${d.code}`)).toEqual([
      '2:1 story/module-content',
      '3:1 story/module-content',
      '4:1 story/module-content',
    ])
  })
})

describe('checking tunnels and threads', () => {
  it('counts a tunnelled or threaded section as reached, and a part a tunnel enters', () => {
    const a = '-> #t ->\n<- #u\n* Go\n-> END\n# [#t]\n->->\n# [#u]\n* U\n-> END\n[#w]\n-> b.sty:x ->\n->->'
    expect(check({ 'story/a.sty': a, 'story/b.sty': '[#x]\n->->' }, { order: ['story/a.sty'] })).toEqual([
      'story/a.sty:3:1 info story/implicit-ids',
      'story/a.sty:8:1 info story/implicit-ids',
      'story/a.sty:10:1 warning story/unreachable',
    ])
  })

  it('checks the part and id of a tunnel into another part', () => {
    expect(
      check({ 'story/a.sty': '-> c.sty ->\n-> b.sty:nope ->\n->-> b.sty:nah\n', 'story/b.sty': 'B.' }),
    ).toEqual([
      'story/a.sty:1:4 error story/unknown-part',
      'story/a.sty:2:10 error story/unknown-id',
      'story/a.sty:3:12 error story/unknown-id',
    ])
  })

  it('warns once per tunnelled place that can run off its part without ->->', () => {
    const a = `-> #ok ->
-> #open ->
-> #open ->
-> #loops ->
-> b.sty ->
-> END
# [#ok]
{if true}
->->
{else}
-> END
{end}
# [#loops]
+ Again -> #loops
+ Back
  ->->
# [#open]
* Leave -> END
* Stay`
    expect(
      check({ 'story/a.sty': a, 'story/b.sty': 'B runs off its end.' }).filter((d) => d.includes('tunnel')),
    ).toEqual(['story/a.sty:17:1 warning story/tunnel-end', 'story/b.sty:1:1 warning story/tunnel-end'])
    const [d] = checkStory({
      order: ['story/a.sty'],
      storyLang: '1.1',
      parts: { 'story/a.sty': a, 'story/b.sty': 'B.' },
    })
    expect(d?.message).toBe(
      "'#open', entered by a tunnel (story/a.sty:2), can reach the end of the part without '->->' (play then returns there); end each way out with '->->'",
    )
  })
})

const PIECES = [
  '-> ',
  '->->',
  '->',
  '<- ',
  '<-',
  '#t',
  '#u',
  'b.sty:x',
  'a.sty',
  ' ->',
  '\n',
  '\n',
  '# [#t]\n',
  '[#u]\n',
  '* O\n',
  '  ',
  'END',
  'text',
  '\\',
  ' #tag',
]
const fuzz = fc.array(fc.constantFrom(...PIECES), { maxLength: 60 }).map((a) => a.join(''))

test.prop([fuzz], { numRuns: 500 })(
  '1.1 flow lines never throw; positions stay in the source',
  async (src) => {
    const r = parse(src)
    const lines = src.split('\n')
    const inside = (p: { line: number; column: number }) => {
      expect(p.line).toBeGreaterThanOrEqual(1)
      expect(p.line).toBeLessThanOrEqual(lines.length)
      expect(p.column).toBeGreaterThanOrEqual(1)
      expect(p.column).toBeLessThanOrEqual([...lines[p.line - 1]!].length + 1)
    }
    for (const d of r.diagnostics) inside({ line: d.line!, column: d.column! })
    visitNodes(r.ast.body, {
      node: (n) => {
        inside(n.pos)
        if ('targetPos' in n && n.targetPos) inside(n.targetPos)
      },
    })
    check({ 'story/a.sty': src, 'story/b.sty': '[#x]\n->->' })
    const run = createStoryRun(
      {
        parts: ['story/a.sty', 'story/b.sty'],
        readPart: (p) => (p === 'story/a.sty' ? src : '[#x]\n->->'),
        lang: '1.1',
      },
      { seed: 1 },
    )
    for (let i = 0; i < 200; i++) {
      const e = await run.next()
      if (!e) break
      if (e.type === 'pause') {
        const o = e.options[i % Math.max(1, e.options.length)]
        if (!o) break
        run.choose({ option: o.id })
      }
    }
  },
)
