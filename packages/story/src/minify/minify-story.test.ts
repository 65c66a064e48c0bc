// biome-ignore-all lint/suspicious/noTemplateCurlyInString: story sources use ${} interpolation
/**
 * The minifier is lossless: minified and original sources play identical transcripts (the
 * repository's example and random stories under random walks), unminify restores the names, and
 * what it cannot prove safe it refuses with a stable code.
 */
import { readdirSync, readFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { fc, test } from '@fast-check/vitest'
import { describe, expect, it } from 'vitest'
import { parseStory } from '../parse/parse-story.ts'
import { createStoryRun } from '../run/create-story-run.ts'
import type { StoryEvent } from '../run/types.ts'
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

/** Plays a walk: seed `seed`, answers picked by `picks` (indexes modulo the choices). */
async function transcript(
  files: readonly StoryFile[],
  seed: number,
  picks: readonly number[],
): Promise<string[]> {
  const parts = files.filter((f) => f.path.endsWith('.sty')).map((f) => f.path)
  const run = createStoryRun(
    {
      parts,
      readPart: (p) => files.find((f) => f.path === p)?.text,
      modules: files.filter((f) => f.path.endsWith('.xty')).map((f) => ({ path: f.path, source: f.text })),
    },
    { seed },
  )
  const out: string[] = []
  let k = 0
  for (let i = 0; i < 5000; i++) {
    const e = await run.next()
    if (e === undefined) break
    out.push(line(e))
    if (e.type === 'end') break
    if (e.type === 'pause') {
      const all = [...e.options.map((o) => ({ option: o.id })), ...e.links.map((l) => ({ link: l.target }))]
      if (all.length === 0 || k >= picks.length) break
      run.choose(all[picks[k++]! % all.length]!)
    }
  }
  return out
}

/** A random story: sections with variables set, read, tested and interpolated, comments and options. */
const story = fc
  .record({
    vars: fc.uniqueArray(fc.stringMatching(/^[a-z][a-z_]{2,10}$/), { minLength: 1, maxLength: 6 }),
    sections: fc.array(
      fc.record({
        set: fc.nat(),
        delta: fc.integer({ min: -3, max: 5 }),
        cond: fc.nat(),
        comment: fc.boolean(),
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

describe('minifyStory', () => {
  it('shrinks the example story and plays the same transcripts on 30 walks', async () => {
    const files = innFiles()
    const { files: min, names } = minifyStory(files)
    expect(Object.values(names.variables).sort()).toEqual(['gold', 'wolves'])
    const before = files.reduce((n, f) => n + f.text.length, 0)
    const after = min.reduce((n, f) => n + f.text.length, 0)
    expect(after).toBeLessThan(before)
    expect(min.find((f) => f.path === 'story/0003-forest.sty')!.text).not.toMatch(/\{set wolves|\$\{wolves\}/)
    for (let seed = 0; seed < 30; seed++) {
      const picks = [seed, seed >> 1, seed >> 2, 3]
      expect(await transcript(min, seed, picks)).toEqual(await transcript(files, seed, picks))
    }
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

  test.prop([story, fc.nat({ max: 1000 }), fc.array(fc.nat({ max: 7 }), { maxLength: 12 })], { numRuns: 60 })(
    'random stories: minified and original play identical transcripts, unminify restores the names',
    async (files, seed, picks) => {
      const { files: min, names } = minifyStory(files)
      expect(min[0]!.text).not.toMatch(/\/\//)
      expect(await transcript(min, seed, picks)).toEqual(await transcript(files, seed, picks))
      const back = unminifyStory(min, names)
      expect(await transcript(back, seed, picks)).toEqual(await transcript(files, seed, picks))
      for (const original of Object.values(names.variables)) expect(back[0]!.text).toContain(original)
    },
  )

  it('renames module functions and constants too; keeps kept names, locals and parameters', () => {
    const { files, names } = minifyStory(
      [
        {
          path: 'story/0001-a.sty',
          text: '{use lib}\n{set player = 1}\n{set score = 2}\n# A\n{local tries = 0}\n${twice(score)} ${limit} ${tries} ${player}\n',
        },
        { path: 'extensions/lib.xty', text: '{const limit = 3}\n{fn twice(n) = n * 2 + score}\n' },
      ],
      { keep: ['player'] },
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
