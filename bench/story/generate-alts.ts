/**
 * The second bench story (story language 1.1): the rooms of `generate.ts` written with
 * sequences, cycles, shuffles and once-only text in every block, read counts and turns in the
 * conditions, a tunnel per section into one shared aside, and a set (the bag) that options fill
 * and empty and an option per section tests, twice, once in spkg and once in ink. Both versions
 * jump to the same targets (`altsTargets`), so a walker taking the same option positions walks
 * the same graph.
 */
import { sectionTargets } from './generate'

/**
 * The jump targets of `sectionTargets`, with a section never its own target: ink does not count a
 * divert back into the knot it is in as a visit (spkg counts every arrival at a heading), and
 * the two versions should read the same counts.
 */
export function altsTargets(sections: number): number[][] {
  return sectionTargets(sections).map((row, i) => row.map((t) => (t === i ? (i + 1) % sections : t)))
}

/** The generated 1.1 story: one part, no module. */
export interface SpkgAltsStory {
  part: string
  module: string
  lang: '1.1'
  /** Number of source lines. */
  lines: number
}

/** The items of the bag's set, in declared order (spkg `{items Kit = …}`, ink `LIST Kit = …`). */
export const kitItems = ['rope', 'lamp', 'key'] as const

/**
 * The top lines declare the set `Kit` and an empty `bag` of it. Per section: a heading with a
 * cycle, a paragraph with a sequence, a cycle and `turns()`, a block once-only alternative, a
 * paragraph with a shuffle and a read-count condition, a tunnel into the shared silent section
 * `#aside` (a line with a cycle that prints the bag, then `->->`), then three once-only options,
 * one guarded by a read count, the first adding an item to the bag (`{set bag += rope}`) and the
 * third taking another out, a sticky option guarded by a set test (`contains(bag, key)`), a
 * sticky option guarded by its own count (`visits(#w…)`, the times it was chosen), one guarded by
 * `turns(#…)`, and a sticky fallback (as the rooms story, a pause in nearly every room).
 */
export function generateAltsSpkgStory(sections: number): SpkgAltsStory {
  const targets = altsTargets(sections)
  const out: string[] = [
    `{items Kit = ${kitItems.join(', ')}}`,
    '{set bag = Kit()}',
    '{set gold = 0}',
    '{seed 42}',
  ]
  for (let i = 0; i < sections; i++) {
    const [a, b, c, d, e] = targets[i] as [number, number, number, number, number]
    const [add, take, test] = [kitItems[i % 3], kitItems[(i + 1) % 3], kitItems[(i + 2) % 3]]
    out.push(
      `# Room ${i}{cycle |, again} [#s${i}]`,
      '{set gold += 1}',
      `You are in room ${i}. {seq The dust is thick.|The dust settles.|Dust again.} {cycle A clock ticks.|A clock tocks.} Turn \${turns()}. #room`,
      '{once}',
      'A draft chills you.',
      '{or}',
      'The draft is gone.',
      '{end}',
      `The air smells of {shuffle dust|rain|smoke}. {if visits(#s${i}) > 1}You have been here \${visits(#s${i})} times.{else}First time here.{end}`,
      '-> #aside ->',
      '* Go north',
      `  {set bag += ${add}}`,
      `  -> #s${a}`,
      `* {if visits(#s${b}) > 0} Go back -> #s${b}`,
      '* Go east',
      `  {set bag -= ${take}}`,
      `  -> #s${c}`,
      `+ {if contains(bag, ${test})} Use the ${test} -> #s${b}`,
      `+ {if visits(#w${i}) % 3 != 2} Wait -> #s${d} [#w${i}]`,
      `+ {if turns(#s${e}) != 0} Return -> #s${e}`,
      `+ -> #s${e}`,
    )
  }
  out.push(
    '## [#aside]',
    `A gull {cycle cries|calls|sleeps}. {if bag}You carry \${bag}.{else}Your bag is empty.{end}`,
    '->->',
  )
  return { part: `${out.join('\n')}\n`, module: '', lang: '1.1', lines: out.length }
}

/** The ink twin of {@link generateAltsSpkgStory}. */
export function generateAltsInkStory(sections: number): { source: string; lines: number } {
  const targets = altsTargets(sections)
  const out: string[] = [
    `LIST Kit = ${kitItems.join(', ')}`,
    'VAR bag = ()',
    'VAR gold = 0',
    '~ SEED_RANDOM(42)',
    '-> s0',
    '',
  ]
  for (let i = 0; i < sections; i++) {
    const [a, b, c, d, e] = targets[i] as [number, number, number, number, number]
    const [add, take, test] = [kitItems[i % 3], kitItems[(i + 1) % 3], kitItems[(i + 2) % 3]]
    out.push(
      `=== s${i} ===`,
      '~ gold = gold + 1',
      `Room ${i}{&|, again}`,
      `You are in room ${i}. {The dust is thick.|The dust settles.|Dust again.} {&A clock ticks.|A clock tocks.} Turn {TURNS()}. #room`,
      '{!A draft chills you.|The draft is gone.}',
      `The air smells of {~dust|rain|smoke}. {s${i} > 1:You have been here {s${i}} times.|First time here.}`,
      '-> aside ->',
      '* [Go north]',
      `  ~ bag += ${add}`,
      `  -> s${a}`,
      `* {s${b} > 0} [Go back] -> s${b}`,
      '* [Go east]',
      `  ~ bag -= ${take}`,
      `  -> s${c}`,
      `+ {bag ? ${test}} [Use the ${test}] -> s${b}`,
      `+ (w${i}) {w${i} % 3 != 2} [Wait] -> s${d}`,
      `+ {TURNS_SINCE(-> s${e}) != 0} [Return] -> s${e}`,
      `+ -> s${e}`,
      '',
    )
  }
  out.push(
    '=== aside ===',
    'A gull {&cries|calls|sleeps}. {bag:You carry {bag}.|Your bag is empty.}',
    '->->',
    '',
  )
  return { source: out.join('\n'), lines: out.length }
}
