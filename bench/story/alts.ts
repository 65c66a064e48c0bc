/**
 * The second row of `pnpm bench story`: the 1.1 story of generate-alts.ts (a sequence, cycle,
 * shuffle or once-only alternative in every block, read counts and turns in the conditions, a
 * tunnel per section, a set filled by options and tested by an option per section)
 * against its ink twin, measured as index.ts measures the rooms story: the same seeded walker,
 * warm-up, then the timed choices in alternating slices, then save/load and resume figures.
 */
import { generateAltsInkStory, generateAltsSpkgStory } from './generate-alts'
import { createInkSide } from './ink-side'
import { createSpkgSide } from './spkg-side'
import { engineRows, f, rowMaker } from './table'

/** Plays the 1.1 story on both engines and prints its figures and table rows. */
export async function benchAlts(sections: number, timedChoices: number, warmup: number, seed: number) {
  const spkgStory = generateAltsSpkgStory(sections)
  const inkStory = generateAltsInkStory(sections)
  console.log(
    `\n1.1 story (sequences, shuffles, read counts, turns, tunnels, sets): ${sections} sections; spkg ${spkgStory.lines} lines (${(spkgStory.part.length / 1024).toFixed(0)} KiB), ink ${inkStory.lines} lines (${(inkStory.source.length / 1024).toFixed(0)} KiB)`,
  )
  const spkg = await createSpkgSide(spkgStory, seed, 5000)
  await spkg.measureResume()
  const ink = createInkSide(inkStory.source, seed)
  await spkg.play(warmup, false)
  await ink.play(warmup, false)
  const rounds = 10
  for (let r = 0; r < rounds; r++) {
    await spkg.play(timedChoices / rounds, true)
    await ink.play(timedChoices / rounds, true)
  }
  const s = await spkg.figures()
  const k = await ink.figures()
  console.log('spkg (1.1 story)', s)
  console.log('ink (1.1 story)', k)
  const row = rowMaker(s, k)
  console.log(`
| 1.1 story: metric | @spkg/story | inkjs 2.4.0 | spkg advantage (>1: spkg better) |
|---|---|---|---|
${engineRows(row)}
| resume by replay, ${s.resumeChoices} choices (ms) | ${f(s.resumeMs, 1)} | (no replay) | |
`)
}
