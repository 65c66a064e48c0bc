/**
 * A minified story's runtime diagnostics speak the author's names: a run whose source carries the
 * names map (as `@spkg/reader`'s `storySource()` of a minified package does) reports a runtime
 * error in a module function, or a variable read before it has a value, with the original names.
 */
import type { Diagnostic } from '@spkg/manifest'
import { describe, expect, it } from 'vitest'
import {
  createStoryRun,
  minifyStory,
  type NamesMap,
  type StoryFile,
  translateDiagnosticNames,
} from '../index.ts'

const files: StoryFile[] = [
  {
    path: 'story/0001-cellar.sty',
    text: `{use rules}
{set purse_of_gold = 3}
{if purse_of_gold > 10}
{set hidden_treasure_count = 1}
{end}
# The cellar [#cellar_door]
You hold \${double_the_stake(purse_of_gold, 1)} coins, \${halve_the_loot(purse_of_gold)} for the crew.
A map shows \${hidden_treasure_count} chests.
* Open the door -> END
`,
  },
  {
    path: 'extensions/rules.xty',
    text: '{fn double_the_stake(n) = n * 2}\n{fn halve_the_loot(n) = n / (purse_of_gold - 3)}\n',
  },
]

/** The diagnostics of a run up to its first pause. */
async function diagnostics(story: readonly StoryFile[], names?: NamesMap): Promise<Diagnostic[]> {
  const run = createStoryRun(
    {
      parts: story.filter((f) => f.path.endsWith('.sty')).map((f) => f.path),
      readPart: (p) => story.find((f) => f.path === p)?.text,
      modules: story.filter((f) => f.path.endsWith('.xty')).map((f) => ({ path: f.path, source: f.text })),
      ...(names ? { names } : {}),
    },
    { seed: 1 },
  )
  const out: Diagnostic[] = []
  for (let e = await run.next(); e && e.type !== 'pause' && e.type !== 'end'; e = await run.next())
    if (e.type === 'diagnostic') out.push(e.diagnostic)
  return out
}

describe('runtime diagnostics of a minified story', () => {
  it('name the original variables and functions when the source carries the names map', async () => {
    const { files: min, names } = minifyStory(files, { renameAll: true })
    const original = await diagnostics(files)
    expect(original.map((d) => d.code)).toEqual(['story/arity', 'story/division-by-zero', 'story/undefined'])
    expect(original[0]!.message).toMatch(/^double_the_stake\(\) takes 1/)
    expect(original[2]!.message).toMatch(/'hidden_treasure_count'/)

    // Without the map the minified build speaks its short names.
    const bare = await diagnostics(min)
    expect(bare.map((d) => d.message).join('\n')).not.toMatch(/double_the_stake|hidden_treasure_count/)

    const told = await diagnostics(min, names)
    expect(told.map((d) => d.code)).toEqual(original.map((d) => d.code))
    for (const [i, d] of told.entries()) {
      // the same message, and where in the minified file it was (its lines are not the author's)
      expect(d.message.startsWith(original[i]!.message)).toBe(true)
      expect(d.message).toMatch(/\(minified file, line \d+/)
      expect(d.path).toBe(original[i]!.path)
      expect(d.line).toBeUndefined()
    }
  })

  it('leaves a story without a names map as it is', async () => {
    const { files: min } = minifyStory(files, { renameAll: true })
    for (const d of await diagnostics(min)) expect(d.line).toBeGreaterThan(0)
  })

  it('name the original sets and items (1.1), quoted or not', () => {
    const names: NamesMap = {
      version: 1,
      variables: { a: 'pack' },
      sets: { b: 'Tools', c: 'rope', d: 'lamp', e: 'Knots' },
    }
    const told = (message: string) =>
      translateDiagnosticNames(
        { code: 'story/type-error', severity: 'error', message, path: 'story/a.sty' },
        names,
      ).message
    expect(told("'+' combines two sets, not a set of b and a number; write an item as b.c")).toBe(
      "'+' combines two sets, not a set of Tools and a number; write an item as Tools.rope",
    )
    expect(told("b has no item 'x' (it has c, d)")).toBe("Tools has no item 'x' (it has rope, lamp)")
    expect(told("b has no item 'x'; its items are c, d")).toBe(
      "Tools has no item 'x'; its items are rope, lamp",
    )
    expect(told("'c' is an item of b and e; write b.c")).toBe(
      "'rope' is an item of Tools and Knots; write Tools.rope",
    )
    expect(told('b(…) takes items of b, not a set of e')).toBe(
      'Tools(…) takes items of Tools, not a set of Knots',
    )
    expect(told("'-' between a set of b and a list is always a type error at play; write b(c, d)")).toBe(
      "'-' between a set of Tools and a list is always a type error at play; write Tools(rope, lamp)",
    )
    expect(told('contains() of a set takes items, not a string: write contains(s, b.c)')).toBe(
      'contains() of a set takes items, not a string: write contains(s, Tools.rope)',
    )
  })
})
