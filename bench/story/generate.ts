/**
 * Generates the benchmark story twice, once in the spkg story language and once in ink, with the
 * same shape as the inkjs baseline of `shared/notes/if-anchors.md` §5: per section a heading line,
 * text with interpolation, conditional text, a function call, a shuffle (`pick`), a tag and a read
 * count, a roll `random(1, 6)`, three once-only options (one guarded), a guarded sticky option and
 * a sticky fallback. Both versions jump to the same targets, so a walker taking the same option
 * positions walks the same graph.
 */
import { createRng, drawUint32 } from '@spkg/story'

/** mulberry32 (STORY-LANGUAGE.md §7, the engine's own generator), used here only to pick jump targets and by the walkers. */
export function mulberry32(seed: number): () => number {
  const rng = createRng(seed)
  return () => drawUint32(rng)
}

/** The five jump targets of every section (north, toll, east, wait, fallback). */
export function sectionTargets(sections: number, seed = 2000): number[][] {
  const next = mulberry32(seed)
  return Array.from({ length: sections }, () =>
    Array.from({ length: 5 }, () => Math.floor((next() * sections) / 2 ** 32)),
  )
}

/** The generated story in the spkg language: one part plus one module. */
export interface SpkgBenchStory {
  part: string
  module: string
  /** Number of source lines (part + module). */
  lines: number
}

/** Generates the spkg version: `story/0001-rooms.sty` using `extensions/lib.xty`. */
/** The generated story as the package-like source `createStoryRun` reads (one part and its module). */
export function spkgBenchSource(story: { part: string; module: string; lang?: string }) {
  return {
    id: 'bench-rooms',
    version: '1.0.0',
    parts: ['story/0001-rooms.sty'],
    readPart: (p: string) => (p === 'story/0001-rooms.sty' ? story.part : undefined),
    modules: [{ path: 'extensions/lib.xty', source: story.module }],
    // the story language the story is written in (`manifest.story_lang`); absent: 1.0
    lang: story.lang,
  }
}

export function generateSpkgStory(sections: number): SpkgBenchStory {
  const targets = sectionTargets(sections)
  const out: string[] = ['{use lib}', '{set gold = 0}', '{set r = 0}', '{seed 42}']
  for (let i = 0; i < sections; i++) {
    const [a, b, c, d, e] = targets[i] as [number, number, number, number, number]
    out.push(
      `# Room ${i} [#s${i}]`,
      '{set gold += 1}',
      `You are in room ${i} with \${gold} coins. {if gold > 10}You feel rich.{else}You feel poor.{end} #room`,
      '',
      `The air weighs \${weight(${i})} and smells of \${pick(["dust", "rain", "smoke"])}. Visit \${visits()}.`,
      '{set r = random(1, 6)}',
      `A die shows \${r}. {if r > 3}Lucky!{end}`,
      `* Go north -> #s${a}`,
      `* {if gold > 5} Pay the toll -> #s${b}`,
      `* Go east -> #s${c}`,
      `+ {if r < 6} Wait -> #s${d}`,
      `+ -> #s${e}`,
    )
  }
  const part = `${out.join('\n')}\n`
  const module = '{fn weight(n) = n % 7 + gold}\n'
  return { part, module, lines: out.length + 1 }
}

/** Generates the equivalent ink story. */
export function generateInkStory(sections: number): { source: string; lines: number } {
  const targets = sectionTargets(sections)
  const out: string[] = [
    'VAR gold = 0',
    'VAR r = 0',
    '~ SEED_RANDOM(42)',
    '-> s0',
    '',
    '=== function weight(n) ===',
    '~ return n % 7 + gold',
    '',
  ]
  for (let i = 0; i < sections; i++) {
    const [a, b, c, d, e] = targets[i] as [number, number, number, number, number]
    out.push(
      `=== s${i} ===`,
      '~ gold = gold + 1',
      `Room ${i}`,
      `You are in room ${i} with {gold} coins. {gold > 10:You feel rich.|You feel poor.} #room`,
      `The air weighs {weight(${i})} and smells of {~dust|rain|smoke}. Visit {s${i}}.`,
      '~ r = RANDOM(1, 6)',
      'A die shows {r}. {r > 3:Lucky!}',
      `* [Go north] -> s${a}`,
      `* {gold > 5} [Pay the toll] -> s${b}`,
      `* [Go east] -> s${c}`,
      `+ {r < 6} [Wait] -> s${d}`,
      `+ -> s${e}`,
      '',
    )
  }
  return { source: out.join('\n'), lines: out.length }
}
