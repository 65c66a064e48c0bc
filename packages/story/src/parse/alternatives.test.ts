// biome-ignore-all lint/suspicious/noTemplateCurlyInString: the story language interpolates with ${}
/**
 * 1.1: sequences, cycles, shuffles and once-only alternatives (inline and block), and the part
 * targets of `visits()`/`turns()`, as the parser reads them at 1.1 and, unchanged, at 1.0.
 */
import { describe, expect, it } from 'vitest'
import { strip } from '../../test/helpers/parse.ts'
import type { Inline, Node } from '../ast.ts'
import { parseModule } from './parse-module.ts'
import { parseStory } from './parse-story.ts'

const at11 = (src: string) => parseStory(src, { path: 'story/a.sty', lang: '1.1' })
const at10 = (src: string) => parseStory(src, { path: 'story/a.sty', lang: '1.0' })
const where = (src: string, parse = at11) =>
  parse(src).diagnostics.map((d) => `${d.code}@${d.line}:${d.column}`)
const para = (n: Node | undefined): Inline[] => {
  if (n?.kind !== 'paragraph') throw new Error(`not a paragraph: ${n?.kind}`)
  return n.lines[0]!
}

describe('inline alternatives (1.1)', () => {
  it('reads the four kinds, items split at the top-level |, trimmed, empty ones kept', () => {
    const r = at11('# Bar [#bar]\nA {seq dog | two dogs|} {cycle x|y} {once a|b} {shuffle 1|2|3}.')
    expect(r.diagnostics).toEqual([])
    const alts = para(r.ast.body[1]).filter((i) => i.k === 'alt')
    expect(strip(alts)).toEqual([
      {
        k: 'alt',
        mode: 'seq',
        items: [[{ k: 'text', v: 'dog' }], [{ k: 'text', v: 'two dogs' }], []],
        id: 'bar~1',
      },
      { k: 'alt', mode: 'cycle', items: [[{ k: 'text', v: 'x' }], [{ k: 'text', v: 'y' }]], id: 'bar~2' },
      { k: 'alt', mode: 'once', items: [[{ k: 'text', v: 'a' }], [{ k: 'text', v: 'b' }]], id: 'bar~3' },
      {
        k: 'alt',
        mode: 'shuffle',
        items: [[{ k: 'text', v: '1' }], [{ k: 'text', v: '2' }], [{ k: 'text', v: '3' }]],
        id: 'bar~4',
      },
    ])
  })

  it('keeps \\| literal and nests alternatives, {if} and ${} inside items', () => {
    const r = at11('{seq a\\|b|{cycle c|d} ${n}|{if n > 1}many{end}}')
    expect(r.diagnostics).toEqual([])
    const [alt] = para(r.ast.body[0])
    expect(alt?.k).toBe('alt')
    if (alt?.k !== 'alt') return
    expect(alt.id).toBe('h0~1')
    expect(alt.items).toHaveLength(3)
    expect(strip(alt.items[0])).toEqual([{ k: 'text', v: 'a|b' }])
    expect(alt.items[1]![0]).toMatchObject({ k: 'alt', mode: 'cycle', id: 'h0~2' })
    expect(alt.items[1]![2]).toMatchObject({ k: 'interp' })
    expect(alt.items[2]![0]).toMatchObject({ k: 'if' })
  })

  it('numbers alternatives per section in document order, in headings and option labels too', () => {
    const r = at11(
      '{cycle a|b}\n# Hall {cycle lit|dark} [#hall]\n{seq x|y}\n* Go {once now|again}\n  {seq p|q}\n+ Stay\n## Nook\n{seq m|n}',
    )
    expect(r.diagnostics).toEqual([])
    const ids: string[] = []
    const walk = (v: unknown): void => {
      if (Array.isArray(v)) v.forEach(walk)
      else if (v && typeof v === 'object') {
        const o = v as Record<string, unknown>
        if (o.k === 'alt' || o.kind === 'alt') ids.push(o.id as string)
        for (const x of Object.values(o)) walk(x)
      }
    }
    walk(r.ast.body)
    expect(ids.sort()).toEqual(['h0~1', 'h2~1', 'hall~1', 'hall~2', 'hall~3', 'hall~4'])
  })

  it('reads an alternative alone on its line as text, not as a command line', () => {
    const r = at11('{seq One.|Two.}\n{cycle Three.|Four.}')
    expect(r.diagnostics).toEqual([])
    expect(r.ast.body).toHaveLength(1)
    expect(para(r.ast.body[0]).map((i) => i.k)).toEqual(['alt', 'text', 'alt'])
  })

  it('reports an empty alternative with the fix, at its {', () => {
    const r = at11('Hello {seq}.\nAnd {once   } too.')
    expect(r.diagnostics.map((d) => `${d.code}@${d.line}:${d.column}`)).toEqual([
      'story/empty-alternative@1:7',
      'story/empty-alternative@2:5',
    ])
    expect(r.diagnostics[0]!.message).toMatch(
      /has no items; write them separated by '\|': '\{seq first\|second\}'$/,
    )
    expect(r.diagnostics[0]!.severity).toBe('error')
  })

  it("warns about ink's spelling and plays it as the 1.1 equivalent", () => {
    const r = at11('A {&red|blue} {~x|y} {!once|more} {one|two} car.')
    expect(r.diagnostics.map((d) => `${d.code}@${d.column} ${d.severity}`)).toEqual([
      'story/ink-syntax@3 warning',
      'story/ink-syntax@15 warning',
      'story/ink-syntax@22 warning',
      'story/ink-syntax@35 warning',
    ])
    expect(r.diagnostics[0]!.message).toMatch(/write '\{cycle red\|blue\}'$/)
    expect(
      para(r.ast.body[0])
        .filter((i) => i.k === 'alt')
        .map((i) => (i.k === 'alt' ? i.mode : '')),
    ).toEqual(['cycle', 'shuffle', 'once', 'seq'])
  })

  it('leaves {if} with a | in a string, and ink conditionals, to the command parser', () => {
    expect(where('{if n == "a|b"}x{end}')).toEqual([])
    expect(where('A {n > 1: many|few}.')).toEqual(['story/unknown-command@1:3'])
  })

  it('bounds nesting without exhausting the stack', () => {
    const deep = `${'{seq a|'.repeat(200)}b${'}'.repeat(200)}`
    const r = at11(deep)
    expect(r.diagnostics.map((d) => d.code)).toEqual(['story/bad-expression'])
  })

  it('reads the same text at 1.0 exactly as before (unknown commands)', () => {
    const src = 'A {seq a|b} and {cycle}.\n{once}\nX\n{or}\nY\n{end}'
    expect(where(src, at10)).toEqual([
      'story/unknown-command@1:3',
      'story/unknown-command@1:17',
      'story/unknown-command@2:1',
      'story/unknown-command@4:1',
      'story/unexpected-end@6:1',
    ])
    expect(JSON.stringify(at10(src).ast)).not.toContain('"alt"')
  })
})

describe('block alternatives (1.1)', () => {
  it('reads branches separated by {or} up to {end}, holding what {if} branches hold', () => {
    const r = at11(
      '# Inn [#inn]\n{shuffle}\nA fire.\n{set n = 1}\n{or}\n{if n}\nWarm.\n{end}\n{or}\n{end}\nAfter.',
    )
    expect(r.diagnostics).toEqual([])
    const alt = r.ast.body[1]
    expect(alt).toMatchObject({ kind: 'alt', mode: 'shuffle', id: 'inn~1' })
    if (alt?.kind !== 'alt') return
    expect(alt.branches.map((b) => b.map((n) => n.kind))).toEqual([['paragraph', 'set'], ['if'], []])
    expect(r.ast.body[2]).toMatchObject({ kind: 'paragraph' })
  })

  it('nests blocks and inline alternatives, numbering the outer one first', () => {
    const r = at11('{seq}\n{cycle}\nA {once x|y}\n{end}\n{or}\nB\n{end}')
    expect(r.diagnostics).toEqual([])
    const outer = r.ast.body[0]
    if (outer?.kind !== 'alt') throw new Error('not an alternative')
    expect(outer.id).toBe('h0~1')
    expect(outer.branches[0]![0]).toMatchObject({ kind: 'alt', id: 'h0~2' })
  })

  it('reports a missing {end}, a stray {or}, an empty block and an {or} inside an {if}', () => {
    expect(where('{seq}\nA')).toEqual(['story/missing-end@1:1'])
    expect(where('A\n{or}')).toEqual(['story/unexpected-end@2:1'])
    expect(where('{cycle}\n{end}')).toEqual(['story/empty-alternative@1:1'])
    expect(at11('{cycle}\n{end}').diagnostics[0]!.message).toMatch(/separated by '\{or\}' lines$/)
    expect(where('{seq}\n{if x}\nA\n{or}\nB\n{end}\n{end}')).toEqual(['story/missing-end@4:1'])
    // on a text line, `{seq}` is an inline alternative, and an empty one
    expect(where('{seq} more')).toEqual(['story/empty-alternative@1:1'])
    expect(where('{or x}')).toEqual(['story/bad-expression@1:5'])
  })

  it('works inside an {if} and an option body', () => {
    const r = at11('{if true}\n{seq}\nA\n{or}\nB\n{end}\n{end}\n* Go\n  {once}\n  C\n  {end}\n  D')
    expect(r.diagnostics).toEqual([])
    expect(r.ast.body.map((n) => n.kind)).toEqual(['if', 'group'])
  })

  it('names alternatives in a passage after the passage', () => {
    const r = parseModule('{passage greet(n)}\n{cycle Hi|Hello} ${n}.\n{once}\nFirst.\n{end}\n{end}', {
      path: 'extensions/lib.xty',
      lang: '1.1',
    })
    expect(r.diagnostics).toEqual([])
    const body = r.ast.passages[0]!.body
    expect(para(body[0])[0]).toMatchObject({ k: 'alt', id: 'greet~1' })
    expect(body[1]).toMatchObject({ kind: 'alt', id: 'greet~2' })
  })
})

describe('visits() and turns() of every id (1.1)', () => {
  it('reads part targets as the argument of visits() and turns()', () => {
    const r = at11(
      '${visits(b.sty)} ${visits(story/b.sty:hall)} ${turns(b.sty:hall)} ${turns()} ${turns(#x)}\n[#x]',
    )
    expect(r.diagnostics).toEqual([])
    const args = para(r.ast.body[0])
      .filter((i) => i.k === 'interp')
      .map((i) => (i.k === 'interp' && i.e.k === 'call' ? strip(i.e.args) : []))
    expect(args).toEqual([
      [{ k: 'target', target: 'b.sty' }],
      [{ k: 'target', target: 'story/b.sty:hall' }],
      [{ k: 'target', target: 'b.sty:hall' }],
      [],
      [{ k: 'ref', id: 'x' }],
    ])
  })

  it('accepts every id of the file at 1.1; 1.0 still takes headings only', () => {
    const src = '[#spot]\n[#g]\n* Go [#opt]\n${visits(#spot)} ${visits(#g)} ${visits(#opt)} ${turns(#spot)}'
    expect(where(src)).toEqual([])
    expect(where(src, at10)).toEqual([
      'story/unknown-id@4:10',
      'story/unknown-id@4:27',
      'story/unknown-id@4:41',
    ])
    expect(where('${visits(#nope)} ${turns(#nope)}')).toEqual([
      'story/unknown-id@1:10',
      'story/unknown-id@1:26',
    ])
  })

  it('reports a target that escapes the archive, and turns() of a whole part', () => {
    expect(where('${visits(../b.sty:x)}')).toEqual(['story/bad-target@1:10'])
    expect(where('${turns(b.sty)}')).toEqual(['story/bad-target@1:9'])
    expect(at11('${turns(b.sty)}').diagnostics[0]!.message).toMatch(/write 'turns\(b\.sty:id\)'$/)
  })

  it('reads a part target at 1.0 as before (a syntax error)', () => {
    expect(where('${visits(b.sty:x)}', at10)).toEqual(['story/bad-expression@1:15'])
  })
})
