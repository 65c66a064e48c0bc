/**
 * A minified story's runtime diagnostics speak the author's names: a run whose source carries the
 * names map (as `@spkg/reader`'s `storySource()` of a minified package does) reports a runtime
 * error in a module function, or a variable read before it has a value, with the original names.
 */
import type { Diagnostic } from '@spkg/manifest'
import { describe, expect, it } from 'vitest'
import { createStoryRun, minifyStory, type NamesMap, type StoryFile } from '../index.ts'

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
})
