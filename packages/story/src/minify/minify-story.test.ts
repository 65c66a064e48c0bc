// biome-ignore-all lint/suspicious/noTemplateCurlyInString: story sources use ${} interpolation
/**
 * The minifier is lossless: minified and original sources play identical transcripts (every
 * example of the repository and random stories with modules, ids, links and locals under random
 * walks; the minified run's events told with the original names through the names map must equal
 * the original run's, so a name the map lost or a reference left unrenamed fails), unminify
 * restores the names, and what it cannot prove safe it refuses with a stable code.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { join, relative, resolve } from 'node:path'
import { fc, test } from '@fast-check/vitest'
import type { NamesMap } from '@spkg/manifest'
import { describe, expect, it } from 'vitest'
import { parseStory } from '../parse/parse-story.ts'
import { createStoryRun } from '../run/create-story-run.ts'
import { resumeStoryRun } from '../run/resume-story-run.ts'
import type { StoryEvent, StoryRun } from '../run/types.ts'
import { translateEventNames } from './event-names.ts'
import { type MinifyError, minifyStory, type StoryFile, unminifyStory } from './minify-story.ts'

const INN = resolve(__dirname, '../../../../examples/crooked-inn/story')

function innFiles(): StoryFile[] {
  return readdirSync(INN)
    .filter((f) => f.endsWith('.sty'))
    .sort()
    .map((f) => ({ path: `story/${f}`, text: readFileSync(join(INN, f), 'utf8') }))
}

/** An event as a transcript line: diagnostics by code only (their lines move with comments). */
function line(e: StoryEvent): string {
  if (e.type === 'diagnostic') return `diagnostic ${e.diagnostic.code}`
  return JSON.stringify(e)
}

/** A story to play: its files, parts in play order, session values. */
interface Story {
  files: StoryFile[]
  parts?: string[]
  session?: Record<string, never>
  /** The story language (`manifest.story_lang`); absent: 1.0. */
  lang?: '1.1'
}

function start(story: Story, seed: number, names?: NamesMap): StoryRun {
  const { files } = story
  return createStoryRun(
    {
      parts: story.parts ?? files.filter((f) => f.path.endsWith('.sty')).map((f) => f.path),
      readPart: (p) => files.find((f) => f.path === p)?.text,
      modules: files.filter((f) => f.path.endsWith('.xty')).map((f) => ({ path: f.path, source: f.text })),
      ...(story.session ? { session: story.session } : {}),
      ...(names ? { names } : {}),
      ...(story.lang ? { lang: story.lang } : {}),
    },
    { seed },
  )
}

/**
 * Plays a walk: seed `seed`, answers picked by `picks` (indexes modulo the choices). With `names`
 * (a minified build), events are told with the original names. Returns the transcript and the run.
 */
async function walk(
  story: Story,
  seed: number,
  picks: readonly number[],
  names?: NamesMap,
): Promise<{ lines: string[]; run: StoryRun }> {
  const run = start(story, seed, names)
  const lines: string[] = []
  let k = 0
  for (let i = 0; i < 5000; i++) {
    const e = await run.next()
    if (e === undefined) break
    lines.push(line(names ? translateEventNames(e, names, 'original') : e))
    if (e.type === 'end') break
    if (e.type === 'pause') {
      const all = [...e.options.map((o) => ({ option: o.id })), ...e.links.map((l) => ({ link: l.target }))]
      if (all.length === 0 || k >= picks.length) break
      run.choose(all[picks[k++]! % all.length]!)
    }
  }
  return { lines, run }
}

async function transcript(files: readonly StoryFile[], seed: number, picks: readonly number[]) {
  return (await walk({ files: [...files] }, seed, picks)).lines
}

/** Events up to the next pause or the end, replays left out, told with the original names. */
async function untilPause(run: StoryRun, names?: NamesMap): Promise<string[]> {
  const out: string[] = []
  for (let i = 0; i < 5000; i++) {
    const e = await run.next()
    if (!e) break
    if (!('replay' in e && e.replay)) out.push(line(names ? translateEventNames(e, names, 'original') : e))
    if (e.type === 'pause' || e.type === 'end') break
  }
  return out
}

/**
 * The minified build plays the original's transcript; the state saved at the end of the walk on
 * either build resumes on the other and goes on the same.
 */
async function sameOnBoth(
  story: Story,
  seed: number,
  picks: readonly number[],
  renameAll = true,
): Promise<NamesMap> {
  const keep = Object.keys(story.session ?? {})
  const { files: min, names } = minifyStory(story.files, { keep, renameAll, lang: story.lang })
  const minStory = { ...story, files: min }
  const a = await walk(story, seed, picks)
  const b = await walk(minStory, seed, picks, names)
  expect(b.lines).toEqual(a.lines)
  if (a.run.ended) return names
  const fromOriginal = await resumeStoryRun({ ...sourceOf(minStory), names }, a.run.saveState())
  const fromMinified = await resumeStoryRun(sourceOf(story), b.run.saveState())
  expect(fromOriginal.diagnostics).toEqual([])
  expect(fromMinified.diagnostics).toEqual([])
  expect(await untilPause(fromOriginal.run, names)).toEqual(await untilPause(fromMinified.run))
  return names
}

function sourceOf(story: Story) {
  const { files } = story
  return {
    parts: story.parts ?? files.filter((f) => f.path.endsWith('.sty')).map((f) => f.path),
    readPart: (p: string) => files.find((f) => f.path === p)?.text,
    modules: files.filter((f) => f.path.endsWith('.xty')).map((f) => ({ path: f.path, source: f.text })),
    ...(story.session ? { session: story.session } : {}),
    ...(story.lang ? { lang: story.lang } : {}),
  }
}

/** Every example story of the repository: its sources, parts in manifest order, session values. */
function examples(): Array<{ name: string; story: Story }> {
  const root = resolve(__dirname, '../../../../examples')
  return readdirSync(root, { withFileTypes: true })
    .filter((d) => d.isDirectory())
    .map((d) => {
      const dir = join(root, d.name)
      const files: StoryFile[] = []
      const walkDir = (at: string) => {
        for (const e of readdirSync(at, { withFileTypes: true })) {
          const p = join(at, e.name)
          if (e.isDirectory()) walkDir(p)
          else if (/\.(sty|xty)$/.test(e.name))
            files.push({ path: relative(dir, p).split('\\').join('/'), text: readFileSync(p, 'utf8') })
        }
      }
      walkDir(dir)
      files.sort((x, y) => (x.path < y.path ? -1 : 1))
      const json = (f: string) =>
        existsSync(join(dir, f)) ? JSON.parse(readFileSync(join(dir, f), 'utf8')) : undefined
      const manifest = json('manifest.json') as { parts?: Array<{ file: string }> } | undefined
      return {
        name: d.name,
        story: { files, parts: manifest?.parts?.map((p) => p.file), session: json('session.json') },
      }
    })
}

/** What a random section does: the variable it sets, by how much, the one it tests, a comment. */
const sectionFields = {
  set: fc.nat(),
  delta: fc.integer({ min: -3, max: 5 }),
  cond: fc.nat(),
  comment: fc.boolean(),
}

/** A random story: sections with variables set, read, tested and interpolated, comments and options. */
const story = fc
  .record({
    vars: fc.uniqueArray(fc.stringMatching(/^[a-z][a-z_]{2,10}$/), { minLength: 1, maxLength: 6 }),
    sections: fc.array(
      fc.record({
        ...sectionFields,
        options: fc.array(fc.record({ v: fc.nat(), to: fc.nat(), sticky: fc.boolean() }), {
          minLength: 1,
          maxLength: 3,
        }),
      }),
      { minLength: 1, maxLength: 6 },
    ),
  })
  .filter((s) =>
    s.vars.every(
      (v) =>
        ![
          'and',
          'or',
          'not',
          'true',
          'false',
          'if',
          'end',
          'set',
          'len',
          'min',
          'max',
          'str',
          'num',
          'abs',
          'cap',
          'pick',
          'roll',
        ].includes(v),
    ),
  )
  .map(({ vars, sections }) => {
    const v = (i: number) => vars[i % vars.length]!
    const lines = ['// a story', ...vars.map((n, i) => `{set ${n} = ${i}}`), '']
    sections.forEach((s, i) => {
      lines.push(`# Room ${i} [#r${i}]`)
      if (s.comment) lines.push(`// ${v(s.set)} is set here   `)
      lines.push(`{set ${v(s.set)} += ${s.delta}}`, '')
      lines.push(
        `You have \${${v(s.set)}} and \${${v(s.cond)} * 2}. {if ${v(s.cond)} > 2}Rich.{else}Poor.{end}   `,
        '',
        '',
      )
      for (const o of s.options) {
        const to = o.to % (sections.length + 1)
        lines.push(
          `${o.sticky ? '+' : '*'} {if ${v(o.v)} < 9} Take ${v(o.v)} -> ${to === sections.length ? 'END' : `#r${to}`}`,
          `  {set ${v(o.v)} += 1}`,
        )
      }
      lines.push('')
    })
    return [{ path: 'story/0001-a.sty', text: `${lines.join('\n')}\n` }]
  })

/** Names for a random story: distinct, none a keyword, a built-in or reserved. */
const RESERVED = new Set(
  'and or not true false if elif else end set local use seed const fn passage insert extern call len join contains min max abs floor ceil round str num upper lower cap random roll pick chance visits passed picked'.split(
    ' ',
  ),
)
const names = (n: number) =>
  fc
    .uniqueArray(fc.stringMatching(/^[a-z][a-z_]{1,9}$/), { minLength: n, maxLength: n })
    .filter((a) => a.every((x) => !RESERVED.has(x) && !/^d\d/.test(x)))

/**
 * A random story in two parts and a module: variables set, read and tested; headings, anchors
 * and named groups with explicit ids, jumps, `visits(#id)`, `passed(#g)`, `picked(#g)`, explicit
 * option ids, links across parts to ids, a local, `{use}`, a module function, constant and passage;
 * comments and trailing spaces for the minifier to remove.
 */
const storyWithModule = fc
  .record({
    words: names(10),
    sections: fc.array(
      fc.record({
        ...sectionFields,
        link: fc.nat(),
        options: fc.array(
          fc.record({ v: fc.nat(), to: fc.nat(), sticky: fc.boolean(), named: fc.boolean() }),
          {
            minLength: 1,
            maxLength: 3,
          },
        ),
      }),
      { minLength: 1, maxLength: 5 },
    ),
    halls: fc.integer({ min: 1, max: 3 }),
  })
  .map(({ words, sections, halls }): StoryFile[] => {
    const [fnName, constName, passName, localName, ...vars] = words as [
      string,
      string,
      string,
      string,
      ...string[],
    ]
    const v = (i: number) => vars[i % vars.length]!
    const a = ['// part one', '{use lib}', ...vars.map((n, i) => `{set ${n} = ${i}}`), '']
    sections.forEach((s, i) => {
      a.push(`# Room ${i} [#${v(i)}-r${i}]   `)
      if (i === 0) a.push(`{local ${localName} = 0}`, `{set ${localName} += 1}`)
      if (s.comment) a.push(`// ${v(s.set)} is set here   `)
      a.push(`{set ${v(s.set)} += ${s.delta}}`, '')
      a.push(
        `You have \${${v(s.set)}} and \${${fnName}(${v(s.cond)})}, visit \${visits(#${v(i)}-r${i})}. {if ${v(s.cond)} > ${constName}}Rich.{else}Poor.{end}   `,
        `{if passed(#g${i})}Last time: \${picked(#g${i})}.{end} ${i === 0 ? `Tries \${${localName}}.` : ''}`,
        `Or [walk away > 0002-b.sty:hall${s.link % halls}].`,
        `{insert ${passName}(${v(s.cond)})}`,
        '',
        `[#g${i}]`,
      )
      s.options.forEach((o, k) => {
        const to = o.to % (sections.length + 1)
        a.push(
          `${o.sticky ? '+' : '*'} {if ${v(o.v)} < 9} Take ${v(o.v)} -> ${to === sections.length ? 'END' : `#${v(to)}-r${to}`}${o.named ? ` [#o${i}-${k}]` : ''}`,
          `  {set ${v(o.v)} += 1}`,
        )
      })
      a.push('')
    })
    const b = ['// part two', `{set ${v(0)} = 1}`, '']
    for (let h = 0; h < halls; h++)
      b.push(
        `## Hall ${h} [#hall${h}]`,
        `\${${v(h)}} in hall ${h}, visit \${visits(#hall${h})}.`,
        `* Back [#back${h}] -> #hall${(h + 1) % halls}`,
        `* Leave -> END`,
        '',
      )
    return [
      { path: 'story/0001-a.sty', text: `${a.join('\n')}\n` },
      { path: 'story/0002-b.sty', text: `${b.join('\n')}\n` },
      {
        path: 'extensions/lib.xty',
        text: `// the rules\n{const ${constName} = 2}\n{fn ${fnName}(n) = n * 2 + ${constName}}\n{passage ${passName}(who)}\nStatus \${who}: \${${fnName}(who)}{if who > ${constName}} high{end}\n{end}\n`,
      },
    ]
  })

/**
 * A random 1.1 story in two parts and a module: inline and block alternatives of every kind (nested
 * too, in headings, paragraphs and option labels, and in a passage) in sections with explicit ids,
 * `visits()` and `turns()` of headings, anchors, named groups and options, in this part and the
 * other, and a shuffle drawing from the generator.
 */
const storyWithAlternatives = fc
  .record({
    words: names(6),
    sections: fc.array(
      fc.record({
        mode: fc.constantFrom('seq', 'cycle', 'once', 'shuffle'),
        block: fc.constantFrom('seq', 'cycle', 'once', 'shuffle'),
        to: fc.array(fc.nat(), { minLength: 2, maxLength: 2 }),
        comment: fc.boolean(),
      }),
      { minLength: 1, maxLength: 4 },
    ),
  })
  .map(({ words, sections }): StoryFile[] => {
    const [gold, pass, ...ids] = words as [string, string, ...string[]]
    const sec = (i: number) => `${ids[i % ids.length]}-s${i}`
    const a = ['// part one', '{use lib}', `{set ${gold} = 0}`, '']
    sections.forEach((s, i) => {
      const [x, y] = s.to.map((t) => t % sections.length) as [number, number]
      a.push(`# Room ${i} {cycle lit|dark} [#${sec(i)}]`)
      if (s.comment) a.push('// a comment   ')
      a.push(
        `{${s.mode} one ${i}|two {${s.mode === 'seq' ? 'cycle' : 'seq'} x|y} ${i}|} V\${visits(#${sec(i)})} A\${visits(#m${i})} G\${visits(#g${i})} O\${visits(#o${i})} T\${turns()} S\${turns(#${sec(x)})}`,
        `B\${visits(0002-b.sty)} H\${visits(0002-b.sty:hall)} R\${turns(0002-b.sty:hall)} {shuffle p|q|r}`,
        `{${s.block}}`,
        `First \${${gold}}.`,
        `{set ${gold} += 1}`,
        '{or}',
        `{insert ${pass}(${gold})}`,
        '{end}',
        `[#m${i}]`,
        `[#g${i}]`,
        `+ Go {once on|further} -> #${sec(x)} [#o${i}]`,
        `+ Hop -> #${sec(y)}`,
        '+ Hall',
        '  [[0002-b.sty:hall]]',
        '',
      )
    })
    const b = [
      '// part two',
      '# Hall [#hall]',
      `{cycle Echo|Silence} \${visits(0001-a.sty:${sec(0)})}`,
      `+ Back`,
      `  [[0001-a.sty:${sec(0)}]]`,
    ]
    return [
      { path: 'story/0001-a.sty', text: `${a.join('\n')}\n` },
      { path: 'story/0002-b.sty', text: `${b.join('\n')}\n` },
      {
        path: 'extensions/lib.xty',
        text: `{passage ${pass}(n)}\n{cycle Tick|Tock} \${n}.\n{end}\n`,
      },
    ]
  })

/**
 * A random 1.1 story: a module declaring a set, a block function with a `ref` parameter, a
 * `{temp}` and recursion; a part with a set of its own (one item with a text of its own), set
 * variables changed with `+` and `-` (items written `Tools.rope` and bare), tested with
 * `contains()`, `==` and the orderings, `min()`/`max()`, printed (`${}`, `str()`, in a list, in a
 * shuffle), a list of sets saved; temps in sections.
 */
const storyWithSets = fc
  .record({
    words: names(6),
    sections: fc.array(
      fc.record({
        add: fc.nat({ max: 3 }),
        drop: fc.nat({ max: 3 }),
        test: fc.nat({ max: 3 }),
        options: fc.array(fc.record({ to: fc.nat(), item: fc.nat({ max: 3 }) }), {
          minLength: 1,
          maxLength: 3,
        }),
      }),
      { minLength: 1, maxLength: 4 },
    ),
  })
  .map(({ words, sections }): StoryFile[] => {
    const [fnName, bag, purse, tempName, count, ...rest] = words as [
      string,
      string,
      string,
      string,
      string,
      string,
    ]
    const items = ['rope', 'lamp', 'key', 'coin']
    const item = (i: number) => `Tools.${items[i % items.length]}`
    const a = [
      '// part',
      '{use lib}',
      '{items Moods = calm "at ease", wary, bold}',
      `{set ${bag} = Tools(rope)}`,
      `{set ${purse} = 5}`,
      `{set ${rest[0]} = Moods(calm)}`,
      '{set hist2 = []}',
      '',
    ]
    sections.forEach((s, i) => {
      a.push(`# Room ${i} [#r${i}]`)
      a.push(`{temp ${tempName} = len(${bag}) + ${i}}`)
      a.push(`{set ${bag} = ${bag} + ${item(s.add)} - ${item(s.drop)}}`)
      a.push(
        `Bag [\${${bag}}] \${min(${bag})} \${max(${bag})} \${${tempName}} \${${fnName}(${purse}, ${count})} \${${purse}}.`,
        `{if contains(${bag}, ${item(s.test)}) and ${bag} >= Tools(rope)}Has it.{elif ${rest[0]} == Moods.calm}Calm.{else}None.{end}`,
        `Also \${str(${bag})}; \${[${bag}, ${rest[0]}, Tools()]}; \${${bag} < Tools(key)} \${${bag} > Tools(lamp)} \${max(${bag}) == Tools.coin} \${min(${rest[0]}) <= Moods.wary}; {shuffle \${${bag}}|\${max(${rest[0]})}|none} \${hist2}.`,
        `{set hist2 = [${bag}, min(${rest[0]})]}`,
        '',
      )
      s.options.forEach((o) => {
        const to = o.to % (sections.length + 1)
        a.push(
          `* {if not contains(${bag}, ${item(o.item)})} Take ${items[o.item % items.length]} -> ${to === sections.length ? 'END' : `#r${to}`}`,
          `  {set ${bag} += ${o.item % 2 ? item(o.item) : items[o.item % items.length]}}`,
          `  {set ${rest[0]} = Moods(wary) + bold}`,
        )
      })
      a.push(`+ Wait -> #r${i}`, '')
    })
    return [
      { path: 'story/0001-a.sty', text: `${a.join('\n')}\n` },
      {
        path: 'extensions/lib.xty',
        text: [
          '// the rules',
          '{items Tools = rope, lamp, key, coin}',
          `{set ${count} = 0}`,
          `{fn ${fnName}(n, ref p)}`,
          '{temp half = n / 2}',
          `{set ${count} += 1}`,
          '{if n > 0}',
          '{set p = n - 1}',
          `{return ${fnName}(half - 1, p) + 1}`,
          '{end}',
          '{return 0}',
          '{end}',
          '',
        ].join('\n'),
      },
    ]
  })

describe('minifyStory', () => {
  it('shrinks the example story, renames its ids and plays the same transcripts on 30 walks', async () => {
    const files = innFiles()
    const { files: min, names } = minifyStory(files, { renameAll: true })
    expect(Object.values(names.variables).sort()).toEqual(['gold', 'wolves'])
    expect(Object.values(names.ids ?? {}).sort()).toEqual(['edge', 'flee', 'road'])
    const before = files.reduce((n, f) => n + f.text.length, 0)
    const after = min.reduce((n, f) => n + f.text.length, 0)
    expect(after).toBeLessThan(before)
    expect(min.find((f) => f.path === 'story/0003-forest.sty')!.text).not.toMatch(
      /\{set wolves|\$\{wolves\}|edge/,
    )
    expect(min.find((f) => f.path === 'story/0002-road.sty')!.text).not.toMatch(/forest\.sty:edge/)
    for (let seed = 0; seed < 30; seed++) await sameOnBoth({ files }, seed, [seed, seed >> 1, seed >> 2, 3])
    // unminify restores every name: the same trees as the original (comments aside).
    const back = unminifyStory(min, names)
    for (const f of back) {
      const orig = files.find((o) => o.path === f.path)!
      const strip = (t: string) =>
        JSON.stringify(parseStory(t, { path: f.path }).ast, (k, x) =>
          k.endsWith('os') || k === 'pos' ? undefined : x,
        )
      expect(strip(f.text)).toEqual(strip(orig.text))
    }
  })

  it.each(examples())(
    'example $name: minified plays the same transcripts, states cross builds',
    async ({ story }) => {
      for (let seed = 0; seed < 12; seed++)
        await sameOnBoth(story, seed, [seed, seed >> 1, 2, seed >> 2, 1, 0, 3])
    },
  )

  test.prop([story, fc.nat({ max: 1000 }), fc.array(fc.nat({ max: 7 }), { maxLength: 12 })], { numRuns: 60 })(
    'random stories: minified and original play identical transcripts, unminify restores the names',
    async (files, seed, picks) => {
      const { files: min, names } = minifyStory(files, { renameAll: true })
      expect(min[0]!.text).not.toMatch(/\/\//)
      await sameOnBoth({ files }, seed, picks)
      const back = unminifyStory(min, names)
      expect(await transcript(back, seed, picks)).toEqual(await transcript(files, seed, picks))
      for (const original of Object.values(names.variables)) expect(back[0]!.text).toContain(original)
    },
  )

  test.prop([storyWithModule, fc.nat({ max: 1000 }), fc.array(fc.nat({ max: 7 }), { maxLength: 14 })], {
    numRuns: 60,
  })(
    'random stories with modules, ids and links: identical transcripts, states cross builds, names restored',
    async (files, seed, picks) => {
      const names = await sameOnBoth({ files }, seed, picks)
      // Every kind was renamed, and nothing of the originals is left in the minified sources.
      expect(Object.keys(names.functions ?? {})).toHaveLength(3)
      const ids = Object.values(names.ids ?? {})
      expect(ids).toContain('hall0')
      expect(ids.filter((i) => /^g\d+$/.test(i)).length).toBeGreaterThan(0)
      const min = minifyStory(files, { renameAll: true }).files
      for (const f of min) expect(f.text).not.toMatch(/hall0|#g\d|\/\//)
      const back = unminifyStory(min, names)
      expect(await transcript(back, seed, picks)).toEqual(await transcript(files, seed, picks))
    },
  )

  test.prop([storyWithAlternatives, fc.nat({ max: 1000 }), fc.array(fc.nat({ max: 7 }), { maxLength: 14 })], {
    numRuns: 40,
  })(
    '1.1 stories with alternatives, read counts and turns: identical transcripts, states cross builds',
    async (files, seed, picks) => {
      const names = await sameOnBoth({ files, lang: '1.1' }, seed, picks)
      // the section ids the alternatives are named after were renamed
      expect(Object.values(names.ids ?? {}).some((i) => /-s0$/.test(i))).toBe(true)
    },
  )

  it('keeps the name of a passage whose alternatives name their state keys', () => {
    const files = [
      { path: 'story/a.sty', text: '{use lib}\n# Greet [#greet]\n{insert greet()}\n+ again -> #greet\n' },
      { path: 'extensions/lib.xty', text: '{passage greet()}\n{cycle Hi|Hello}.\n{end}\n' },
    ]
    const { files: min, names } = minifyStory(files, { renameAll: true, lang: '1.1' })
    expect(Object.values(names.functions ?? {})).not.toContain('greet')
    expect(Object.values(names.ids ?? {})).not.toContain('greet')
    expect(min[1]!.text).toContain('{passage greet()}')
  })

  test.prop([storyWithSets, fc.nat({ max: 1000 }), fc.array(fc.nat({ max: 7 }), { maxLength: 10 })], {
    numRuns: 40,
  })(
    '1.1 random stories with sets, block functions and temps: identical transcripts, states cross builds',
    async (files, seed, picks) => {
      const names = await sameOnBoth({ files, lang: '1.1' }, seed, picks)
      expect(Object.keys(names.functions ?? {})).toHaveLength(1)
      const min = minifyStory(files, { renameAll: true, lang: '1.1' }).files
      // sets and items are renamed; a renamed item's declaration keeps the text it prints
      expect(Object.values(names.sets ?? {})).toEqual(
        expect.arrayContaining(['Tools', 'rope', 'Moods', 'calm']),
      )
      expect(min[1]!.text).not.toContain('Tools')
      expect(min[1]!.text).toMatch(
        /\{items [a-z]+ = [a-z]+ "rope", [a-z]+ "lamp", [a-z]+ "key", [a-z]+ "coin"\}/,
      )
      expect(min[0]!.text).toMatch(/\{items [a-z]+ = [a-z]+ "at ease", [a-z]+ "wary", [a-z]+ "bold"\}/)
      const back = unminifyStory(min, names, { lang: '1.1' })
      expect(back[1]!.text).toContain('{items Tools = rope, lamp, key, coin}')
      expect(back[0]!.text).toContain('{items Moods = calm "at ease", wary, bold}')
      const play = async (fs: StoryFile[]) => (await walk({ files: fs, lang: '1.1' }, seed, picks)).lines
      expect(await play(back)).toEqual(await play(files))
      // A reader without the names map prints the same: the texts are in the minified story.
      const texts = (lines: string[]) =>
        lines.filter((l) => l.startsWith('{"type":"block"')).map((l) => JSON.parse(l).block.text)
      expect(texts(await play(min))).toEqual(texts(await play(files)))
    },
  )

  it('renames sets and items (1.1): a renamed item keeps its text, a map key of the same name stays', async () => {
    const files = [
      {
        path: 'story/a.sty',
        text: [
          '{items Tools = rope, lamp "oil lamp", key}',
          '{set pack = Tools(rope)}',
          '# Shed',
          '{set pack = pack + lamp + Tools.key}',
          '${pack} ${player.rope} ${contains(pack, rope)} ${max(pack) > Tools.rope}',
          '* Drop the rope -> END',
          '  {set pack -= rope}',
          '',
        ].join('\n'),
      },
    ]
    const story: Story = { files, lang: '1.1', session: { player: { rope: 'yes' } } as never }
    const names = await sameOnBoth(story, 1, [0])
    expect(Object.values(names.sets ?? {}).sort()).toEqual(['Tools', 'key', 'lamp', 'rope'])
    const min = minifyStory(files, { renameAll: true, keep: ['player'], lang: '1.1' }).files[0]!.text
    expect(min).toMatch(/^\{items [a-z]+ = [a-z]+ "rope", [a-z]+ "oil lamp", [a-z]+ "key"\}$/m)
    expect(min).toContain('${player.rope}')
    expect(min).not.toMatch(/Tools|pack/)
    const { lines } = await walk({ ...story, files: [{ path: 'story/a.sty', text: min }] }, 1, [])
    expect(lines.some((l) => l.includes('rope, oil lamp, key yes true true'))).toBe(true)
    expect(unminifyStory([{ path: 'story/a.sty', text: min }], names, { lang: '1.1' })[0]!.text).toMatch(
      /^\{items Tools = rope, lamp "oil lamp", key\}$/m,
    )
  })

  it('keeps set and item names in a story that calls the host (a host function receives sets by item name)', () => {
    const files = [
      {
        path: 'story/a.sty',
        text: '{use lib}\n{set pack = Tools(rope)}\n# Shed\n${pack} ${host.weigh(pack)}\n',
      },
      { path: 'extensions/lib.xty', text: '{items Tools = rope, lamp}\n{extern host.weigh(s)}\n' },
    ]
    const { files: min, names } = minifyStory(files, { renameAll: true, lang: '1.1' })
    expect(names.sets).toBeUndefined()
    expect(min[1]!.text).toContain('{items Tools = rope, lamp}')
    expect(min[0]!.text).toContain('Tools(rope)')
  })

  it('renames module functions and constants too; keeps kept names, locals and parameters', () => {
    const { files, names } = minifyStory(
      [
        {
          path: 'story/0001-a.sty',
          text: '{use lib}\n{set player = 1}\n{set score = 2}\n# A\n{local tries = 0}\n${twice(score)} ${limit} ${tries} ${player}\n',
        },
        { path: 'extensions/lib.xty', text: '{const limit = 3}\n{fn twice(n) = n * 2 + score}\n' },
      ],
      { keep: ['player'], renameAll: true },
    )
    expect(names).toEqual({ version: 1, variables: { a: 'score' }, functions: { b: 'limit', c: 'twice' } })
    expect(files[0]!.text).toBe(
      '{use lib}\n{set player = 1}\n{set a = 2}\n# A\n{local tries = 0}\n${c(a)} ${b} ${tries} ${player}\n',
    )
    expect(files[1]!.text).toBe('{const b = 3}\n{fn c(n) = n * 2 + a}\n')
    expect(unminifyStory(files, names).map((f) => f.text)).toEqual([
      '{use lib}\n{set player = 1}\n{set score = 2}\n# A\n{local tries = 0}\n${twice(score)} ${limit} ${tries} ${player}\n',
      '{const limit = 3}\n{fn twice(n) = n * 2 + score}\n',
    ])
  })

  it('renames a name only where its uses pay for its names-map entry, most used first', () => {
    const text = [
      '{set x = 1}',
      '{set treasure_chest_count = 0}',
      '# Vault [#vault]',
      '# The long corridor under the keep [#the-long-corridor]',
      ...Array.from(
        { length: 4 },
        (_, i) =>
          `{set treasure_chest_count += x}\n\${treasure_chest_count}\n* Go ${i} -> #the-long-corridor`,
      ),
      '${visits(#vault)}',
      '',
    ].join('\n')
    const { files, names } = minifyStory([{ path: 'story/a.sty', text }])
    // 10 uses of a 20-letter name pay; `x` cannot get shorter; #vault's 2 uses save 8 bytes, its entry costs 15.
    expect(names).toEqual({
      version: 1,
      variables: { a: 'treasure_chest_count' },
      ids: { b: 'the-long-corridor' },
    })
    expect(files[0]!.text).toContain('# Vault [#vault]')
    const saved = (min: string) => text.length - min.length - JSON.stringify(names).length
    expect(saved(files[0]!.text)).toBeGreaterThan(0)
    const all = minifyStory([{ path: 'story/a.sty', text }], { renameAll: true })
    expect(Object.values(all.names.ids ?? {}).sort()).toEqual(['the-long-corridor', 'vault'])
    expect(unminifyStory(all.files, all.names)[0]!.text).toBe(unminifyStory(files, names)[0]!.text)
  })

  it('refuses a story with errors and a names map that is not one, with stable codes', () => {
    const code = (f: () => unknown) => {
      try {
        f()
      } catch (e) {
        return (e as MinifyError).code
      }
      return 'no error'
    }
    expect(code(() => minifyStory([{ path: 'story/a.sty', text: '{set = }\n' }]))).toBe(
      'minify/invalid-story',
    )
    expect(code(() => unminifyStory([], { version: 2 } as never))).toBe('minify/bad-names-map')
    expect(code(() => unminifyStory([], null as never))).toBe('minify/bad-names-map')
  })
})
