// biome-ignore-all lint/suspicious/noTemplateCurlyInString: story sources use ${} interpolation
/**
 * Completion and hover inside the 1.1 constructs: ids after `-> #` in a tunnel call and `<- #` in
 * a thread, the ids and part targets `visits()` and `turns()` count, the items of the set a
 * `{set bag += …}` or `contains(bag, …)` takes, block functions and their parameters, `{temp}`s
 * (of the section, or of the function), a part's `{const}`s (in that part only), and the command
 * keywords, 1.1's only at 1.1.
 */
import { describe, expect, it } from 'vitest'
import { type CompletionEntry, complete, hover } from '../src/analysis/features.ts'
import { StoryFolder } from '../src/node/story-folder.ts'
import { startClient, writeFolder } from './helpers/lsp-client.ts'

const INN = 'story/0001-inn.sty'
const ROAD = 'story/0002-road.sty'
const KIT = 'extensions/kit.xty'

const FILES: Record<string, string> = {
  [INN]: [
    '{use kit}', // 1
    '{const MAX = 3}',
    '{items Moods = calm, wary}',
    '{set mood = Moods.calm}',
    '# The Inn [#inn]', // 5
    '{temp depth = 10}',
    '-> #cellar ->',
    '<- #gossip',
    '{if visits(#bar) > 0 and turns(#drink) < MAX}Again, ${depth} deep.{end}',
    '[#bar]', // 10
    '* Drink [#drink]',
    '  {set bag += Tools.lamp}',
    '* Hello[.] there',
    '  hi',
    '# Cellar [#cellar]', // 15
    '{temp dark = true}',
    '->->',
    '# Gossip [#gossip]',
    '* Listen',
    '  x', // 20
    '',
  ].join('\n'),
  [ROAD]: ['# The Road [#road]', '[#fork]', '* Left [#left]', '  l', '* Right', '  r', ''].join('\n'),
  [KIT]: [
    '{items Tools = rope, lamp, key}', // 1
    '{set bag = Tools(rope)}',
    '{fn pay(cost, ref purse)}',
    '{temp left = purse - cost}',
    '{if left < 0}', // 5
    '{return false}',
    '{end}',
    '{set purse = left}',
    '{return true}',
    '{end}', // 10
    '{fn twice(n) = n * 2}',
    '',
  ].join('\n'),
}

function folder(storyLang: string): StoryFolder {
  const manifest = JSON.stringify({ story_lang: storyLang, parts: [INN, ROAD] })
  return new StoryFolder(writeFolder({ 'manifest.json': manifest, ...FILES }), true)
}

/**
 * Completes at the end of `probe`, a line put after line `after` (1-based) of `path`, or at the
 * `|` in it: what the editor asks as the author types there.
 */
function completeAt(f: StoryFolder, path: string, after: number, probe: string): CompletionEntry[] {
  const lines = FILES[path]!.split('\n')
  const character = probe.includes('|') ? probe.indexOf('|') : probe.length
  lines.splice(after, 0, probe.replace('|', ''))
  f.setText(path, lines.join('\n'))
  try {
    return complete(f, path, { line: after, character })
  } finally {
    f.setText(path, FILES[path]!)
  }
}

const labels = (items: CompletionEntry[]) => items.map((i) => i.label)

/** Hovers the first `word` on line `line` (1-based) of `path`. */
function hoverOn(f: StoryFolder, path: string, line: number, word: string, nth = 0): string | undefined {
  const text = FILES[path]!.split('\n')[line - 1]!
  let at = -1
  for (let i = 0; i <= nth; i++) at = text.indexOf(word, at + 1)
  expect(at, `${word} on line ${line}`).toBeGreaterThanOrEqual(0)
  return hover(f, path, { line: line - 1, character: at + 1 })
}

describe('completion in the 1.1 constructs', () => {
  const v11 = folder('1.1')
  const v10 = folder('1.0')

  it('offers the ids of the part after -> # in a tunnel call and after <- # in a thread', () => {
    const tunnel = completeAt(v11, INN, 6, '-> #|c ->')
    expect(labels(tunnel)).toEqual(['inn', 'bar', 'cellar', 'gossip'])
    const thread = completeAt(v11, INN, 6, '<- #go')
    expect(labels(thread)).toEqual(['gossip'])
    expect(thread[0]!.range).toEqual({ start: { line: 6, character: 4 }, end: { line: 6, character: 6 } })
    expect(labels(completeAt(v11, INN, 16, '->-> #ro'))).toEqual([])
  })

  it('offers what visits(# and turns(# count: every id at 1.1, options too; headings at 1.0', () => {
    expect(labels(completeAt(v11, INN, 6, '{if visits(#'))).toEqual([
      'inn',
      'bar',
      'drink',
      'cellar',
      'gossip',
    ])
    expect(labels(completeAt(v11, INN, 6, '${turns(#d'))).toEqual(['drink'])
    expect(labels(completeAt(v10, INN, 6, '{if visits(#'))).toEqual(['inn', 'cellar', 'gossip'])
    // turns() is not a function of 1.0
    expect(completeAt(v10, INN, 6, '${turns(#d')).toEqual([])
    // passed() and picked() take a group
    expect(labels(completeAt(v11, INN, 6, '{if passed(#'))).toEqual(['bar'])
  })

  it('offers part targets in visits( and turns( at 1.1, options included', () => {
    const road = completeAt(v11, INN, 6, '{if visits(0002-road.sty:')
    expect(labels(road)).toEqual(['0002-road.sty:road', '0002-road.sty:fork', '0002-road.sty:left'])
    expect(road[0]!.range.start.character).toBe(11)
    expect(labels(completeAt(v11, INN, 6, '${turns(0002-road.sty:l'))).toEqual(['0002-road.sty:left'])
    expect(labels(completeAt(v11, INN, 6, '${visits(00'))).toContain('0001-inn.sty:drink')
    expect(labels(completeAt(v10, INN, 6, '{if visits(0002-road.sty:'))).not.toContain('0002-road.sty:road')
  })

  it("offers the items of the set a {set bag += } adds to or contains(bag, ) tests, first and only that set's", () => {
    const add = completeAt(v11, INN, 12, '  {set bag += ')
    expect(labels(add)).toEqual(expect.arrayContaining(['rope', 'lamp', 'key', 'bag', 'len']))
    expect(labels(add)).not.toContain('calm')
    expect(add.filter((i) => i.sortText !== undefined).map((i) => i.label)).toEqual(['rope', 'lamp', 'key'])
    expect(add.find((i) => i.label === 'rope')!.detail).toBe('item of Tools')
    expect(labels(completeAt(v11, INN, 6, '{if contains(bag, l'))).toEqual(['lamp', 'len', 'lower'])
    // a set the part declares: its items, in that part
    expect(labels(completeAt(v11, INN, 6, '{set mood -= '))).toEqual(expect.arrayContaining(['calm', 'wary']))
    expect(labels(completeAt(v11, INN, 6, '{set mood -= '))).not.toContain('rope')
    expect(labels(completeAt(v11, ROAD, 1, '{set x = Mo'))).toEqual([])
    expect(labels(completeAt(v11, ROAD, 1, '{set x = To'))).toEqual(['Tools'])
  })

  it('offers block functions, and in a function its parameters and {temp}s', () => {
    const fns = completeAt(v11, INN, 6, '{if pa')
    expect(fns.map((i) => [i.label, i.kind, i.detail])).toEqual([
      ['pay', 'function', 'module function'],
      ['passed', 'function', 'built-in'],
    ])
    const inside = completeAt(v11, KIT, 7, '{set purse -= ')
    expect(inside.slice(0, 3).map((i) => [i.label, i.detail])).toEqual([
      ['cost', 'parameter of pay'],
      ['purse', 'ref parameter of pay'],
      ['left', 'temp'],
    ])
    expect(labels(completeAt(v11, KIT, 8, '{return le'))).toEqual(['left', 'len'])
    // the one-line function's parameter on its line, and no other function's
    expect(labels(completeAt(v11, KIT, 11, '{fn thrice(k) = k * 3 + |}'))).toContain('k')
    expect(labels(completeAt(v11, KIT, 11, '{fn thrice(k) = k * 3 + |}'))).not.toContain('cost')
    expect(labels(completeAt(v11, KIT, 2, '{set bag = '))).not.toContain('cost')
  })

  it('offers the {temp}s of the section, and a part constant in its part only', () => {
    expect(labels(completeAt(v11, INN, 7, 'At ${de'))).toEqual(['depth'])
    expect(labels(completeAt(v11, INN, 18, 'At ${de'))).toEqual([])
    expect(labels(completeAt(v11, INN, 16, 'At ${da'))).toEqual(['dark'])
    expect(labels(completeAt(v11, INN, 7, 'At ${da'))).toEqual([])
    expect(labels(completeAt(v11, INN, 7, 'At ${MA'))).toEqual(['MAX'])
    expect(labels(completeAt(v11, ROAD, 1, 'At ${MA'))).toEqual([])
  })

  it('offers the command keywords after {, 1.1’s only at 1.1', () => {
    const NEW_IN_PART = ['seq', 'cycle', 'once', 'shuffle', 'or', 'items', 'temp', 'const']
    const part11 = completeAt(v11, INN, 6, '{')
    expect(labels(part11)).toEqual(expect.arrayContaining([...NEW_IN_PART, 'end', 'if', 'set']))
    expect(part11.every((i) => i.kind === 'keyword')).toBe(true)
    expect(part11.find((i) => i.label === 'seq')!.detail).toBe('1.1 command')
    const part10 = labels(completeAt(v10, INN, 6, '{'))
    expect(part10).toEqual(expect.arrayContaining(['end', 'if', 'set', 'else']))
    for (const word of NEW_IN_PART) expect(part10).not.toContain(word)
    // filtered by the prefix, and inside a line of text only what may stand there
    expect(labels(completeAt(v11, INN, 6, '{s'))).toEqual(['set', 'seed', 'seq', 'shuffle'])
    expect(labels(completeAt(v11, INN, 6, 'It is {s'))).toEqual(['set', 'seq', 'shuffle'])
    expect(labels(completeAt(v11, INN, 6, '{e'))).toEqual(['elif', 'else', 'end'])
    expect(labels(completeAt(v11, INN, 6, '{o'))).toEqual(['once', 'or'])
    // a module: {fn} at both versions (1.0 has the one-line form), {return}, {items}, {temp} at 1.1
    const module11 = labels(completeAt(v11, KIT, 11, '{'))
    expect(module11).toEqual(expect.arrayContaining(['fn', 'return', 'items', 'temp', 'const', 'end']))
    const module10 = labels(completeAt(v10, KIT, 11, '{'))
    expect(module10).toEqual(expect.arrayContaining(['fn', 'const', 'passage', 'end']))
    for (const word of ['return', 'items', 'temp', 'seq']) expect(module10).not.toContain(word)
    // not after ${ (an expression) nor an escaped \{
    expect(labels(completeAt(v11, INN, 6, 'x ${s'))).not.toContain('seq')
    expect(completeAt(v11, INN, 6, 'x \\{s')).toEqual([])
  })
})

describe('hover in the 1.1 constructs', () => {
  const f = folder('1.1')

  it('names a {temp} and a part constant, where each is declared and its type', () => {
    expect(hoverOn(f, INN, 9, 'depth')).toBe('`depth`: temporary (number)\n\n- temp in story/0001-inn.sty:6')
    expect(hoverOn(f, INN, 9, 'MAX')).toBe(
      '`MAX`: part constant (number)\n\n- constant in story/0001-inn.sty:2',
    )
  })

  it('shows a block function with its ref parameters, and a parameter or temp inside it', () => {
    f.setText(INN, FILES[INN]!.replace('turns(#drink) < MAX', 'pay(1, mood)'))
    try {
      expect(hover(f, INN, { line: 8, character: 27 })).toBe(
        '`pay(cost, ref purse)`: block function, extensions/kit.xty:3',
      )
    } finally {
      f.setText(INN, FILES[INN]!)
    }
    expect(hoverOn(f, KIT, 8, 'purse')).toBe('`purse`: ref parameter of `pay`, extensions/kit.xty:3')
    expect(hoverOn(f, KIT, 4, 'cost')).toBe('`cost`: parameter of `pay`, extensions/kit.xty:3')
    expect(hoverOn(f, KIT, 8, 'left')).toBe('`left`: temporary\n\n- temp in extensions/kit.xty:4')
    expect(hoverOn(f, KIT, 11, 'n', 2)).toBe('`n`: parameter of `twice`, extensions/kit.xty:11')
  })

  it('shows a set declaration and an item', () => {
    expect(hoverOn(f, KIT, 2, 'Tools')).toBe(
      '`Tools`: set of `rope`, `lamp`, `key`\n\n- declared in extensions/kit.xty:1',
    )
    expect(hoverOn(f, KIT, 2, 'rope')).toBe(
      '`rope`: item of `Tools`\n\n- `Tools.rope` in extensions/kit.xty:1',
    )
    expect(hoverOn(f, INN, 4, 'Moods')).toBe(
      '`Moods`: set of `calm`, `wary`\n\n- declared in story/0001-inn.sty:3',
    )
  })

  it('says what the id of a tunnel call, a thread and a count names, and what turns() does', () => {
    expect(hoverOn(f, INN, 7, 'cellar')).toBe('`#cellar`: heading, story/0001-inn.sty:15')
    expect(hoverOn(f, INN, 8, 'gossip')).toBe('`#gossip`: heading, story/0001-inn.sty:18')
    expect(hoverOn(f, INN, 9, 'drink')).toBe('`#drink`: option, story/0001-inn.sty:11')
    expect(hoverOn(f, INN, 9, 'turns')).toContain('turns() (1.1): the pauses answered so far')
  })
})

describe('the 1.1 completions through the server', () => {
  it('sends keywords as Keyword items and the items of a set first (sortText)', async () => {
    const manifest = JSON.stringify({ story_lang: '1.1', parts: [INN, ROAD] })
    const client = await startClient(writeFolder({ 'manifest.json': manifest, ...FILES }), {
      debounceMs: 0,
      fullCheckDelayMs: 60_000,
    })
    try {
      type Item = { label: string; kind: number; sortText?: string; textEdit: { newText: string } }
      const text = `${FILES[INN]!}{sh\n{set bag += \n`
      client.open(INN, text)
      await client.diagnostics(INN)
      const keywords = await client.request<Item[]>('textDocument/completion', INN, 20, 3)
      expect(keywords.map((i) => [i.label, i.kind, i.textEdit.newText])).toEqual([['shuffle', 14, 'shuffle']])
      const add = await client.request<Item[]>('textDocument/completion', INN, 21, 13)
      expect(add.filter((i) => i.sortText !== undefined).map((i) => [i.label, i.sortText])).toEqual([
        ['rope', '0rope'],
        ['lamp', '0lamp'],
        ['key', '0key'],
      ])
    } finally {
      await client.close()
    }
  })
})
