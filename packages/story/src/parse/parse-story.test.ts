// biome-ignore-all lint/suspicious/noTemplateCurlyInString: story sources use ${} interpolation
import { describe, expect, it } from 'vitest'
import { body, parse, strip, where } from '../../test/helpers/parse.ts'
import type { Node } from '../ast.ts'
import { parseStory } from './parse-story.ts'

const first = (src: string): Node => body(src)[0]!

describe('source text (section 1)', () => {
  it('accepts LF, CRLF and CR line ends and ignores a BOM', () => {
    for (const nl of ['\n', '\r\n', '\r']) {
      const b = body(`\ufeff# A${nl}text${nl}more`)
      expect(b.map((n) => [n.kind, n.pos.line])).toEqual([
        ['heading', 1],
        ['paragraph', 2],
      ])
    }
  })

  it('decodes bytes as UTF-8', () => {
    const r = parseStory(new TextEncoder().encode('Caf\u00e9 ${x}'), { path: 'b.sty' })
    expect(r.diagnostics).toEqual([])
    expect(strip(r.ast.body[0])).toMatchObject({
      kind: 'paragraph',
      lines: [[{ k: 'text', v: 'Café ' }, {}]],
    })
  })

  it('counts columns in code points', () => {
    const r = parse('\u{1F600}\u{1F600} ${')
    expect(where(r.diagnostics)).toEqual(['story/unclosed-interpolation@1:4'])
  })

  it('expands tabs to the next multiple of 4 for indentation', () => {
    const b = body('* A\n\tbody\n  \tsame')
    const g = b[0] as Extract<Node, { kind: 'group' }>
    expect(g.options[0]!.body).toHaveLength(1)
  })

  it('skips comments and blank lines', () => {
    expect(body('// a comment\n\n   // another\ntext').map((n) => n.kind)).toEqual(['paragraph'])
  })

  it('treats a backslash before ASCII punctuation as a literal character', () => {
    const p = first('\\*not em\\* \\# and \\{brace\\} C:\\temp')
    expect(strip(p)).toMatchObject({ lines: [[{ k: 'text', v: '*not em* # and {brace} C:\\temp' }]] })
  })
})

describe('paragraphs and inline content (section 2)', () => {
  it('joins text lines into one paragraph; other line kinds end it', () => {
    const b = body('one\ntwo\n\nthree\n# H\nfour')
    expect(b.map((n) => n.kind)).toEqual(['paragraph', 'paragraph', 'heading', 'paragraph'])
    expect(strip(b[0])).toMatchObject({
      lines: [
        [
          { k: 'text', v: 'one' },
          { k: 'text', v: ' ' },
          { k: 'text', v: 'two' },
        ],
      ],
    })
  })

  it('turns a trailing backslash into a line break, but not an escaped one', () => {
    expect(strip(first('a\\\nb'))).toMatchObject({
      lines: [[{ k: 'text', v: 'a' }, { k: 'break' }, { k: 'text', v: 'b' }]],
    })
    expect(strip(first('a\\\\\nb'))).toMatchObject({
      lines: [
        [
          { k: 'text', v: 'a\\' },
          { k: 'text', v: ' ' },
          { k: 'text', v: 'b' },
        ],
      ],
    })
  })

  it('parses interpolation, inline if/elif/else and inline set', () => {
    const p = first('${n} coin{if n == 1}{elif n == 0}s!{else}s{end}.{set seen = true}')
    expect(strip(p)).toEqual({
      kind: 'paragraph',
      tags: [],
      lines: [
        [
          { k: 'interp', e: { k: 'name', name: 'n' } },
          { k: 'text', v: ' coin' },
          {
            k: 'if',
            branches: [
              { cond: { k: 'bin', op: '==', a: { k: 'name', name: 'n' }, b: { k: 'num', v: 1 } }, body: [] },
              {
                cond: { k: 'bin', op: '==', a: { k: 'name', name: 'n' }, b: { k: 'num', v: 0 } },
                body: [{ k: 'text', v: 's!' }],
              },
            ],
            otherwise: [{ k: 'text', v: 's' }],
          },
          { k: 'text', v: '.' },
          { k: 'set', stmt: { name: 'seen', op: '=', e: { k: 'bool', v: true } } },
        ],
      ],
    })
  })

  it('lets an inline if span the lines of one paragraph', () => {
    const p = strip(first('a {if x}b\nc{end} d'))
    expect(p).toMatchObject({ lines: [[{ k: 'text', v: 'a ' }, { k: 'if' }, { k: 'text', v: ' d' }]] })
  })

  it('marks ** and * as style delimiters for the renderer', () => {
    const p = strip(first('**bold** and *em*'))
    expect(p).toMatchObject({
      lines: [
        [
          { k: 'delim', n: 2 },
          { k: 'text', v: 'bold' },
          { k: 'delim', n: 2 },
          { k: 'text', v: ' and ' },
          { k: 'delim', n: 1 },
          { k: 'text', v: 'em' },
          { k: 'delim', n: 1 },
        ],
      ],
    })
  })

  it('parses links whose target is valid and keeps other brackets as text', () => {
    const p = strip(first('Go [the *forest* path > 0003-forest.sty:edge] or [a > b] or [plain]'))
    expect(p).toMatchObject({
      lines: [
        [
          { k: 'text', v: 'Go ' },
          {
            k: 'link',
            target: '0003-forest.sty:edge',
            body: [
              { k: 'text', v: 'the ' },
              { k: 'delim', n: 1 },
              { k: 'text', v: 'forest' },
              { k: 'delim', n: 1 },
              { k: 'text', v: ' path' },
            ],
          },
          { k: 'text', v: ' or [a > b] or [plain]' },
        ],
      ],
    })
  })

  it('accepts a scene id after a part name that starts with a letter', () => {
    expect(strip(first('[Go > b.sty:edge]'))).toMatchObject({
      lines: [[{ k: 'link', target: 'b.sty:edge' }]],
    })
    expect(body('[[ b.sty:edge ]]')[0]).toMatchObject({ kind: 'gate', target: 'b.sty:edge' })
  })

  it('uses the part after the last " > " as the link target', () => {
    const p = strip(first('[a > b > story/x.sty]'))
    expect(p).toMatchObject({
      lines: [[{ k: 'link', target: 'story/x.sty', body: [{ k: 'text', v: 'a > b' }] }]],
    })
  })

  it('splits tags off text lines, outside braces and brackets, and honours \\#', () => {
    const p = first('Cold ${"a #b"} [x #y > p.sty] \\#no #mood:cold #loud')
    expect(p).toMatchObject({ kind: 'paragraph', tags: ['mood:cold', 'loud'] })
    expect(strip(p)).toMatchObject({
      lines: [[{}, { k: 'interp' }, {}, { k: 'link', target: 'p.sty' }, { k: 'text', v: ' #no' }]],
    })
  })

  it('does not take "#" inside a word or followed by a space as a tag', () => {
    expect(first('issue#4 and # alone')).toMatchObject({ tags: [] })
  })

  it('keeps tag lines that no block follows as a tags node', () => {
    expect(strip(body('Text.\n#a\n* opt\n#b'))).toMatchObject([
      { kind: 'paragraph' },
      { kind: 'group' },
      { kind: 'tags', tags: ['a', 'b'] },
    ])
    expect(body('Text.\n#a')[1]!.pos).toEqual({ line: 2, column: 1 })
  })

  it('gives tag lines to the next block', () => {
    const b = body('Intro.\n#a #b:c\n#d\n# Heading #e')
    expect(b[1]).toMatchObject({ kind: 'heading', tags: ['a', 'b:c', 'd', 'e'] })
  })

  it('parses media blocks with their kind, alt text and options', () => {
    const b = body(
      '![A *room*](assets/inn.webp) #fullscreen\n![](music/theme.OGG) #loop\n![Intro](v/intro.mp4)',
    )
    expect(strip(b)).toEqual([
      { kind: 'media', path: 'assets/inn.webp', alt: 'A *room*', media: 'image', tags: ['fullscreen'] },
      { kind: 'media', path: 'music/theme.OGG', alt: '', media: 'audio', tags: ['loop'] },
      { kind: 'media', path: 'v/intro.mp4', alt: 'Intro', media: 'video', tags: [] },
    ])
  })

  it('knows every media extension of the language', () => {
    const kinds: Record<string, string> = {}
    for (const e of 'png jpg jpeg gif webp avif svg ogg oga opus mp3 m4a wav flac mp4 webm'.split(' '))
      kinds[e] = (first(`![](a.${e})`) as Extract<Node, { kind: 'media' }>).media
    expect(Object.values(kinds)).toEqual([
      ...Array(7).fill('image'),
      ...Array(7).fill('audio'),
      ...Array(2).fill('video'),
    ])
  })
})

describe('headings, sections and flow (section 3)', () => {
  it('parses heading levels, explicit ids, tags and silent sections', () => {
    const b = body('# One\n## Two [#two] #t\n###### Six\n## [#quiet]')
    expect(strip(b)).toEqual([
      {
        kind: 'heading',
        level: 1,
        id: 'h1',
        explicitId: false,
        label: [{ k: 'text', v: 'One' }],
        tags: [],
        silent: false,
      },
      {
        kind: 'heading',
        level: 2,
        id: 'two',
        explicitId: true,
        label: [{ k: 'text', v: 'Two' }],
        tags: ['t'],
        silent: false,
      },
      {
        kind: 'heading',
        level: 6,
        id: 'h3',
        explicitId: false,
        label: [{ k: 'text', v: 'Six' }],
        tags: [],
        silent: false,
      },
      { kind: 'heading', level: 2, id: 'quiet', explicitId: true, label: [], tags: [], silent: true },
    ])
  })

  it('needs a space after the hashes for a heading; #x is a tag line', () => {
    expect(body('Intro.\n#tag\ntext')[1]).toMatchObject({ kind: 'paragraph', tags: ['tag'] })
    const r = parse('# H\n####### seven\ntext')
    expect(r.ast.body[1]).toMatchObject({ kind: 'paragraph', tags: ['######'] })
    expect(where(r.diagnostics)).toEqual(['story/tag-text@2:9'])
  })

  it('interpolates in headings', () => {
    expect(strip(first('# Day ${day}'))).toMatchObject({ label: [{ k: 'text', v: 'Day ' }, { k: 'interp' }] })
  })

  it('parses anchors, jumps and -> END', () => {
    const b = body('[#top]\ntext\n-> #top')
    expect(strip(b)).toEqual([
      { kind: 'anchor', id: 'top' },
      { kind: 'paragraph', lines: [[{ k: 'text', v: 'text' }]], tags: [] },
      { kind: 'jump', target: 'top' },
    ])
    expect(first('-> END')).toMatchObject({ kind: 'jump', target: null })
  })

  it('lets a jump name an implicit heading id', () => {
    expect(parse('# A\ntext\n-> #h1').diagnostics).toEqual([])
  })

  it('parses gates with and without a scene id, relative or archive-relative', () => {
    const b = body('[[ 0002-road.sty ]]\n# S\n[[story/0003-forest.sty:edge]]')
    expect(b[0]).toMatchObject({ kind: 'gate', target: '0002-road.sty' })
    expect(b[2]).toMatchObject({ kind: 'gate', target: 'story/0003-forest.sty:edge' })
  })

  it('records jump positions at the # or END', () => {
    const j = first('  -> END')
    expect(j.pos).toEqual({ line: 1, column: 6 })
  })
})

describe('declaration block and variables (section 4)', () => {
  it('reads tags, {use}, {seed} and defaults from the leading lines', () => {
    const r = parse(
      '// intro\n#theme:night\n{use combat}\n{seed 42}\n\n{set gold = 5}\n{use extensions/x.xty}\nText\n{set gold = 1}',
    )
    expect(r.diagnostics).toEqual([])
    expect(strip(r.ast.declarations)).toEqual({
      tags: ['theme:night'],
      uses: [{ module: 'combat' }, { module: 'extensions/x.xty' }],
      seed: { value: 42 },
      defaults: [{ name: 'gold', op: '=', e: { k: 'num', v: 5 } }],
    })
    expect(r.ast.body.map((n) => n.kind)).toEqual(['paragraph', 'set'])
  })

  it('ends the declaration block at the first other line', () => {
    const r = parse('{set a = 1}\n# H\n{set b = 2}')
    expect(r.ast.declarations.defaults.map((d) => d.name)).toEqual(['a'])
    expect(r.ast.body[1]).toMatchObject({ kind: 'set', stmt: { name: 'b' } })
  })

  it('parses assignments with =, += and -=', () => {
    const b = body('text\n{set a = 1}\n{set a += 2}\n{set a -= 3}')
    expect(b.slice(1).map((n) => (n as Extract<Node, { kind: 'set' }>).stmt.op)).toEqual(['=', '+=', '-='])
  })

  it('parses {local} inside a section', () => {
    expect(strip(body('# Bar\n{local asked = 0}')[1])).toEqual({
      kind: 'local',
      name: 'asked',
      e: { k: 'num', v: 0 },
    })
  })

  it('parses block {if}/{elif}/{else}/{end} with nested content', () => {
    const b = body('{if a}\nA\n{elif b}\nB\n{if c}\nC\n{end}\n{else}\nD\n{end}\nafter')
    expect(b.map((n) => n.kind)).toEqual(['if', 'paragraph'])
    const node = b[0] as Extract<Node, { kind: 'if' }>
    expect(node.branches.map((x) => x.body.map((n) => n.kind))).toEqual([['paragraph'], ['paragraph', 'if']])
    expect(node.otherwise.map((n) => n.kind)).toEqual(['paragraph'])
  })
})

describe('choice groups (section 5)', () => {
  const group = (src: string) => body(src).find((n) => n.kind === 'group') as Extract<Node, { kind: 'group' }>

  it('parses once-only, sticky, guarded and fallback options with bodies', () => {
    const g = group('* Once\n  body one\n+ Sticky\n* {if gold >= 2} Guarded #cost:2\n* -> #x\n[#x]')
    expect(strip(g.options).map((o) => ({ ...o, label: o.label.length }))).toEqual([
      {
        kind: 'option',
        sticky: false,
        id: '1',
        explicitId: false,
        label: 1,
        fallback: false,
        tags: [],
        body: [{ kind: 'paragraph', lines: [[{ k: 'text', v: 'body one' }]], tags: [] }],
      },
      {
        kind: 'option',
        sticky: true,
        id: '2',
        explicitId: false,
        label: 1,
        fallback: false,
        tags: [],
        body: [],
      },
      {
        kind: 'option',
        sticky: false,
        id: '3',
        explicitId: false,
        guard: { k: 'bin', op: '>=', a: { k: 'name', name: 'gold' }, b: { k: 'num', v: 2 } },
        label: 1,
        fallback: false,
        tags: ['cost:2'],
        body: [],
      },
      {
        kind: 'option',
        sticky: false,
        id: '4',
        explicitId: false,
        label: 0,
        fallback: true,
        jump: { kind: 'jump', target: 'x' },
        tags: [],
        body: [],
      },
    ])
  })

  it('reads an option line from the end: tags, then [#id], then the jump', () => {
    const g = group('# S [#s]\n+ {if ok} Leave now -> END [#leave] #exit #fast')
    expect(g.options[0]).toMatchObject({
      id: 'leave',
      explicitId: true,
      tags: ['exit', 'fast'],
      jump: { target: null },
      label: [{ k: 'text', v: 'Leave now' }],
    })
    expect(g.options[0]!.guard).toBeDefined()
  })

  it('accepts a bare bullet as a fallback', () => {
    expect(group('* A\n*').options[1]).toMatchObject({ fallback: true, id: '2' })
  })

  it('groups options at equal indentation across blank lines and comments', () => {
    // (the blank line before `text` makes the second group deliberate: see story/dedented-body)
    const b = body('* A\n\n// note\n* B\n\ntext\n* C')
    expect(b.map((n) => n.kind)).toEqual(['group', 'paragraph', 'group'])
    expect((b[0] as Extract<Node, { kind: 'group' }>).options).toHaveLength(2)
  })

  it('names a group by the anchor directly above it; otherwise <section>@<k>', () => {
    const b = body('* a\n# Inn [#inn]\n* b\n[#talk]\n* c\n* d\n  * nested\n## Room\n* e')
    const groups: string[] = []
    const walk = (ns: Node[]) => {
      for (const n of ns)
        if (n.kind === 'group') {
          groups.push(n.id)
          for (const o of n.options) walk(o.body)
        }
    }
    walk(b)
    expect(groups).toEqual(['h0@1', 'inn@1', 'talk', 'inn@3', 'h2@1'])
  })

  it('keeps a heading inside an option body from shifting the section of later groups', () => {
    const b = body('# A [#a]\n* Go\n  ## Sub [#sub]\n  * inner\n* Stay\n\nafter\n* next')
    const g = b.filter((n) => n.kind === 'group') as Array<Extract<Node, { kind: 'group' }>>
    const inner = g[0]!.options[0]!.body.find((n) => n.kind === 'group') as Extract<Node, { kind: 'group' }>
    expect([g[0]!.id, inner.id, g[1]!.id]).toEqual(['a@1', 'sub@1', 'a@2'])
  })

  it('does not name a group by an anchor separated by a blank line', () => {
    const b = body('[#spot]\n\n* a')
    expect(b.map((n) => n.kind)).toEqual(['anchor', 'group'])
    expect(b[1]).toMatchObject({ id: 'h0@1', explicitId: false })
  })

  it('parses nested groups in option bodies', () => {
    const g = group('* Outer\n  * Inner\n    deep\n  after inner\n* Second')
    expect(g.options).toHaveLength(2)
    expect(g.options[0]!.body.map((n) => n.kind)).toEqual(['group', 'paragraph'])
  })

  it('parses a trailing jump in an option body and content after the group', () => {
    const b = body('* A\n  text\n  -> #end\nafter\n[#end]')
    expect((b[0] as Extract<Node, { kind: 'group' }>).options[0]!.body.map((n) => n.kind)).toEqual([
      'paragraph',
      'jump',
    ])
    expect(b[1]!.kind).toBe('paragraph')
  })
})

describe('module use in parts (section 8)', () => {
  it('parses {insert} and {call} lines and module function calls', () => {
    const b = body('{insert status("You", 2)}\n{insert divider}\n{call audio.play("door", 0.5)}\n${hurt(3)}')
    expect(strip(b.slice(0, 3))).toEqual([
      {
        kind: 'insert',
        name: 'status',
        args: [
          { k: 'str', v: 'You' },
          { k: 'num', v: 2 },
        ],
      },
      { kind: 'insert', name: 'divider', args: [] },
      {
        kind: 'call',
        ns: 'audio',
        fn: 'play',
        args: [
          { k: 'str', v: 'door' },
          { k: 'num', v: 0.5 },
        ],
      },
    ])
    expect(strip(b[3])).toMatchObject({ lines: [[{ k: 'interp', e: { k: 'call', callee: 'hurt' } }]] })
  })
})
