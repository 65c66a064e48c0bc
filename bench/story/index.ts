/**
 * `pnpm bench story [sections] [choices]`: the story interpreter against inkjs on the same
 * generated story (default 2,000 sections, the shape of the inkjs baseline in
 * `shared/notes/if-anchors.md` §5). Both engines are walked by the same seeded random walker in
 * this one process; it reports blocks/s and choices/s side by side, the save and load time of the
 * state after 75,000 choices, and the resume-by-replay time for 5,000 recorded choices.
 */
import { cpus } from 'node:os'
import { generateInkStory, generateSpkgStory } from './generate'
import { type EngineFigures, runInk } from './ink-side'
import { runSpkg, type SpkgFigures } from './spkg-side'

const sections = Number(process.argv[2] ?? 2000)
const timedChoices = Number(process.argv[3] ?? 60_000)
// Warm-up plus timed choices make the 75,000 choices after which the state is saved.
const warmup = Math.max(0, 75_000 - timedChoices)
const seed = 1

const spkgStory = generateSpkgStory(sections)
const inkStory = generateInkStory(sections)
console.log(
  `story: ${sections} sections; spkg ${spkgStory.lines} lines (${(spkgStory.part.length / 1024).toFixed(0)} KiB), ink ${inkStory.lines} lines (${(inkStory.source.length / 1024).toFixed(0)} KiB)`,
)
console.log(`walker: seed ${seed}, ${warmup} warm-up choices, ${timedChoices} timed choices\n`)

const spkg: SpkgFigures | { error: string } = await runSpkg(spkgStory, {
  warmup,
  choices: timedChoices,
  seed,
  replayChoices: 5000,
}).catch((e: unknown) => ({ error: e instanceof Error ? e.message : String(e) }))
if ('error' in spkg) console.log(`spkg: not measured (${spkg.error})`)
else console.log('spkg', spkg)

const ink = runInk(inkStory.source, { warmup, choices: timedChoices, seed })
console.log('ink', ink)

const f = (n: number, d = 0) =>
  n.toLocaleString('en-US', { maximumFractionDigits: d, minimumFractionDigits: d })
const row = (label: string, pick: (e: EngineFigures) => string, s?: EngineFigures) =>
  `| ${label} | ${s ? pick(s) : 'n/a'} | ${pick(ink)} | ${s ? `${(Number(pick(s).replace(/,/g, '')) / Number(pick(ink).replace(/,/g, ''))).toFixed(2)}x` : ''} |`
const s = 'error' in spkg ? undefined : spkg
console.log(`
Machine: ${cpus()[0]?.model ?? 'unknown'}, ${cpus().length} cores, Node ${process.version}
Command: pnpm bench story ${sections} ${timedChoices}

| Metric | @spkg/story | inkjs 2.4.0 | ratio |
|---|---|---|---|
${row('compile / parse (ms)', (e) => f(e.compileMs, 1), s)}
${row('load (ms)', (e) => f(e.loadMs, 1), s)}
${row('blocks per second', (e) => f(e.blocksPerSecond), s)}
${row('choices per second', (e) => f(e.choicesPerSecond), s)}
${row('state after 75,000 choices (KiB)', (e) => f(e.saveBytes / 1024, 1), s)}
${row('save state after 75,000 choices (ms)', (e) => f(e.saveMs, 3), s)}
${row('load state after 75,000 choices (ms)', (e) => f(e.loadStateMs, 3), s)}
| resume by replay, 5,000 choices (ms) | ${s ? f(s.resumeMs, 1) : 'n/a'} | (no replay: ink restores its call stack) | |
| typical state, save / load (ms) | ${s ? `${f(s.typicalSaveMs, 3)} / ${f(s.typicalLoadMs, 3)}` : 'n/a'} | ${'(see notes §5)'} | |
`)
