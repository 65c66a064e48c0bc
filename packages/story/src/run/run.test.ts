// biome-ignore-all lint/suspicious/noTemplateCurlyInString: the story language interpolates with ${}
/**
 * The interpreter's flow: blocks and inline styles, sections and visits, jumps, gates, links,
 * choice groups, scopes, modules, host calls and the flow-level runtime diagnostics.
 */
import { describe, expect, it } from 'vitest'
import { memorySource, play } from '../../test/helpers/play.ts'
import { createStoryRun } from './create-story-run.ts'
import { resumeStoryRun } from './resume-story-run.ts'
import type { StoryEvent } from './types.ts'

const texts = (events: StoryEvent[]) => events.flatMap((e) => (e.type === 'block' ? [e.block.text] : []))
const codes = (events: StoryEvent[]) =>
  events.flatMap((e) => (e.type === 'diagnostic' ? [e.diagnostic.code] : []))
const one = (text: string, answers: string[] = [], session = {}) =>
  play(memorySource({ 'x.sty': text }, { session }), answers, { seed: 1 })

describe('blocks and inline content', () => {
  it('joins lines with a space, collapses spaces after interpolation and trims', async () => {
    const { events } = await one('{set s = "  two   spaces "}\n  Hello   there,\n   and ${s} here.  ')
    expect(texts(events)).toEqual(['Hello there, and two spaces here.'])
  })
  it('breaks a line at a trailing backslash, dropping the spaces around it', async () => {
    const { events } = await one('Roses are red,   \\\n     violets blue.')
    expect(texts(events)).toEqual(['Roses are red,\nviolets blue.'])
  })
  it('keeps an escaped backslash and a backslash before a letter literal', async () => {
    const { events } = await one('Path C:\\temp and \\\\')
    expect(texts(events)).toEqual(['Path C:\\temp and \\'])
  })
  it('styles strong and em, nested, and leaves unmatched or spaced delimiters literal', async () => {
    const { events } = await one('A **bold *and em* text** and 2 * 3 * 4 and *open')
    const b = events.find((e) => e.type === 'block')
    expect(b?.type === 'block' && b.block.runs).toEqual([
      { text: 'A ' },
      { text: 'bold ', strong: true },
      { text: 'and em', strong: true, em: true },
      { text: ' text', strong: true },
      { text: ' and 2 * 3 * 4 and *open' },
    ])
    expect(texts(events)).toEqual(['A bold and em text and 2 * 3 * 4 and *open'])
  })
  it('closes strong and em together with one run of three stars, whichever opened first', async () => {
    const runs = async (text: string) => {
      const b = (await one(text)).events.find((e) => e.type === 'block')
      return b?.type === 'block' ? b.block.runs : []
    }
    expect(await runs('It was ***really*** late.')).toEqual([
      { text: 'It was ' },
      { text: 'really', strong: true, em: true },
      { text: ' late.' },
    ])
    expect(await runs('**bold *and italic***')).toEqual([
      { text: 'bold ', strong: true },
      { text: 'and italic', strong: true, em: true },
    ])
    expect(await runs('*italic **and bold***')).toEqual([
      { text: 'italic ', em: true },
      { text: 'and bold', strong: true, em: true },
    ])
  })
  it('treats an escaped star as text', async () => {
    const { events } = await one('not \\*em\\*')
    expect(texts(events)).toEqual(['not *em*'])
  })
  it('emits nothing for a paragraph that renders empty', async () => {
    const { events } = await one('{if false}hidden{end}\nShown.')
    expect(texts(events)).toEqual(['Shown.'])
  })
  it('tags blocks from their line and from a tag line above', async () => {
    const { lines } = await one('Intro.\n#scene:dawn\nThe sun rises. #light #warm')
    expect(lines[2]).toBe('#1 paragraph "The sun rises." [scene:dawn light warm]')
  })
  it('runs inline {set} and {if}/{elif}/{else} in order', async () => {
    const { events } = await one('{set n = 2}{if n == 1}one{elif n == 2}two{else}many{end}{set n = 5} ${n}')
    expect(texts(events)).toEqual(['two 5'])
  })
  it('emits media blocks with kind, path, alt and tags', async () => {
    const { events } = await one('![A horn](sfx/horn.ogg) #loop\n![](film/intro.webm)')
    const media = events.flatMap((e) => (e.type === 'block' ? [e.block] : []))
    expect(media).toEqual([
      {
        kind: 'media',
        media: 'audio',
        path: 'sfx/horn.ogg',
        text: 'A horn',
        runs: [{ text: 'A horn' }],
        tags: ['loop'],
      },
      { kind: 'media', media: 'video', path: 'film/intro.webm', text: '', runs: [], tags: [] },
    ])
  })
})

describe('media checks', () => {
  it('reports story/missing-media when the host says the file is absent, and still emits the block', async () => {
    const src = { ...memorySource({ 'x.sty': 'Intro.\n![Map](img/map.png)' }), hasAsset: () => false }
    const { events } = await play(src, [], { seed: 1 })
    expect(codes(events)).toEqual(['story/missing-media'])
    expect(events.filter((e) => e.type === 'block')).toHaveLength(2)
  })
})

describe('sections, visits and jumps', () => {
  it('counts visits per section, prints the count after the increment, and falls through headings', async () => {
    const { events, run } = await one(
      '# Hall\nHall ${visits()}.\n## Stair [#stair]\nStair ${visits()}, hall ${visits(#h1)}.\n{if visits() < 3}\n-> #stair\n{end}\nDone ${visits()}.',
    )
    expect(texts(events)).toEqual([
      'Hall',
      'Hall 1.',
      'Stair',
      'Stair 1, hall 1.',
      'Stair',
      'Stair 2, hall 1.',
      'Stair',
      'Stair 3, hall 1.',
      'Done 3.',
    ])
    expect(run.saveState().variables).toMatchObject({ 'x.sty:h1@visits': 1, 'x.sty:stair@visits': 3 })
  })
  it('counts entries into the part for visits() in h0', async () => {
    const { events } = await one('Entered ${visits()} time(s).')
    expect(texts(events)).toEqual(['Entered 1 time(s).'])
  })
  it('jumps to an anchor without emitting anything for it, and -> END ends', async () => {
    const { lines } = await one('-> #later\nSkipped.\n[#later]\nLater.\n-> END\nNever.')
    expect(lines.filter((l) => !l.startsWith('!'))).toEqual([
      '== part x.sty',
      '#0 paragraph "Later."',
      '-- end',
    ])
  })
  it('emits no block for a silent section but counts it', async () => {
    const { events, run } = await one('## [#quiet]\nInside.')
    expect(texts(events)).toEqual(['Inside.'])
    expect(run.saveState().variables['x.sty:quiet@visits']).toBe(1)
  })
  it('runs block {if}/{elif}/{else}', async () => {
    const { events } = await one(
      '{set n = 3}\n{if n < 2}\nsmall\n{elif n < 5}\nmedium\n{else}\nlarge\n{end}\nafter',
    )
    expect(texts(events)).toEqual(['medium', 'after'])
  })
})

describe('choice groups', () => {
  it('offers options in source order, sticky ones again, and continues after the group', async () => {
    const story = '[#g]\n* Once\n  A.\n+ Again\n  B.\nAfter.\n-> #g'
    const { lines } = await one(story, ['1', '2', '2'])
    expect(lines.filter((l) => l.startsWith('?'))).toEqual([
      '? [x.sty:g] 1 "Once" | 2 "Again"',
      '? [x.sty:g] 2 "Again"',
      '? [x.sty:g] 2 "Again"',
      '? [x.sty:g] 2 "Again"',
    ])
  })
  it('keeps once-only options gone in a long loop, before and after its record grows past 16 entries', async () => {
    // 20 sticky choices make the record long; then the five once-only options go one by one.
    const once = ['a', 'b', 'c', 'd', 'e']
    const story = `[#g]\n${once.map((o) => `* ${o}`).join('\n')}\n+ stay\n+ -> END\n-> #g`
    const answers = [...Array<string>(20).fill('6'), '3', '1', '5', '2', '4']
    const { lines, run } = await one(story, answers)
    const offered = lines.filter((l) => l.startsWith('?')).map((l) => l.replace(/"[^"]*"/g, '').trim())
    expect(offered.slice(19, 21)).toEqual([
      '? [x.sty:g] 1  | 2  | 3  | 4  | 5  | 6',
      '? [x.sty:g] 1  | 2  | 3  | 4  | 5  | 6',
    ])
    expect(offered.slice(21)).toEqual([
      '? [x.sty:g] 1  | 2  | 4  | 5  | 6',
      '? [x.sty:g] 2  | 4  | 5  | 6',
      '? [x.sty:g] 2  | 4  | 6',
      '? [x.sty:g] 4  | 6',
      '? [x.sty:g] 6',
    ])
    expect(run.saveState().choices['x.sty:g']).toEqual(answers)
    // A resume replays the same filtering, then offers the same live pause.
    const resumed = await resumeStoryRun(memorySource({ 'x.sty': story }), run.saveState())
    expect(resumed.diagnostics).toEqual([])
    const after = await play(resumed.run)
    expect(after.lines.filter((l) => l.startsWith('?')).slice(-6)).toEqual(
      lines.filter((l) => l.startsWith('?')).slice(-6),
    )
  })
  it('marks sticky options and carries option tags', async () => {
    const { events } = await one('* Look #eye\n+ Wait')
    const p = events.find((e) => e.type === 'pause')
    expect(p?.type === 'pause' && p.options).toEqual([
      { id: '1', text: 'Look', tags: ['eye'] },
      { id: '2', text: 'Wait', tags: [], sticky: true },
    ])
  })
  it('evaluates guards at arrival and interpolates labels', async () => {
    const { lines } = await one(
      '{set gold = 3}\n* {if gold > 5} Buy\n* Count ${gold} coins\n* {if gold > 1} Tip',
      [],
    )
    expect(lines).toContain('? [x.sty:h0@1] 2 "Count 3 coins" | 3 "Tip"')
  })
  it('takes a sticky fallback every time nothing else is left', async () => {
    const story =
      '{set n = 0}\n[#g]\n* Only\n+ -> #out\n[#out]\n{set n += 1}\n{if n < 3}\n-> #g\n{end}\nDone ${n}.'
    const { lines, run } = await one(story, ['1'])
    expect(lines.filter((l) => /^[>(]/.test(l))).toEqual(['> 1', '(auto) 2', '(auto) 2'])
    expect(lines).toContain('#0 paragraph "Done 3."')
    expect(run.saveState().choices).toEqual({ 'x.sty:g': ['1', '2', '2'] })
  })
  it('warns story/exhausted-group and goes on when nothing is available', async () => {
    const { events, run } = await one('* {if false} Never\nAfter.')
    expect(codes(events)).toEqual(['story/exhausted-group'])
    expect(texts(events)).toEqual(['After.'])
    expect(run.saveState().choices).toEqual({})
    expect(run.saveState().visitedChoiceGroups).toEqual(['x.sty:h0@1'])
  })
  it('numbers implicit groups per section', async () => {
    const { lines } = await one('# A\n* a\n# B\n* b\n* c\n\nText.\n* d', ['1', '1'])
    expect(lines.filter((l) => l.startsWith('?'))).toEqual([
      '? [x.sty:h1@1] 1 "a"',
      '? [x.sty:h2@1] 1 "b" | 2 "c"',
      '? [x.sty:h2@2] 1 "d"',
    ])
  })
  it('runs nested groups in option bodies', async () => {
    const { events } = await one('* Outer\n  In.\n  * Inner\n    Deep.\nEnd.', ['1', '1'])
    expect(texts(events)).toEqual(['In.', 'Deep.', 'End.'])
  })
  it('keeps the section of the group for the options after a body that opens a heading', async () => {
    const { lines } = await one('# A [#a]\n* Go\n  ## Sub [#sub]\n  In ${visits()}.\n* Stay ${visits()}', [
      '1',
    ])
    expect(lines).toContain('? [x.sty:a@1] 1 "Go" | 2 "Stay 1"')
    expect(lines).toContain('#2 paragraph "In 1."')
  })
  it('reports passed() and picked()', async () => {
    const story = '[#door]\n* Knock\n* Leave\n${passed(#door)} ${picked(#door)}'
    const { events } = await one(story, ['2'])
    expect(texts(events)).toEqual(['true 2'])
  })
  it('answers a wrong option with story/invalid-choice and the same pause', async () => {
    const run = createStoryRun(memorySource({ 'x.sty': '* A\n* B' }), { seed: 1 })
    let e = await run.next()
    while (e?.type !== 'pause') e = await run.next()
    run.choose({ option: '9' })
    const d = await run.next()
    expect(d?.type === 'diagnostic' && d.diagnostic.code).toBe('story/invalid-choice')
    expect((await run.next())?.type).toBe('pause')
    run.choose({ option: '2' })
    expect(await run.next()).toMatchObject({ type: 'chosen', option: '2', text: 'B', key: 'x.sty:h0@1' })
    expect((await run.next())?.type).toBe('end')
    expect(await run.next()).toBeUndefined()
    expect(run.ended).toBe(true)
    run.choose({ option: '1' })
  })
})

describe('parts, gates and links', () => {
  const files = {
    'story/a.sty': 'A. Go [east > b.sty:mid] or [west > story/c.sty].\n* Stay\n  Stayed.',
    'story/b.sty': 'B top.\n[#mid]\nB mid.',
    'story/c.sty': '{if false}\n[hidden > b.sty]\n{end}\nC.\n[[ b.sty ]]\nUnreachable.',
  }
  const parts = ['story/a.sty', 'story/c.sty', 'story/b.sty']
  it('offers live links with the options and enters a part at its scene', async () => {
    const { lines } = await play(memorySource(files, { parts }), ['>story/b.sty:mid'], { seed: 1 })
    expect(lines.filter((l) => !l.startsWith('!'))).toEqual([
      '== part story/a.sty',
      '#0 paragraph "A. Go east or west."',
      '? [story/a.sty:h0@1] 1 "Stay" | link "east" → story/b.sty:mid | link "west" → story/c.sty',
      '> link story/b.sty:mid',
      '== part story/b.sty:mid',
      '#0 paragraph "B mid."',
      '-- end',
    ])
  })
  it('kills live links at a decision', async () => {
    const { lines } = await play(memorySource(files, { parts }), ['1'], { seed: 1 })
    expect(lines).toContain('#1 paragraph "Stayed."')
    expect(lines).toContain('== part story/b.sty')
    expect(lines.some((l) => l.includes('@end'))).toBe(false)
  })
  it('does not make links in unrendered content live', async () => {
    const { lines } = await play(memorySource(files, { parts: ['story/c.sty', 'story/b.sty'] }), [], {
      seed: 1,
    })
    expect(lines.some((l) => l.startsWith('?'))).toBe(false)
  })
  it('reports story/load-failed for a part the loader cannot provide', async () => {
    const src = memorySource({ 'a.sty': '[[ gone.sty ]]' }, { parts: ['a.sty'] })
    const { events } = await play(src, [], { seed: 1 })
    expect(codes(events)).toContain('story/load-failed')
    expect(events.at(-1)?.type).toBe('end')
  })
  it('reports story/unknown-id for a scene the part lacks and starts at the top', async () => {
    const src = memorySource(
      { 'story/a.sty': '[[ story/b.sty:nowhere ]]', 'story/b.sty': 'Top.' },
      { parts: ['story/a.sty', 'story/b.sty'] },
    )
    const { events } = await play(src, [], { seed: 1 })
    expect(codes(events)).toContain('story/unknown-id')
    expect(texts(events)).toEqual(['Top.'])
  })
  it('reads parts through an async loader', async () => {
    const src = { parts: ['a.sty'], readPart: async () => 'Async.' }
    const { events } = await play(src, [], { seed: 1 })
    expect(texts(events)).toEqual(['Async.'])
  })
})

describe('variables and scopes', () => {
  it('lets session values beat defaults and runs defaults only for undefined names (no roll drawn)', async () => {
    const src = memorySource(
      { 'x.sty': '{set gold = d6}\n{set hp = 3}\n${gold} ${hp}' },
      { session: { gold: 50 } },
    )
    const { events, run } = await play(src, [], { seed: 5 })
    expect(texts(events)).toEqual(['50 3'])
    expect(run.saveState().rng.state).toBe(5)
  })
  it('warns story/session-name for a key a story cannot read, and ignores null', async () => {
    const src = memorySource({ 'x.sty': 'Hi.' }, { session: { 'bad-key': 1, gone: null, and: 2, ok: 1 } })
    const { events, run } = await play(src, [], { seed: 1 })
    expect(codes(events)).toEqual(['story/session-name', 'story/session-name', 'story/session-name'])
    expect(run.saveState().variables).toEqual({ ok: 1 })
  })
  it('defines a {local} once, keeps it lexically scoped and stores it under file:section.name', async () => {
    const story =
      '# Room [#room]\n{local n = 0}\n{set n += 1}\nn=${n}\n## Sub\nsub n=${n}\n{if visits(#room) < 2}\n-> #room\n{end}'
    const { events, run } = await one(story)
    expect(texts(events)).toEqual(['Room', 'n=1', 'Sub', 'sub n=1', 'Room', 'n=2', 'Sub', 'sub n=2'])
    expect(run.saveState().variables['x.sty:room.n']).toBe(2)
    expect(run.saveState().variables.n).toBeUndefined()
  })
  it('reports story/uninitialised for a local read before its line, and story/shadowing', async () => {
    const { events } = await one('{set n = 1}\n# R\n${n}\n{local n = 2}\n${n}')
    expect(texts(events)).toEqual(['R', 'false', '2'])
    expect(codes(events)).toEqual(['story/uninitialised', 'story/shadowing'])
  })
})

describe('modules', () => {
  const combat =
    '{set hp = 10}\n{const MAX = 10}\n{fn pct() = hp * 100 / MAX}\n{fn loop(n) = loop(n)}\n{extern dice.log(msg)}'
  it('runs module defaults after part defaults (session > part > module) and exposes consts and fns', async () => {
    const src = memorySource(
      { 'extensions/combat.xty': combat, 'x.sty': '{use combat}\n{set hp = 5}\n${hp}/${MAX} = ${pct()}%' },
      { session: {} },
    )
    const { events } = await play(src, [], { seed: 1 })
    expect(texts(events)).toEqual(['5/10 = 50%'])
  })
  it('reports story/const-assign, story/recursion and story/unknown-module', async () => {
    const src = memorySource({
      'extensions/combat.xty': combat,
      'x.sty': '{use combat}\n{use nowhere}\nStart.\n{set MAX = 3}\n${MAX} ${loop(1)}',
    })
    const { events } = await play(src, [], { seed: 1 })
    expect(texts(events)).toEqual(['Start.', '10 false'])
    expect(codes(events)).toEqual(['story/unknown-module', 'story/const-assign', 'story/recursion'])
  })
  it('reports story/module-cycle', async () => {
    const src = memorySource({
      'extensions/a.xty': '{use b}',
      'extensions/b.xty': '{use a}',
      'x.sty': '{use a}\nOk.',
    })
    const { events } = await play(src, [], { seed: 1 })
    expect(codes(events)).toContain('story/module-cycle')
    expect(texts(events)).toEqual(['Ok.'])
  })
  it('resolves a bare {use} to the archive root in a flat archive', async () => {
    const src = memorySource({ 'm.xty': '{const K = 7}', 'x.sty': '{use m}\n${K}' })
    expect(texts((await play(src, [], { seed: 1 })).events)).toEqual(['7'])
  })
  it('passes arguments to passages and reports story/arity and unknown passages', async () => {
    const src = memorySource({
      'extensions/p.xty': '{passage hi(who)}\nHi ${who}, visit ${visits()}.\n{end}',
      'x.sty': '{use p}\n# Hall\n{insert hi("Ana")}\n{insert hi()}\n{insert nope()}',
    })
    const { events } = await play(src, [], { seed: 1 })
    expect(texts(events)).toEqual(['Hall', 'Hi Ana, visit 1.'])
    expect(codes(events)).toEqual(['story/arity', 'story/unknown-function'])
  })
  it('calls host functions with {call} and in expressions, and reports story/host-error', async () => {
    const calls: unknown[] = []
    const host = {
      dice: {
        log: (msg: unknown) => {
          calls.push(msg)
          return null
        },
        twice: (n: unknown) => (n as number) * 2,
        boom: () => {
          throw new Error('no table')
        },
      },
    }
    const src = memorySource({
      'extensions/combat.xty': combat,
      'x.sty':
        '{use combat}\n{call dice.log("hit " + hp)}\n${dice.twice(21)}\n{call dice.boom()}\n{call dice.none()}',
    })
    const { events } = await play(src, [], { seed: 1, host })
    expect(calls).toEqual(['hit 10'])
    expect(texts(events)).toEqual(['42'])
    expect(codes(events)).toEqual(['story/host-error', 'story/host-error'])
  })
})

describe('robustness', () => {
  it('stops an endless loop that shows nothing with story/endless-loop', async () => {
    const { events } = await one('[#a]\n{set x = 1}\n-> #a')
    expect(codes(events)).toEqual(['story/endless-loop'])
    expect(events.at(-1)?.type).toBe('end')
  })
  it('stops a loop that shows text forever after 10,000 blocks without a pause, naming its line', async () => {
    const { events } = await one('## [#a]\nText.\n-> #b\n## [#b]\nMore.\n-> #a')
    const blocks = events.filter((e) => e.type === 'block')
    expect(blocks).toHaveLength(10_001)
    const d = events.find((e) => e.type === 'diagnostic')
    expect(d?.type === 'diagnostic' && d.diagnostic).toMatchObject({
      code: 'story/endless-loop',
      line: 2,
      message:
        "the story showed 10000 blocks without a choice: it loops at x.sty:2 with no option, link or '-> END' on the way; play stops here",
    })
    expect(events.at(-1)?.type).toBe('end')
  })
  it('counts blocks from the last pause: a long loop through a choice plays on', async () => {
    // 3,000 blocks between pauses, four times over: never 10,000 without a pause
    const src = `[#top]\n{set n = 0}\n[#again]\nLine \${n}.\n{set n += 1}\n{if n < 3000}\n-> #again\n{end}\n+ Again -> #top [#go]\n+ Stop -> END [#stop]`
    const { events } = await one(src, ['go', 'go', 'go', 'stop'])
    expect(codes(events)).toEqual([])
    expect(events.filter((e) => e.type === 'block')).toHaveLength(12_000)
  })
  it('stops a loop that only reports runtime errors', async () => {
    const { events } = await one('[#a]\n{set x = 1 / 0}\n-> #a')
    expect(codes(events).at(-1)).toBe('story/endless-loop')
    expect(events.at(-1)?.type).toBe('end')
  })
  it('plays a story with no parts as an immediate end', async () => {
    const { events } = await play({ parts: [], readPart: () => undefined })
    expect(codes(events)).toEqual(['story/load-failed'])
    expect(events.at(-1)?.type).toBe('end')
  })
  it('reports {seed} outside the entry part with story/seed-placement', async () => {
    const src = memorySource(
      { 'a.sty': '[[ b.sty ]]', 'b.sty': '{seed 3}\nB.' },
      { parts: ['a.sty', 'b.sty'] },
    )
    expect(codes((await play(src, [], { seed: 1 })).events)).toContain('story/seed-placement')
  })
})
