/**
 * `pnpm bench story [sections] [choices] [all|rooms|alts]`: the story interpreter against inkjs on
 * the same generated story (default 2,000 sections, the shape of the inkjs baseline in
 * `shared/notes/if-anchors.md` §5), then on the 1.1 story of generate-alts.ts (alts.ts), which
 * uses sequences, shuffles, read counts, turns, a tunnel and set conditions in every section. Both engines are walked by the same seeded random walker in
 * this one process; it reports blocks/s and choices/s side by side, the save and load time of the
 * state after 75,000 choices, and the resume-by-replay time for 5,000 recorded choices.
 */
import { cpus } from 'node:os'
import { benchAlts } from './alts'
import { generateInkStory, generateSpkgStory } from './generate'
import { createInkSide, type EngineSide } from './ink-side'
import { createSpkgSide, type SpkgFigures } from './spkg-side'
import { engineRows, f, rowMaker } from './table'

const sections = Number(process.argv[2] ?? 2000)
const timedChoices = Number(process.argv[3] ?? 60_000)
/** Which stories: `all` (default), `rooms` (the 1.0 story) or `alts` (the 1.1 story of generate-alts.ts). */
const only = process.argv[4] ?? 'all'
// Warm-up plus timed choices make the 75,000 choices after which the state is saved.
const warmup = Math.max(0, 75_000 - timedChoices)
const seed = 1

const spkgStory = generateSpkgStory(sections)
const inkStory = generateInkStory(sections)
console.log(
  `story: ${sections} sections; spkg ${spkgStory.lines} lines (${(spkgStory.part.length / 1024).toFixed(0)} KiB), ink ${inkStory.lines} lines (${(inkStory.source.length / 1024).toFixed(0)} KiB)`,
)
console.log(`walker: seed ${seed}, ${warmup} warm-up choices, ${timedChoices} timed choices\n`)

if (only === 'alts') {
  await benchAlts(sections, timedChoices, warmup, seed)
  process.exit(0)
}
const rounds = 10
let spkgSide: Awaited<ReturnType<typeof createSpkgSide>> | undefined
let spkgError: string | undefined
try {
  spkgSide = await createSpkgSide(spkgStory, seed, 5000)
  // Resume is timed first, on a small heap: a player resumes right after start-up.
  await spkgSide.measureResume()
} catch (e) {
  spkgError = e instanceof Error ? e.message : String(e)
}
const sides: { spkg?: EngineSide<SpkgFigures>; spkgError?: string; ink: EngineSide } = {
  spkg: spkgSide,
  spkgError,
  ink: createInkSide(inkStory.source, seed),
}
// Warm-up, then the timed choices in alternating slices, so both engines see the same machine load.
await sides.spkg?.play(warmup, false)
await sides.ink.play(warmup, false)
for (let r = 0; r < rounds; r++) {
  await sides.spkg?.play(timedChoices / rounds, true)
  await sides.ink.play(timedChoices / rounds, true)
}
const spkg: SpkgFigures | { error: string } = sides.spkg
  ? await sides.spkg.figures()
  : { error: sides.spkgError ?? 'not run' }
if ('error' in spkg) console.log(`spkg: not measured (${spkg.error})`)
else console.log('spkg', spkg)
const ink = await sides.ink.figures()
console.log('ink', ink)

const s = 'error' in spkg ? undefined : spkg
const row = rowMaker(s, ink)
console.log(`
Machine: ${cpus()[0]?.model ?? 'unknown'}, ${cpus().length} cores, Node ${process.version}
Command: pnpm bench story ${sections} ${timedChoices}

| Metric | @spkg/story | inkjs 2.4.0 | spkg advantage (>1: spkg better) |
|---|---|---|---|
${engineRows(row)}
${row('save typical state (ms)', (e) => e.typicalSaveMs, 3, 'lower')}
${row('load typical state (ms)', (e) => e.typicalLoadMs, 3, 'lower')}
| resume by replay, ${s?.resumeChoices ?? 5000} choices (ms) | ${s ? f(s.resumeMs, 1) : 'n/a'} | (no replay: LoadJson restores the call stack) | |
| of which a fresh start (parse + compile the part, ms) | ${s ? f(s.startMs, 1) : 'n/a'} | | |
| replay alone (resume minus fresh start, ms) | ${s ? f(s.resumeMs - s.startMs, 1) : 'n/a'} | | |
`)

if (only === 'all') await benchAlts(sections, timedChoices, warmup, seed)
